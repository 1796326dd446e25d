/**
 * @jest-environment node
 */
import { fakeLead } from '@/test-support/fake-world';
import type { LeadRun } from './runs';
import { origin, totalsLines, whenGone, whyHere } from './words';

const DAY = 24 * 60 * 60 * 1000;
const run = (extra: Partial<LeadRun>): LeadRun => ({
  runId: 'wrun_x',
  state: 'pending',
  lead: fakeLead(0),
  ...extra,
});

describe('what the staff read about a lead', () => {
  it('says why a spam was held, why a letter is dead, and that a held lead is being retried', () => {
    expect(whyHere(run({ state: 'spam', lead: fakeLead(0, { spamRule: 'only-links' }) }))).toBe(
      'El mensaje no tiene texto, solo enlaces',
    );
    const outcome = {
      outcome: 'dead',
      reason: 'refused',
      refusal: 'Correo\u001b[31m inválido',
      deadAt: 0,
    } as const;
    expect(whyHere(run({ state: 'dead', outcome }))).toBe(
      'rechazada por la API: Correo [31m inválido',
    );
    expect(whyHere(run({}))).toMatch(/el motor la reintenta/);
  });

  it('says until when a held lead is retried, and when a spam or a dead letter goes', () => {
    const at = Date.UTC(2026, 10, 1, 12, 30);
    expect(whenGone(run({ retriedUntil: at + DAY }))).toBe(
      'se reintenta hasta el 2026-11-02 12:30 UTC',
    );
    expect(whenGone(run({ state: 'spam', forgetAt: at + 30 * DAY }))).toBe(
      'se descarta el 2026-12-01',
    );
    expect(whenGone(run({ state: 'dead', forgetAt: at + 30 * DAY }))).toBe(
      'se borra el 2026-12-01',
    );
    expect(whenGone(run({ state: 'delivered' }))).toBeUndefined();
  });

  it('names the campaign and click id it came from, and the first visit when it was another', () => {
    const lead = fakeLead(0, {
      source: {
        last: { utm_source: 'facebook', utm_campaign: 'verano', fbclid: 'abc', at: 2 },
        first: { gclid: 'xyz', at: 1 },
      },
    });
    expect(origin({ lead })).toBe(
      'fbclid: abc; utm_source: facebook; utm_campaign: verano · primera visita: gclid: xyz',
    );
    expect(origin({ lead: fakeLead(0) })).toBe('');
  });

  it('names the experiment and variant the lead saw, after where it came from; none for a lead before them', () => {
    const experiments = [{ name: 'titular-verano', variant: 'b' }];
    expect(
      origin({
        lead: fakeLead(0, { source: { last: { utm_source: 'google', at: 1 }, experiments } }),
      }),
    ).toBe('utm_source: google · experimento: titular-verano, variante b');
    expect(origin({ lead: fakeLead(0, { source: { experiments } }) })).toBe(
      'experimento: titular-verano, variante b',
    );
    const two = [...experiments, { name: 'orden', variant: 'control' }];
    expect(origin({ lead: fakeLead(0, { source: { experiments: two } }) })).toBe(
      'experimento: titular-verano, variante b; orden, variante control',
    );
    expect(
      origin({ lead: fakeLead(0, { source: { experiments: [{ name: 'x y', variant: 'b' }] } }) }),
    ).toBe('');
  });

  it('adds up the totals of the counters’ days, or says why it cannot count', () => {
    const outcomes = {
      received: [3, 0, 2],
      live: [1, 0, 1],
      later: [1, 0, 0],
      spam: [1, 0, 0],
      dead: [0, 0, 1],
    };
    expect(
      totalsLines({
        counting: true,
        days: ['2026-11-01', '2026-11-02', '2026-11-03'],
        experiments: {},
        outcomes,
      }),
    ).toEqual([
      'Recibidas: 5',
      'Entregadas al momento: 2',
      'Entregadas al reintentar: 1',
      'Posible spam: 1',
      'No entregadas: 1',
    ]);
    expect(totalsLines({ counting: false, why: 'no hay REDIS_URL' })).toEqual([
      'No se puede contar: no hay REDIS_URL',
    ]);
  });
});
