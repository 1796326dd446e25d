/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONFIRM_MIN_MS, HONEYPOT_FIELD, RESEND_FIELD, TOKEN_FIELD } from './fields';
import type { Lead } from './lead/lead';
import type { ContactState } from './state';

type Submit = (previous: ContactState, formData: FormData) => Promise<ContactState>;
type Loaded = Submit & {
  /** The action as it is, without the honeypot and signature added for the test. */
  raw: Submit;
  /** Signatures made by the loaded server (its own key) for the current request's client. */
  sign: (kind: 'time' | 'confirm', at?: number) => Promise<string>;
};

// The request's headers, as next/headers would give them inside a request.
let requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.10' });
// The proxy's source cookies (lib/contact/source.ts), as the request carries them.
let requestCookies: Record<string, string> = {};
jest.mock('next/headers', () => ({
  headers: async () => requestHeaders,
  cookies: async () => ({
    get: (name: string) =>
      name in requestCookies ? { name, value: requestCookies[name] } : undefined,
  }),
}));
// The engine, at its one boundary: start() records each lead handed over (a test may make it fail or hang).
const mockStart = jest.fn(async (..._args: unknown[]): Promise<{ runId: string }> => ({
  runId: `wrun_${randomUUID()}`,
}));
jest.mock('workflow/api', () => ({ start: (...args: unknown[]) => mockStart(...args) }));
jest.mock('./lead/workflow', () => ({ leadWorkflow: { workflowId: 'leadWorkflow' } }));
jest.mock('./lead/forward-workflow', () => ({
  forwardWorkflow: { workflowId: 'forwardWorkflow' },
}));
jest.mock('./lead/forget-workflow', () => ({ forgetWorkflow: { workflowId: 'forgetWorkflow' } }));
// The staff page's totals (lib/experiments/counters.ts): what each lead was counted as.
const mockCount = jest.fn(async (..._args: unknown[]) => undefined);
jest.mock('@/lib/experiments/counters', () => ({
  countOutcome: (...args: unknown[]) => mockCount(...args),
}));
/** The leads handed to the engine so far. */
const started = (): Lead[] => mockStart.mock.calls.map((call) => (call[1] as [Lead])[0]);

const visitor = {
  name: 'Ana Visitante',
  mail: 'ana.visitante@example.mx',
  phone: '5587654321',
  reason: 'Necesito anuncios para mi florería.',
};

/** Every state but sent gives the four typed values back. */
const typed = { ...visitor };
/** ...and the server's signature, so a person without scripts is not asked to confirm on the next press. */
const SIGNED = expect.stringMatching(/^c\./);

/** A failed send the engine may still deliver hands its key back, signed (resend-key.ts). */
const RESEND = expect.stringMatching(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}$/);

/** The sent state carries the enquiry's idempotency key, for the Ads conversion. */
const SENT = { status: 'sent', key: expect.stringMatching(/^[0-9a-f-]{36}$/) };

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}

