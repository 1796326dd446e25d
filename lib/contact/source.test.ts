/**
 * @jest-environment node
 */
import {
  decodeTouch,
  encodeTouch,
  experimentsOf,
  leadSourceOf,
  SOURCE_VALUE_MAX,
  touchLines,
  touchOf,
  type LeadSource,
} from './source';

const NOW = Date.UTC(2026, 10, 25, 18, 0, 0);
const SITE = 'https://agencia.example';

describe('where a lead came from', () => {
  it('keeps the click ids and campaign tags, the landing path and the other site it came from', () => {
    const url = new URL(
      `${SITE}/?gclid=Cj0KCQ-abc_123&utm_source=google&utm_medium=cpc&utm_campaign=florerias%20cdmx&gad_source=1&fbclid=IwAR0x`,
    );
    expect(touchOf(url, 'https://www.google.com/', NOW)).toEqual({
      gclid: 'Cj0KCQ-abc_123',
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'florerias cdmx',
      gad_source: '1',
      fbclid: 'IwAR0x',
      landing: '/',
      referrer: 'https://www.google.com',
      at: NOW,
    });
  });

  it('drops silently what is not on the list, too long, unsafe, repeated, or its own site as referrer', () => {
    const long = 'x'.repeat(5000);
    const url = new URL(
      `${SITE}/?utm_term=${long}&utm_source=a%00b&utm_content=%3Cscript%3E&foo=bar&utm_medium=a&utm_medium=b&utm_campaign=ok`,
    );
    expect(touchOf(url, `${SITE}/gracias`, NOW)).toEqual({
      utm_campaign: 'ok',
      landing: '/',
      at: NOW,
    });
    expect(
      touchOf(new URL(`${SITE}/?utm_term=${'y'.repeat(SOURCE_VALUE_MAX)}`), null, NOW)?.utm_term,
    ).toHaveLength(SOURCE_VALUE_MAX);
    expect(touchOf(new URL(`${SITE}/?foo=bar`), null, NOW)).toBeUndefined();
    expect(touchOf(new URL(`${SITE}/`), 'javascript:alert(1)', NOW)).toBeUndefined();
  });

  it('travels in a cookie and is checked again when read back', () => {
    const touch = touchOf(
      new URL(`${SITE}/?gclid=abc&utm_campaign=navidad`),
      'https://m.facebook.com/',
      NOW,
    );
    expect(decodeTouch(encodeTouch(touch ?? {}))).toEqual(touch);
    expect(
      decodeTouch('gclid=%3Cb%3E&landing=evil&referrer=https://x.example/path&at=-5'),
    ).toBeUndefined();
    expect(decodeTouch('x'.repeat(5000))).toBeUndefined();
    expect(decodeTouch(undefined)).toBeUndefined();
  });

  it("the lead's source: the first touch from its cookie, the visit from its cookie and the posting page's address", () => {
    const first = encodeTouch({
      gclid: 'primero',
      utm_source: 'google',
      landing: '/',
      at: NOW - 2 * 86_400_000,
    });
    expect(leadSourceOf({ first }, `${SITE}/`, NOW)).toEqual({
      first: { gclid: 'primero', utm_source: 'google', landing: '/', at: NOW - 2 * 86_400_000 },
    });
    const last = encodeTouch({
      utm_source: 'facebook',
      referrer: 'https://l.facebook.com',
      landing: '/',
      at: NOW - 1000,
    });
    expect(leadSourceOf({ first, last }, `${SITE}/?utm_campaign=hoy`, NOW)?.last).toEqual({
      utm_source: 'facebook',
      utm_campaign: 'hoy',
      landing: '/',
      referrer: 'https://l.facebook.com',
      at: NOW,
    });
    expect(leadSourceOf({}, 'no es una dirección', NOW)).toBeUndefined();
    expect(leadSourceOf({}, null, NOW)).toBeUndefined();
  });

  it('reads as lines for the agency, without the time', () => {
    expect(
      touchLines({ gclid: 'abc', landing: '/', referrer: 'https://www.google.com', at: NOW }),
    ).toEqual(['gclid: abc', 'página de llegada: /', 'llegó desde: https://www.google.com']);
    expect(touchLines(undefined)).toEqual([]);
  });

  it('carries every experiment and variant the page showed, checked again whenever it is read back', () => {
    const experiments = [
      { name: 'titular-verano', variant: 'b' },
      { name: 'orden', variant: 'control' },
    ];
    expect(experimentsOf({ last: { gclid: 'abc', at: NOW }, experiments })).toEqual(experiments);
    // Kept by a build before experiments: none, and no error; before leads named several: its one.
    expect(experimentsOf({ last: { gclid: 'abc', at: NOW } })).toEqual([]);
    expect(experimentsOf(undefined)).toEqual([]);
    expect(experimentsOf({ experiment: experiments[0] } as LeadSource)).toEqual([experiments[0]]);
    // Anything else that was written there (an edited run, another build): dropped, never passed on.
    const read = (pair: unknown) => experimentsOf({ experiments: [pair] } as LeadSource);
    expect(read({ name: 'Titular Verano', variant: 'b' })).toEqual([]);
    expect(read({ name: 'titular--verano', variant: 'b' })).toEqual([]);
    expect(read({ name: 'titular-verano', variant: '<b>' })).toEqual([]);
    expect(read({ name: 'x'.repeat(41), variant: 'b' })).toEqual([]);
    expect(read({ name: 'x'.repeat(40), variant: 'control' })).toEqual([
      { name: 'x'.repeat(40), variant: 'control' },
    ]);
    expect(read({ name: 'titular-verano' })).toEqual([]);
    expect(read('titular-verano:b')).toEqual([]);
    // Only the two names are kept; each experiment once; at most 8.
    expect(read({ name: 'a', variant: 'b', mail: 'ana@example.mx' })).toEqual([
      { name: 'a', variant: 'b' },
    ]);
    expect(
      experimentsOf({
        experiments: [experiments[0], { ...experiments[0], variant: 'c' }],
      } as LeadSource),
    ).toEqual([experiments[0]]);
    const many = Array.from({ length: 20 }, (_, index) => ({ name: `e${index}`, variant: 'b' }));
    expect(experimentsOf({ experiments: many })).toHaveLength(8);
    expect(experimentsOf({ experiments: 'titular-verano:b' } as unknown as LeadSource)).toEqual([]);
  });
});
