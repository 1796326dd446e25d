/**
 * @jest-environment node
 */
import fc from 'fast-check';
import { CONTACT_FIELDS, HONEYPOT_FIELD, TOKEN_FIELD } from './fields';
import { CONTACT_MESSAGES } from './rules';
import { spamRule } from './spam-rules';
import type { ContactState } from './state';

type Submit = (previous: ContactState, formData: FormData) => Promise<ContactState>;

jest.mock('next/headers', () => ({
  headers: async () => new Headers({ 'x-forwarded-for': '203.0.113.200' }),
  cookies: async () => ({ get: () => undefined }),
}));
// The engine, at its boundary: spam held back is handed to it (never reached by the API).
jest.mock('workflow/api', () => ({ start: async () => ({ runId: 'wrun_prueba' }) }));
jest.mock('./lead/workflow', () => ({ leadWorkflow: {} }));
jest.mock('./lead/forward-workflow', () => ({ forwardWorkflow: {} }));
jest.mock('./lead/forget-workflow', () => ({ forgetWorkflow: {} }));
// The staff page's totals, proved in lib/experiments/counters.test.ts: not written ~330 times here, after the test.
jest.mock('@/lib/experiments/counters', () => ({
  countOutcome: async () => undefined,
  countLead: async () => undefined,
}));

const FIELDS = [...CONTACT_FIELDS, 'captcha'] as const;
const LIMITS = {
  name: [5, 100],
  mail: [1, 100],
  phone: [1, 15],
  reason: [5, 500],
  captcha: [0, Infinity],
} as const;
const MESSAGES = new Set<string>(Object.values(CONTACT_MESSAGES));
// The e-mail rule of the schema; the oracle below re-states every other rule from the spec.
const EMAIL =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

let submit: Submit;
let sign: () => Promise<string> = async () => '';
const fetchMock = jest.fn(
  async () => new Response(JSON.stringify({ success: true }), { status: 200 }),
);

beforeAll(() => {
  process.env.CONTACT_API_BASE_URL = 'http://127.0.0.1:9/api/';
  process.env.CONTACT_SITE_KEY = 'k';
  process.env.CONTACT_RATE_LIMIT_MAX = '1000000';
  global.fetch = fetchMock as unknown as typeof fetch;
  jest.spyOn(console, 'info').mockImplementation(() => {});
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
  jest.isolateModules(() => {
    submit = (jest.requireActual('./actions') as { submitContact: Submit }).submitContact;
    // The loaded server's own signature, as its answer gives it, read by a person: the filter's checks are tested in actions.test.ts.
    const { issueToken } = jest.requireActual(
      './signature-store',
    ) as typeof import('./signature-store');
    sign = () => issueToken('confirm', '203.0.113.200', Date.now() - 10_000);
  });
});

afterAll(() => jest.restoreAllMocks());

type Entry = [string, string | Blob];

/** What the spec allows, stated independently of the schema. */
function oracle(entries: Entry[]): Record<string, string> | null {
  const keys = entries.map(([key]) => key);
  if (keys.some((key) => !(FIELDS as readonly string[]).includes(key))) return null;
  if (new Set(keys).size !== keys.length) return null;
  const values: Record<string, string> = {};
  for (const field of FIELDS) {
    const entry = entries.find(([key]) => key === field);
    if (entry && typeof entry[1] !== 'string') return null;
    // FormData holds text as USVString: a lone surrogate arrives as U+FFFD.
    const raw = ((entry?.[1] as string | undefined) ?? '').toWellFormed();
    // Pasted text as a textarea holds it: one kind of line break, no tabs.
    const typed =
      field === 'reason' ? raw.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/\t/g, ' ') : raw;
    // A captcha not shaped like a reCAPTCHA token (its alphabet, at most 4,096) goes as none.
    values[field] =
      field === 'captcha' ? (/^[A-Za-z0-9_-]{0,4096}$/.test(raw) ? raw : '') : typed.trim();
    // The phone is checked and sent without the spaces (of any width), dashes, dots and parentheses people type.
    if (field === 'phone')
      values[field] = (values[field] ?? '').replace(/[\p{Zs}\u2010-\u2013.()-]/gu, '');
    const [min, max] = LIMITS[field];
    // Lengths in characters (code points), as a person counts them: an emoji is one, not two UTF-16 units.
    const length = [...values[field]].length;
    if (length < min || length > max) return null;
    // Hygiene: no control characters (a newline in the reason aside), no line separators in a single line.
    const forbidden =
      field === 'reason'
        ? /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/
        : /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
    if (field !== 'captcha' && forbidden.test(values[field])) return null;
  }
  if (!/\p{L}/u.test(values.name ?? '')) return null;
  return EMAIL.test(values.mail ?? '') ? values : null;
}