/** Loads the action with a fresh environment (the env module reads it once). */
function loadAction(env: Record<string, string>): Loaded {
  const saved = { ...process.env };
  for (const key of [
    'CONTACT_API_BASE_URL',
    'CONTACT_SITE_KEY',
    'CONTACT_INBOX_DIR',
    'VERCEL',
    'CONTACT_RATE_LIMIT_MAX',
    'CONTACT_RATE_LIMIT_WINDOW_SECONDS',
    'TRUST_PROXY_HEADERS',
    'REDIS_URL',
    'CONTACT_OUTBOX_BACKOFF_SECONDS',
    'ALERT_SMTP_URL',
    'ALERT_EMAIL_TO',
    'ALERT_EMAIL_FROM',
    'CONTACT_FORM_SECRET',
  ]) {
    delete process.env[key];
  }
  Object.assign(process.env, env);
  let action: Submit | undefined;
  let sign: Loaded['sign'] = async () => '';
  let closeLimiter: () => void = () => {};
  jest.isolateModules(() => {
    action = (jest.requireActual('./actions') as { submitContact: Submit }).submitContact;
    const { issueToken, closeSignatureStore } = jest.requireActual(
      './signature-store',
    ) as typeof import('./signature-store');
    const { closeEnquiryLimiter } = jest.requireActual(
      './rate-limit',
    ) as typeof import('./rate-limit');
    const { requestClient } = jest.requireActual(
      '@/lib/abuse/client',
    ) as typeof import('@/lib/abuse/client');
    sign = (kind, at = Date.now() - 10_000) => issueToken(kind, requestClient(requestHeaders), at);
    // A Redis client of the abuse limit would keep reconnecting after the test.
    closeLimiter = () => {
      closeEnquiryLimiter();
      closeSignatureStore();
    };
  });
  afterEachClose.push(async () => closeLimiter());
  afterEachRestore.push(() => {
    process.env = saved;
  });
  const raw = action as Submit;
  // As a person's browser sends it: the empty honeypot and a signature of the form on screen 10 s ago.
  const submit = async (previous: ContactState, data: FormData) => {
    if (!data.has(HONEYPOT_FIELD)) data.append(HONEYPOT_FIELD, '');
    if (!data.has(TOKEN_FIELD)) data.append(TOKEN_FIELD, await sign('time'));
    return raw(previous, data);
  };
  return Object.assign(submit, { raw, sign });
}
const afterEachRestore: Array<() => void> = [];
const afterEachClose: Array<() => Promise<void>> = [];

const API = {
  CONTACT_API_BASE_URL: 'http://127.0.0.1:9/api/',
  CONTACT_SITE_KEY: 'secret-site-key',
};
const idle: ContactState = { status: 'idle' };

let fetchMock: jest.Mock;
let logs: string[];

beforeEach(() => {
  fetchMock = jest.fn();
  global.fetch = fetchMock as unknown as typeof fetch;
  logs = [];
  for (const level of ['log', 'info', 'warn', 'error'] as const) {
    jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logs.push(args.map(String).join(' '));
    });
  }
});

afterEach(async () => {
  await Promise.all(afterEachClose.splice(0).map((close) => close()));
  mockStart.mockClear();
  afterEachRestore.splice(0).forEach((restore) => restore());
  jest.restoreAllMocks();
});

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

function expectNoPersonalData() {
  const all = logs.join('\n');
  for (const value of Object.values(visitor)) expect(all).not.toContain(value);
}

