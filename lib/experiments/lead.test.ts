/**
 * @jest-environment node
 */
import { after } from 'next/server';
import { cookies } from 'next/headers';
import type { LeadSource } from '@/lib/contact/source';
import { countLead } from './counters';
import { decodeExperiments, encodeExperiments } from './lead-experiment';
import { countedLead, leadExperiments, postedExperiments, taggedWith } from './lead';
import { encodeVisitor, newVisitorId, VISITOR_COOKIE } from './visitor';

jest.mock('./counters', () => ({ countLead: jest.fn(() => Promise.resolve()) }));
jest.mock('next/server', () => ({ after: jest.fn() }));
jest.mock('next/headers', () => ({ cookies: jest.fn() }));
jest.mock('../content-experiments', () => ({
  experiments: [
    {
      name: 'titulo',
      runs: true,
      variants: [
        { id: 'control', label: 'Actual' },
        { id: 'b', label: 'B', overrides: { 'hero.headline': 'Otro' } },
      ],
      split: [50, 50],
    },
    { name: 'viejo', runs: false, variants: [], split: [] },
  ],
}));

/** Runs what the action left for after its answer, with these cookies. */
async function afterAnswer(qa: boolean) {
  jest.mocked(cookies).mockResolvedValue({ get: () => (qa ? { value: '1' } : undefined) } as never);
  for (const [task] of jest.mocked(after).mock.calls) await (task as () => Promise<void>)();
  jest.mocked(after).mockClear();
}

beforeEach(() => jest.clearAllMocks());

describe('the variant a lead was sent from', () => {
  it('travels in the form as experiment:variant pairs and reads back', () => {
    const list = [
      { name: 'titulo', variant: 'b' },
      { name: 'boton', variant: 'control' },
    ];
    expect(encodeExperiments(list)).toBe('titulo:b,boton:control');
    expect(decodeExperiments('titulo:b,boton:control')).toEqual(list);
  });

  it.each(['', 'titulo', 'titulo:B', 'titulo:b,titulo:control', 'a:b;c', `a:${'b'.repeat(700)}`])(
    'reads no pair from %j',
    (value) => expect(decodeExperiments(value)).toEqual([]),
  );

  it('keeps only the variants of a running experiment', () => {
    expect(postedExperiments('titulo:b')).toEqual([{ name: 'titulo', variant: 'b' }]);
    expect(postedExperiments('titulo:z')).toEqual([]);
    expect(postedExperiments('viejo:b')).toEqual([]);
    expect(postedExperiments(undefined)).toEqual([]);
  });

  it("from a form without the field (the retry page), is the one the visitor's cookie keeps", async () => {
    const jar = (value?: string) =>
      jest.mocked(cookies).mockResolvedValue({
        get: (name: string) => (name === VISITOR_COOKIE && value ? { value } : undefined),
      } as never);
    const visitor = (variants: Record<string, string>) =>
      encodeVisitor({ id: newVisitorId(), day: 1, variants });
    jar(visitor({ titulo: 'b', viejo: 'b' }));
    expect(await leadExperiments(undefined)).toEqual([{ name: 'titulo', variant: 'b' }]);
    // A posted field wins, even an empty one (a page of no experiment says so).
    expect(await leadExperiments('titulo:control')).toEqual([
      { name: 'titulo', variant: 'control' },
    ]);
    expect(await leadExperiments('')).toEqual([]);
    jar(visitor({ titulo: 'zz' }));
    expect(await leadExperiments(undefined)).toEqual([]);
    jar('no-es-una-cookie');
    expect(await leadExperiments(undefined)).toEqual([]);
    jar(undefined);
    expect(await leadExperiments(undefined)).toEqual([]);
  });

  it("goes on the lead's source, beside where it came from", () => {
    const context = { source: { last: { utm_source: 'google' } }, visitor: undefined };
    expect(taggedWith([{ name: 'titulo', variant: 'b' }])(context)).toEqual({
      source: { last: { utm_source: 'google' }, experiments: [{ name: 'titulo', variant: 'b' }] },
      visitor: undefined,
    });
    const none: { source?: LeadSource } = {};
    const two = [
      { name: 'titulo', variant: 'b' },
      { name: 'boton', variant: 'control' },
    ];
    expect(taggedWith(two)(none).source).toEqual({ experiments: two });
    expect(taggedWith([])(context)).toBe(context);
  });

  it("is counted once a person's lead is thanked, after the answer", async () => {
    const state = { status: 'sent', key: 'k' } as const;
    expect(countedLead([{ name: 'titulo', variant: 'b' }])(state)).toBe(state);
    expect(countLead).not.toHaveBeenCalled();
    await afterAnswer(false);
    expect(countLead).toHaveBeenCalledWith('titulo', 'b', expect.any(Number));
  });

  it('is not counted for a QA visit, a failed send or a page of no experiment', async () => {
    countedLead([{ name: 'titulo', variant: 'b' }])({ status: 'sent', key: 'k' });
    await afterAnswer(true);
    countedLead([{ name: 'titulo', variant: 'b' }])({ status: 'failed' });
    countedLead([])({ status: 'sent', key: 'k' });
    await afterAnswer(false);
    expect(countLead).not.toHaveBeenCalled();
  });
});