const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }), // lone surrogates, control characters, non-BMP
  fc.constantFrom(
    '<script>alert(1)</script>',
    '"><img src=x onerror=alert(1)>',
    "'; DROP TABLE contactos; --",
    '\u0000\u0007\u001b[31m',
    '😀😀😀',
    '   ',
  ),
  fc.string({ minLength: 90, maxLength: 600 }),
  fc.integer({ min: 0, max: 20_000 }).map((n) => 'x'.repeat(n)),
);
const mail = fc.oneof(
  fc.emailAddress(),
  text,
  fc.emailAddress().map((m) => ` ${m} `),
);
const fieldValue = (field: string) => (field === 'mail' ? mail : text);
const value = (field: string): fc.Arbitrary<string | Blob> =>
  fc.oneof(
    { weight: 9, arbitrary: fieldValue(field) },
    { weight: 1, arbitrary: fc.constant(new Blob(['file'])) },
  );

const entries: fc.Arbitrary<Entry[]> = fc
  .tuple(
    fc.subarray([...FIELDS], { minLength: 0 }),
    fc.array(fc.oneof(fc.constantFrom(...FIELDS), fc.string({ minLength: 1, maxLength: 12 })), {
      maxLength: 2,
    }),
  )
  .chain(([present, extra]) =>
    fc.tuple(...[...present, ...extra].map((key) => value(key).map((v): Entry => [key, v]))),
  );

// Mostly well-formed enquiries too, so the accepted side is exercised as hard as the rejected one.
const plausible: fc.Arbitrary<Entry[]> = fc
  .record({
    name: fc.oneof(
      fc.string({ minLength: 3, maxLength: 110 }),
      fc.constantFrom(
        'Ana López',
        'José Ñúñez 😀',
        'Ana',
        '𐀀 𐀀',
        '😀😀😀😀😀',
        '😀😀 😀',
        '\uD800 \uD800 x',
      ),
    ),
    mail: fc.oneof(
      fc.constantFrom('ana@example.mx', 'jose.nunez+citas@sub.example.com.mx'),
      fc.emailAddress(),
      text,
    ),
    phone: fc.oneof(
      fc.string({ minLength: 0, maxLength: 18 }),
      fc.constantFrom('+52 55 1234 5678', '5512345678'),
    ),
    reason: fc.oneof(
      fc.string({ minLength: 3, maxLength: 520 }),
      fc.constantFrom('Quiero una página web.', '😀 😀', '😀😀😀😀😀', '😀'.repeat(400)),
    ),
    captcha: fc.oneof(
      fc.constant(''),
      fc.stringMatching(/^[A-Za-z0-9_-]{20,80}$/),
      fc.string({ maxLength: 50 }),
    ),
  })
  .map((record) => Object.entries(record) as Entry[]);

describe('the action against generated input', () => {
  it('accepts exactly what the rules allow and rejects the rest with field messages, sending nothing', async () => {
    let accepted = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(entries, plausible, plausible), async (input) => {
        fetchMock.mockClear();
        const formData = new FormData();
        for (const [key, v] of input) formData.append(key, v);
        // As the form posts it: the empty honeypot and a signature.
        formData.append(HONEYPOT_FIELD, '');
        formData.append(TOKEN_FIELD, await sign());
        const state = await submit({ status: 'idle' }, formData);
        const expected = oracle(input);
        if (expected && spamRule(expected as never)) {
          // Judged spam: thanked like a person, sent nowhere.
          expect(state).toEqual({ status: 'sent' });
          expect(fetchMock).not.toHaveBeenCalled();
        } else if (expected) {
          accepted += 1;
          expect(state).toEqual({ status: 'sent', key: expect.any(String) });
          expect(fetchMock).toHaveBeenCalledTimes(1);
          const [, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit];
          expect(JSON.parse(String(init.body))).toEqual(expected);
        } else {
          rejected += 1;
          expect(state.status).toBe('invalid');
          expect(fetchMock).not.toHaveBeenCalled();
          if (state.status === 'invalid') {
            for (const message of Object.values(state.fieldErrors))
              expect(MESSAGES.has(message as string)).toBe(true);
          }
        }
      }),
      { numRuns: 3000 },
    );
    console.log(`property test: ${accepted} accepted, ${rejected} rejected`);
    expect(accepted).toBeGreaterThan(100);
    expect(rejected).toBeGreaterThan(1000);
  }, 120_000);
});