describe('submitContact (the Server Action)', () => {
  it('answers invalid input with the field messages and sends nothing', async () => {
    const submit = loadAction(API);
    const state = await submit(
      idle,
      form({ name: 'Ana', mail: 'no-es-correo', phone: '', reason: 'hola' }),
    );
    expect(state).toEqual({
      status: 'invalid',
      fieldErrors: {
        name: 'Este campo debe tener al menos 5 caracteres',
        mail: 'Este campo debe ser un email',
        phone: 'Este campo es obligatorio',
        reason: 'Este campo debe tener al menos 5 caracteres',
      },
      // Given back, so a page rendered from this state (no JavaScript) keeps what was typed.
      values: { name: 'Ana', mail: 'no-es-correo', phone: '', reason: 'hola' },
      // The next press is accepted without asking to confirm.
      token: expect.stringMatching(/^c\./),
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refuses fields the form does not have, and repeated fields', async () => {
    const submit = loadAction(API);
    expect((await submit(idle, form({ ...visitor, isAdmin: 'true' }))).status).toBe('invalid');
    const repeated = form(visitor);
    repeated.append('name', 'Otra Persona');
    expect((await submit(idle, repeated)).status).toBe('invalid');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores the $ACTION entries React adds to its forms', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true }));
    const submit = loadAction(API);
    expect(
      await submit(
        idle,
        form({ ...visitor, captcha: 'e2e-token-formSubmit-clave', $ACTION_ID_abc: '' }),
      ),
    ).toEqual(SENT);
  });

  it('sends a valid enquiry, trimmed, to the contact API and reports it sent', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true, mes: 'Recibido' }));
    const submit = loadAction(API);
    const state = await submit(
      idle,
      form({ ...visitor, name: `  ${visitor.name} `, captcha: '03AFcWeA6-token_de_recaptcha' }),
    );

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [URL, RequestInit];
    expect(String(url)).toBe('http://127.0.0.1:9/api/contact?siteKey=secret-site-key');
    expect(JSON.parse(String(init.body))).toEqual({
      ...visitor,
      captcha: '03AFcWeA6-token_de_recaptcha',
    });
    const key = (init.headers as Record<string, string>)['Idempotency-Key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // The form gets the same key: the Ads conversion's transaction id.
    expect(state).toEqual({ status: 'sent', key });
  });

  it('shows the mes of an answer with success: false', async () => {
    fetchMock.mockResolvedValue(json(200, { success: false, mes: 'Ya recibimos tu solicitud' }));
    const submit = loadAction(API);
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      mes: 'Ya recibimos tu solicitud',
      values: typed,
      token: SIGNED,
    });
  });

  it('after 4 failed attempts hands the enquiry to the engine with the same key, thanks the visitor, and logs no personal data', async () => {
    fetchMock.mockImplementation(async () => json(503, { error: 'down' }));
    const submit = loadAction(API);
    const state = await submit(idle, form(visitor));

    expect(state).toEqual(SENT);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    const keys = fetchMock.mock.calls.map(
      ([, init]) =>
        (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key'],
    );
    expect(new Set(keys)).toEqual(new Set([(state as { key: string }).key]));
    expect(started()).toEqual([
      expect.objectContaining({
        key: (state as { key: string }).key,
        enquiry: expect.objectContaining(visitor),
      }),
    ]);
    expect(logs.join('\n')).toMatch(/no respondió bien.*http-503/);
    expectNoPersonalData();
  });

  it('when the engine cannot hold it either, the retry message with every value kept', async () => {
    fetchMock.mockImplementation(async () => json(503, { error: 'down' }));
    mockStart.mockRejectedValueOnce(Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' }));
    const submit = loadAction(API);
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      values: typed,
      token: SIGNED,
      resend: RESEND,
    });
    expect(logs.join('\n')).toMatch(/el motor de entregas no guardó .* \(Error: ENOSPC\)/);
    expectNoPersonalData();
  });

  it('the same words sent again after a failed send keep its Idempotency-Key; changed words, or another client, do not', async () => {
    // The engine's run may land after the visitor was asked to retry: the resend must be the same lead to the API.
    const keys = () =>
      fetchMock.mock.calls.map(
        ([, init]) =>
          (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key'],
      );
    fetchMock.mockImplementation(async () => json(503, { error: 'down' }));
    mockStart.mockRejectedValueOnce(new Error('late'));
    const submit = loadAction(API);
    const failed = await submit(idle, form(visitor));
    const resend = failed.status === 'failed' ? failed.resend : undefined;
    expect(resend).toEqual(RESEND);
    const [first] = keys();
    expect(resend?.startsWith(`${first}.`)).toBe(true);

    fetchMock.mockClear();
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    expect(await submit(idle, form({ ...visitor, [RESEND_FIELD]: resend ?? '' }))).toEqual({
      ...SENT,
      key: first,
    });
    expect(new Set(keys())).toEqual(new Set([first]));
    expect(logs.join('\n')).toContain(`Reenvío de la solicitud ${first}, con la misma clave`);

    const changed = { ...visitor, reason: 'Mejor: una tienda en línea.' };
    const others = [
      await submit(idle, form({ ...changed, [RESEND_FIELD]: resend ?? '' })),
      await submit(
        idle,
        form({ ...visitor, [RESEND_FIELD]: `${randomUUID()}.${resend?.split('.')[1]}` }),
      ),
    ];
    const here = requestHeaders;
    afterEachRestore.push(() => void (requestHeaders = here));
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.79' });
    others.push(await submit(idle, form({ ...visitor, [RESEND_FIELD]: resend ?? '' })));
    for (const state of others) expect(state).toEqual(SENT);
    expect(others.map((state) => state.status === 'sent' && state.key)).not.toContain(first);
  });

  it('gives every submission its own Idempotency-Key', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    await submit(idle, form(visitor));
    await submit(idle, form(visitor));
    const keys = fetchMock.mock.calls.map(
      ([, init]) =>
        (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key'],
    );
    expect(new Set(keys).size).toBe(2);
  });

  it('without a contact API, saves the enquiry to the local inbox and says where', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbox-'));
    const submit = loadAction({ CONTACT_INBOX_DIR: dir });
    expect(await submit(idle, form({ ...visitor, captcha: '' }))).toEqual(SENT);
    expect(await submit(idle, form(visitor))).toEqual(SENT);

    const lines = readFileSync(path.join(dir, 'enquiries.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject(visitor);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(logs.join('\n')).toContain(path.join(dir, 'enquiries.jsonl'));
    expectNoPersonalData();
  });

  it('refuses the 6th enquiry from one IP in the window, with no call upstream', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.77' });
    for (let i = 0; i < 5; i++) expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      reason: 'rate-limited',
      values: typed,
      token: SIGNED,
    });
    expect(fetchMock).toHaveBeenCalledTimes(5);
    // Another visitor still gets through.
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.78' });
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expectNoPersonalData();
  });

  it('counts only valid enquiries: invalid input never uses up the limit', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction({ ...API, CONTACT_RATE_LIMIT_MAX: '1' });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.79' });
    for (let i = 0; i < 3; i++)
      expect((await submit(idle, form({ ...visitor, mail: 'x' }))).status).toBe('invalid');
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      reason: 'rate-limited',
      values: typed,
      token: SIGNED,
    });
  });

  it('on Vercel without a contact API, fails loudly instead of pretending success', async () => {
    const submit = loadAction({ VERCEL: '1' });
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      values: typed,
      token: SIGNED,
    });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(logs.join('\n')).toMatch(/CONTACT_API_BASE_URL/);
    expectNoPersonalData();
  });
});

describe("what the API does not take live goes to the lead's workflow", () => {
  it('a delivered or refused enquiry starts no run: nothing is kept', async () => {
    const submit = loadAction(API);
    fetchMock.mockResolvedValueOnce(json(200, { success: true }));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    fetchMock.mockResolvedValueOnce(
      json(400, { success: false, mes: 'No aceptamos solicitudes de prueba' }),
    );
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      mes: 'No aceptamos solicitudes de prueba',
      values: typed,
      token: SIGNED,
    });
    expect(mockStart).not.toHaveBeenCalled();
  });

  it('an API that hangs: thanked within 4 s, held with the configured waits', async () => {
    fetchMock.mockImplementation(
      (_url: URL, init: RequestInit) =>
        new Promise((_, reject) =>
          init.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    );
    const submit = loadAction({ ...API, CONTACT_OUTBOX_BACKOFF_SECONDS: '5,10,300' });
    const began = Date.now();
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(Date.now() - began).toBeLessThan(4000);
    expect(started()).toEqual([
      expect.objectContaining({ backoffSeconds: [5, 10, 300], receivedAt: expect.any(Number) }),
    ]);
  });

  it('an engine that does not answer: the retry message within 4 s, never thanks for what was not held', async () => {
    fetchMock.mockImplementation(async () => json(503, {}));
    mockStart.mockImplementationOnce(() => new Promise(() => {}));
    const submit = loadAction(API);
    const began = Date.now();
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      values: typed,
      token: SIGNED,
      resend: RESEND,
    });
    expect(Date.now() - began).toBeLessThan(4000);
  });

  it('where the lead came from goes with the lead (the cookies and the posting page), never to the contact API', async () => {
    fetchMock
      .mockResolvedValueOnce(json(200, { success: true }))
      .mockImplementation(async () => json(503, {}));
    const submit = loadAction(API);
    requestCookies = { origen_primero: 'gclid=primero&landing=%2F&at=1' };
    requestHeaders = new Headers({
      'x-forwarded-for': '203.0.113.12',
      referer: 'https://agencia.example/?utm_source=google&utm_term=%00mal&otro=x',
    });
    try {
      expect(await submit(idle, form(visitor))).toEqual(SENT);
      expect(
        Object.keys(JSON.parse(String((fetchMock.mock.calls[0] as [URL, RequestInit])[1].body))),
      ).toEqual(['name', 'mail', 'reason', 'phone', 'captcha']);
      expect(await submit(idle, form({ ...visitor, mail: 'otra@example.mx' }))).toEqual(SENT);
      expect(started()[0]?.source).toEqual({
        first: { gclid: 'primero', landing: '/', at: 1 },
        last: { utm_source: 'google', landing: '/', at: expect.any(Number) },
      });
    } finally {
      requestCookies = {};
    }
  });

  it('a 429 with Retry-After: 120 costs the API one call, and the lead waits at least that long', async () => {
    fetchMock.mockImplementation(
      async () => new Response('{}', { status: 429, headers: { 'Retry-After': '120' } }),
    );
    const submit = loadAction({ ...API, CONTACT_OUTBOX_BACKOFF_SECONDS: '1' });
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // Honoured up to the longest wait between rounds (here 1 s, so a minute at least).
    expect(started()[0]?.retryAfterMs).toBe(60_000);
  });

  it('the local inbox that cannot be written: held by the engine for later, and the visitor thanked', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbox-'));
    const submit = loadAction({ CONTACT_INBOX_DIR: path.join(dir, 'no-existe', '\u0000') });
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(started()).toHaveLength(1);
  });
});

describe('configuration never fails a visitor', () => {
  it('CONTACT_OUTBOX_BACKOFF_SECONDS=abc: delivered, and a held one waits the default backoff', async () => {
    const submit = loadAction({ ...API, CONTACT_OUTBOX_BACKOFF_SECONDS: 'abc' });
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(started()[0]?.backoffSeconds).toEqual([60, 300, 900, 3600, 10800]);
  });

  it('a malformed REDIS_URL or abuse limit: delivered, with the default limit', async () => {
    const submit = loadAction({
      ...API,
      REDIS_URL: 'localhost:6379',
      CONTACT_RATE_LIMIT_MAX: 'cinco',
      CONTACT_RATE_LIMIT_WINDOW_SECONDS: '-5',
      TRUST_PROXY_HEADERS: 'yes',
    });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.90' });
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    for (let i = 0; i < 5; i++) expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(await submit(idle, form(visitor))).toEqual({
      status: 'failed',
      reason: 'rate-limited',
      values: typed,
      token: SIGNED,
    });
  });

  it('an abuse limit whose Redis client cannot be made: the same limit in memory, and logged', async () => {
    jest.doMock(
      'ioredis',
      () =>
        class {
          constructor() {
            throw new Error('ERR_INVALID_URL');
          }
        },
    );
    try {
      const submit = loadAction({
        ...API,
        REDIS_URL: 'redis://127.0.0.1:9',
        CONTACT_RATE_LIMIT_MAX: '1',
      });
      requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.91' });
      fetchMock.mockImplementation(async () => json(200, { success: true }));
      expect(await submit(idle, form(visitor))).toEqual(SENT);
      expect(await submit(idle, form(visitor))).toEqual({
        status: 'failed',
        reason: 'rate-limited',
        values: typed,
        token: SIGNED,
      });
      expect(logs.join('\n')).toMatch(/ERROR: no se pudo preparar el límite de solicitudes/);
    } finally {
      jest.dontMock('ioredis');
    }
  });
});

describe('the spam filter, at no cost to a person', () => {
  const THANKED_AS_A_PERSON = { status: 'sent' };

  it('a filled honeypot is thanked like a person, kept apart, and neither delivered nor counted as a lead', async () => {
    const submit = loadAction({ ...API });
    const state = await submit(
      idle,
      form({ ...visitor, [HONEYPOT_FIELD]: 'https://spam.example' }),
    );
    // No key: the page converts nothing.
    expect(state).toEqual(THANKED_AS_A_PERSON);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(started()).toEqual([
      expect.objectContaining({ spamRule: 'honeypot', enquiry: expect.objectContaining(visitor) }),
    ]);
    expect(logs.join('\n')).toMatch(/Posible spam \(honeypot\) apartado/);
    expectNoPersonalData();
  });

  it('a post without the honeypot at all (never served the form) is kept apart too, even unsigned', async () => {
    const submit = loadAction({ ...API });
    expect(await submit.raw(idle, form(visitor))).toEqual(THANKED_AS_A_PERSON);
    expect(started()).toEqual([expect.objectContaining({ spamRule: 'honeypot-missing' })]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a content rule (a reason made only of links) keeps it apart', async () => {
    const submit = loadAction({ ...API });
    expect(
      await submit(
        idle,
        form({ ...visitor, reason: 'https://casino.example https://pills.example' }),
      ),
    ).toEqual(THANKED_AS_A_PERSON);
    expect(started()).toEqual([expect.objectContaining({ spamRule: 'only-links' })]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("a reason that mentions the visitor's own website is an ordinary enquiry", async () => {
    fetchMock.mockResolvedValue(json(200, { success: true }));
    const submit = loadAction(API);
    expect(
      await submit(
        idle,
        form({ ...visitor, reason: 'Quiero rediseñar www.floreriaana.mx para vender en línea.' }),
      ),
    ).toEqual(SENT);
  });

  it('unsigned, forged, from another address or expired: asked to confirm with every value kept, nothing stored, no count against the limit', async () => {
    const submit = loadAction({ ...API, ...{ CONTACT_RATE_LIMIT_MAX: '1' } });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.77' });
    const confirm = { status: 'confirm', values: typed, token: SIGNED };
    requestHeaders = new Headers({ 'x-forwarded-for': '198.51.100.7' });
    const elsewhere = await submit.sign('time');
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.77' });
    const [time, confirmation] = [await submit.sign('time'), await submit.sign('confirm')];
    const forged = `${time.slice(0, time.lastIndexOf('.'))}.${'A'.repeat(22)}`;
    const expired = await submit.sign('confirm', Date.now() - 3 * 60 * 60 * 1000);
    for (const token of [
      '',
      't.abc.AAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA',
      forged,
      elsewhere,
      expired,
      confirmation.replace(/^c/, 't'),
    ]) {
      const answer = await submit(idle, form({ ...visitor, [TOKEN_FIELD]: token }));
      expect(answer).toEqual(confirm);
      expect((answer as { token: string }).token).not.toBe(token);
    }
    expect(fetchMock).not.toHaveBeenCalled();
    // Nothing was handed to the engine.
    expect(mockStart).not.toHaveBeenCalled();

    // A person presses once more after reading the answer, and that one counts.
    fetchMock.mockResolvedValue(json(200, { success: true }));
    const answered = (await submit(idle, form({ ...visitor, [TOKEN_FIELD]: '' }))) as {
      token: string;
    };
    await new Promise((resolve) => setTimeout(resolve, CONFIRM_MIN_MS + 100));
    expect(await submit(idle, form({ ...visitor, [TOKEN_FIELD]: answered.token }))).toEqual(SENT);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("too soon (a program's pace): asked again with a new signature, whose wait starts over; stored nowhere", async () => {
    const submit = loadAction(API);
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.81' });
    const early = [
      await submit.sign('time', Date.now() - 2500),
      await submit.sign('confirm', Date.now() - 1000),
    ];
    for (const token of early) {
      const answer = (await submit(idle, form({ ...visitor, [TOKEN_FIELD]: token }))) as {
        token: string;
      };
      expect(answer).toEqual({ status: 'confirm', values: typed, token: expect.any(String) });
      expect(answer.token).not.toBe(token);
    }
    // The confirmation the server just wrote, posted back at once, then that answer's, and so on: asked again each
    // time, with a signature as young as the answer, so a loop that waits for nothing never gets through.
    let answered = (await submit(idle, form({ ...visitor, [TOKEN_FIELD]: '' }))) as {
      token: string;
    };
    const waitStarted = Date.now();
    while (Date.now() - waitStarted < CONFIRM_MIN_MS + 300) {
      const again = (await submit(idle, form({ ...visitor, [TOKEN_FIELD]: answered.token }))) as {
        token: string;
      };
      expect(again).toEqual({ status: 'confirm', values: typed, token: expect.any(String) });
      answered = again;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // An invalid post's answer does not skip the wait either.
    const invalid = (await submit(idle, form({ ...visitor, mail: 'no-es-un-correo' }))) as {
      status: string;
      token: string;
    };
    expect(invalid.status).toBe('invalid');
    expect((await submit(idle, form({ ...visitor, [TOKEN_FIELD]: invalid.token }))).status).toBe(
      'confirm',
    );
    expect(fetchMock).not.toHaveBeenCalled();
    expect(mockStart).not.toHaveBeenCalled();
  });

  it('a signature serves one enquiry: the same one again is asked to confirm, and only the first reaches the API', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true }));
    const submit = loadAction(API);
    requestHeaders = new Headers({ 'x-forwarded-for': '2001:db8:1:2:aaaa::1' });
    const token = await submit.sign('time');
    expect(await submit(idle, form({ ...visitor, [TOKEN_FIELD]: token }))).toEqual(SENT);
    // The same /64: the same client, and the signature already spent.
    requestHeaders = new Headers({ 'x-forwarded-for': '2001:db8:1:2:bbbb::9' });
    for (const mail of ['otra@example.mx', 'tercera@example.mx']) {
      expect(await submit(idle, form({ ...visitor, mail, [TOKEN_FIELD]: token }))).toEqual({
        status: 'confirm',
        values: { ...typed, mail },
        token: SIGNED,
      });
    }
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a signature made with the key once derived from CONTACT_SITE_KEY is asked to confirm', async () => {
    const submit = loadAction(API);
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.82' });
    const { createHash, createHmac } = await import('node:crypto');
    const oldKey = createHash('sha256').update(`contacto:firma:${API.CONTACT_SITE_KEY}`).digest();
    const body = `t.${(Date.now() - 60_000).toString(36)}`;
    const oldShape = `${body}.${createHmac('sha256', oldKey).update(body).digest().subarray(0, 16).toString('base64url')}`;
    const nonce = 'AAAAAAAAAAA';
    const newShape = `${body}.${nonce}.${createHmac('sha256', oldKey).update(`${body}.${nonce}|203.0.113.82`).digest().subarray(0, 16).toString('base64url')}`;
    for (const token of [oldShape, newShape])
      expect((await submit(idle, form({ ...visitor, [TOKEN_FIELD]: token }))).status).toBe(
        'confirm',
      );
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('spam also counts against the abuse limit, and a flood past it is stored nowhere', async () => {
    const submit = loadAction({ ...API, ...{ CONTACT_RATE_LIMIT_MAX: '2' } });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.78' });
    for (let i = 0; i < 5; i++) await submit(idle, form({ ...visitor, [HONEYPOT_FIELD]: 'x' }));
    expect(started()).toHaveLength(2);
  });
});

describe('QA enquiries (an address at .invalid): every check, then thanked, never delivered', () => {
  const qa = { ...visitor, mail: 'qa+pixel-7-1764000000000@pruebas.invalid' };
  const QA_LINE = /\[contacto\] Solicitud de prueba \(QA, dirección \.invalid\) [0-9a-f-]{36}: /;
  const qaLines = () => logs.filter((line) => QA_LINE.test(line));
  const alerting = {
    ALERT_SMTP_URL: 'smtp://avisos:secreto@127.0.0.1:9',
    ALERT_EMAIL_TO: 'agencia@example.mx',
  };

  it('is thanked without a key (no conversion): no API call, nothing stored, no alert, one log line without what was typed', async () => {
    const submit = loadAction({ ...API, ...alerting });
    expect(await submit(idle, form(qa))).toEqual({ status: 'sent' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(mockStart).not.toHaveBeenCalled();
    expect(qaLines()).toEqual([
      expect.stringMatching(/pasó el filtro de spam; no se envía a la API de contacto/),
    ]);
    expect(logs).toHaveLength(1);
    for (const value of Object.values(qa)) expect(logs.join('\n')).not.toContain(value);
  });

  it('is the same with the API down: the API is never asked, so nothing is kept for later', async () => {
    fetchMock.mockImplementation(async () => json(503, {}));
    const submit = loadAction({ ...API, ...alerting });
    expect(await submit(idle, form({ ...qa, mail: 'QA@Pruebas.INVALID' }))).toEqual({
      status: 'sent',
    });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(mockStart).not.toHaveBeenCalled();
  });

  it('runs every check a visitor runs: the field rules, the form signature, the abuse limit', async () => {
    const submit = loadAction({ ...API, CONTACT_RATE_LIMIT_MAX: '1' });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.90' });
    expect((await submit(idle, form({ ...qa, phone: '' }))).status).toBe('invalid');
    expect((await submit(idle, form({ ...qa, [TOKEN_FIELD]: '' }))).status).toBe('confirm');
    expect(await submit(idle, form(qa))).toEqual({ status: 'sent' });
    expect(await submit(idle, form(qa))).toEqual({
      status: 'failed',
      reason: 'rate-limited',
      values: qa,
      token: SIGNED,
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is not counted as spam: what the rules would have done is said in its log line, and nothing is kept apart', async () => {
    const submit = loadAction({ ...API, ...alerting });
    expect(await submit(idle, form({ ...qa, [HONEYPOT_FIELD]: 'x' }))).toEqual({ status: 'sent' });
    expect(
      await submit(idle, form({ ...qa, reason: 'https://casino.example https://pills.example' })),
    ).toEqual({
      status: 'sent',
    });
    expect(mockStart).not.toHaveBeenCalled();
    expect(mockStart).not.toHaveBeenCalled();
    expect(qaLines()).toEqual([
      expect.stringMatching(/el filtro de spam la habría apartado \(honeypot\)/),
      expect.stringMatching(/el filtro de spam la habría apartado \(only-links\)/),
    ]);
    expect(logs.join('\n')).not.toMatch(/Posible spam/);
  });

  it('without a contact API, it is not written to the local inbox either', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbox-'));
    const submit = loadAction({ CONTACT_INBOX_DIR: dir });
    expect(await submit(idle, form(qa))).toEqual({ status: 'sent' });
    expect(readdirSync(dir)).toEqual([]);
    expect(qaLines()).toEqual([expect.stringMatching(/no se envía a la bandeja local/)]);
  });

  it('a deployment that could not deliver answers QA as it would a visitor: the failure, and why, in the log', async () => {
    const submit = loadAction({ VERCEL: '1' });
    expect(await submit(idle, form(qa))).toEqual({ status: 'failed', values: qa, token: SIGNED });
    expect(logs.join('\n')).toMatch(
      /Solicitud de prueba \(QA, dirección \.invalid\) [0-9a-f-]{36} no atendida: .*CONTACT_API_BASE_URL/,
    );
  });

  it("is never counted on the staff page's totals, held as spam or not; a person's lead is", async () => {
    mockCount.mockClear();
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    expect(await submit(idle, form(qa))).toEqual({ status: 'sent' });
    expect(
      await submit(idle, form({ ...qa, reason: 'https://casino.example https://pills.example' })),
    ).toEqual({
      status: 'sent',
    });
    expect(mockCount).not.toHaveBeenCalled();
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(mockCount.mock.calls.map(([outcome]) => outcome)).toEqual(['received', 'live']);
  });

  it('only the reserved domain marks it: an address merely mentioning "invalid" is a visitor\'s', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    for (const mail of [
      'invalid@example.mx',
      'ana@invalid.com.mx',
      'ana@noinvalid.mx',
      'ana@ejemplo.invalidos.mx',
    ]) {
      expect(await submit(idle, form({ ...visitor, mail }))).toEqual(SENT);
    }
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(qaLines()).toEqual([]);
  });
});

describe("the captcha is never the visitor's to fix", () => {
  it('a captcha that is no reCAPTCHA token (a space, a control character, over 4,096) goes as none, and the enquiry is delivered', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    for (const captcha of ['token con espacios', '03A\u0000x', 'a'.repeat(5000)]) {
      expect(await submit(idle, form({ ...visitor, captcha }))).toEqual(SENT);
    }
    for (const [, init] of fetchMock.mock.calls as Array<[URL, RequestInit]>)
      expect(JSON.parse(String(init.body)).captcha).toBe('');
  });
});
