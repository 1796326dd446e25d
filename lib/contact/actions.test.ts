/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { OutboxEntry } from './outbox/entry';
import { HONEYPOT_FIELD, TOKEN_FIELD } from './fields';
import { FileOutboxStore } from './outbox/file-store';
import { newEntry } from './outbox/policy';
import { flushStore } from './outbox/flush';
import { startStuckRedis } from '@/test-support/stuck-redis';
import type { ContactState } from './state';

type Submit = (previous: ContactState, formData: FormData) => Promise<ContactState>;
type Loaded = Submit & {
  /** The action as it is, without the honeypot and signature added for the test. */
  raw: Submit;
  /** Signatures made by the loaded server (its own key). */
  sign: (kind: 'time' | 'confirm', at?: number) => string;
};

// The request's headers, as next/headers would give them inside a request.
let requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.10' });
jest.mock('next/headers', () => ({ headers: async () => requestHeaders }));
// after() from next/server needs a request scope: here its tasks are kept and run by the test.
const mockAfterTasks: Array<() => Promise<void>> = [];
// Outside a request scope the real after() throws.
let mockOutsideRequest = false;
jest.mock('next/server', () => ({
  after: (task: () => Promise<void>) => {
    if (mockOutsideRequest) throw new Error('`after` was called outside a request scope.');
    mockAfterTasks.push(task);
  },
}));

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
    'CRON_SECRET',
    'REDIS_URL',
    'CONTACT_OUTBOX',
    'CONTACT_OUTBOX_BACKOFF_SECONDS',
    'CONTACT_OUTBOX_MAX_ENTRIES',
    'CONTACT_OUTBOX_MAX_BYTES',
    'ALERT_SMTP_URL',
    'ALERT_EMAIL_TO',
    'ALERT_EMAIL_FROM',
    'CONTACT_FORM_SECRET',
  ]) {
    delete process.env[key];
  }
  Object.assign(process.env, env);
  let action: Submit | undefined;
  let sign: Loaded['sign'] = () => '';
  let closeOutbox: () => Promise<void> = async () => {};
  jest.isolateModules(() => {
    action = (jest.requireActual('./actions') as { submitContact: Submit }).submitContact;
    const { signToken } = jest.requireActual('./form-token') as typeof import('./form-token');
    const { getFormTokenKey } = jest.requireActual('@/lib/env/server') as typeof import('@/lib/env/server');
    sign = (kind, at = Date.now() - 10_000) => signToken(getFormTokenKey().key, kind, at);
    const { getOutbox } = jest.requireActual('./outbox/outbox') as typeof import('./outbox/outbox');
    const { closeEnquiryLimiter } = jest.requireActual('./rate-limit') as typeof import('./rate-limit');
    // Redis clients (outbox, abuse limit) would keep reconnecting after the test.
    closeOutbox = async () => {
      closeEnquiryLimiter();
      await getOutbox()?.store.close();
    };
  });
  afterEachClose.push(() => closeOutbox());
  afterEachRestore.push(() => {
    process.env = saved;
  });
  const raw = action as Submit;
  // As a person's browser sends it: the empty honeypot and a signature of the form on screen 10 s ago.
  const submit = (previous: ContactState, data: FormData) => {
    if (!data.has(HONEYPOT_FIELD)) data.append(HONEYPOT_FIELD, '');
    if (!data.has(TOKEN_FIELD)) data.append(TOKEN_FIELD, sign('time'));
    return raw(previous, data);
  };
  return Object.assign(submit, { raw, sign });
}
const afterEachRestore: Array<() => void> = [];
const afterEachClose: Array<() => Promise<void>> = [];

// Today's path, with no outbox in front of the API (the outbox has its own tests below).
const API = { CONTACT_API_BASE_URL: 'http://127.0.0.1:9/api/', CONTACT_SITE_KEY: 'secret-site-key', CONTACT_OUTBOX: 'off' };
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
  mockOutsideRequest = false;
  await Promise.all(afterEachClose.splice(0).map((close) => close()));
  mockAfterTasks.splice(0);
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
    const state = await submit(idle, form({ name: 'Ana', mail: 'no-es-correo', phone: '', reason: 'hola' }));
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
    expect(await submit(idle, form({ ...visitor, captcha: 'e2e-token-formSubmit-clave', '$ACTION_ID_abc': '' }))).toEqual(SENT);
  });

  it('sends a valid enquiry, trimmed, to the contact API and reports it sent', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true, mes: 'Recibido' }));
    const submit = loadAction(API);
    const state = await submit(idle, form({ ...visitor, name: `  ${visitor.name} `, captcha: '03AFcWeA6-token_de_recaptcha' }));

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [URL, RequestInit];
    expect(String(url)).toBe('http://127.0.0.1:9/api/contact?siteKey=secret-site-key');
    expect(JSON.parse(String(init.body))).toEqual({ ...visitor, captcha: '03AFcWeA6-token_de_recaptcha' });
    const key = (init.headers as Record<string, string>)['Idempotency-Key'];
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    // The form gets the same key: the Ads conversion's transaction id.
    expect(state).toEqual({ status: 'sent', key });
  });

  it('shows the mes of an answer with success: false', async () => {
    fetchMock.mockResolvedValue(json(200, { success: false, mes: 'Ya recibimos tu solicitud' }));
    const submit = loadAction(API);
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', mes: 'Ya recibimos tu solicitud', values: typed, token: SIGNED });
  });

  it('after 4 failed attempts reports the failure without a mes and logs it without personal data', async () => {
    fetchMock.mockImplementation(async () => json(503, { error: 'down' }));
    const submit = loadAction(API);
    const state = await submit(idle, form(visitor));

    expect(state).toEqual({ status: 'failed', values: typed, token: SIGNED });
    expect(fetchMock).toHaveBeenCalledTimes(4);
    const keys = fetchMock.mock.calls.map(([, init]) => (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(1);
    expect(logs.join('\n')).toMatch(/no entregada.*http-503/);
    expectNoPersonalData();
  });

  it('gives every submission its own Idempotency-Key', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    await submit(idle, form(visitor));
    await submit(idle, form(visitor));
    const keys = fetchMock.mock.calls.map(([, init]) => (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key']);
    expect(new Set(keys).size).toBe(2);
  });

  it('without a contact API, saves the enquiry to the local inbox and says where', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbox-'));
    const submit = loadAction({ CONTACT_INBOX_DIR: dir });
    expect(await submit(idle, form({ ...visitor, captcha: '' }))).toEqual(SENT);
    expect(await submit(idle, form(visitor))).toEqual(SENT);

    const lines = readFileSync(path.join(dir, 'enquiries.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
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
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', reason: 'rate-limited', values: typed, token: SIGNED });
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
    for (let i = 0; i < 3; i++) expect((await submit(idle, form({ ...visitor, mail: 'x' }))).status).toBe('invalid');
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', reason: 'rate-limited', values: typed, token: SIGNED });
  });

  it('on Vercel without a contact API, fails loudly instead of pretending success', async () => {
    const submit = loadAction({ VERCEL: '1' });
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', values: typed, token: SIGNED });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(logs.join('\n')).toMatch(/CONTACT_API_BASE_URL/);
    expectNoPersonalData();
  });
});

/** The action with a file outbox in a fresh folder, and a reader of the entries it keeps. */
function withOutbox(extra: Record<string, string> = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
  const submit = loadAction({ ...API, CONTACT_OUTBOX: 'auto', CONTACT_INBOX_DIR: dir, ...extra });
  const entries = () =>
    readdirSync(path.join(dir, 'outbox'))
      .filter((name) => name.endsWith('.json'))
      .map((name) => JSON.parse(readFileSync(path.join(dir, 'outbox', name), 'utf8')));
  return { submit, entries };
}

describe('submitContact with an outbox (files)', () => {

  it('stores the enquiry before the first attempt and removes it once the API has it', async () => {
    const { submit, entries } = withOutbox();
    let storedDuringAttempt: unknown[] = [];
    fetchMock.mockImplementation(async () => {
      storedDuringAttempt = entries();
      return json(200, { success: true });
    });
    expect(await submit(idle, form(visitor))).toEqual({ status: 'sent', key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(storedDuringAttempt).toEqual([expect.objectContaining({ state: 'pending', enquiry: expect.objectContaining(visitor) })]);
    // After the answer (a stuck store never holds it): removed, then the redelivery of others' due entries, and there are none.
    expect(mockAfterTasks).toHaveLength(1);
    await mockAfterTasks[0]?.();
    expect(entries()).toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('a refusal shows the mes and keeps nothing: the API said no', async () => {
    const { submit, entries } = withOutbox();
    fetchMock.mockResolvedValue(json(422, { success: false, mes: 'Captcha inválido' }));
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', mes: 'Captcha inválido', values: typed, token: SIGNED });
    await mockAfterTasks[0]?.();
    expect(entries()).toEqual([]);
  });

  it('API down: the visitor is thanked within the short deadline, the entry stays pending, retried after the answer', async () => {
    const { submit, entries } = withOutbox({ CONTACT_OUTBOX_BACKOFF_SECONDS: '5,10' });
    fetchMock.mockImplementation(async () => json(503, {}));
    const started = Date.now();
    expect(await submit(idle, form(visitor))).toEqual({ status: 'sent', key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(Date.now() - started).toBeLessThan(3500);
    const [stored] = entries();
    expect(stored).toMatchObject({ state: 'pending', rounds: 0, enquiry: visitor });
    const attemptsLive = fetchMock.mock.calls.length;

    // after(): one more round, still down: released with its backoff.
    expect(mockAfterTasks).toHaveLength(1);
    await mockAfterTasks[0]?.();
    expect(fetchMock.mock.calls.length).toBeGreaterThan(attemptsLive);
    const keys = fetchMock.mock.calls.map(([, init]) => (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key']);
    expect(new Set(keys)).toEqual(new Set([stored.key]));
    const [kept] = entries();
    expect(kept).toMatchObject({ key: stored.key, state: 'pending', rounds: 1, lastFailure: expect.stringContaining('http-503') });
    expect(kept.lease).toBeUndefined();
    expect(kept.nextAttemptAt - Date.now()).toBeGreaterThan(3000);
    expect(logs.join('\n')).toMatch(/queda en la bandeja de salida/);
    expectNoPersonalData();
  });

  it('the retry after the answer delivers it when the API is back', async () => {
    const { submit, entries } = withOutbox();
    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual({ status: 'sent', key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    await mockAfterTasks[0]?.();
    expect(entries()).toEqual([]);
  });

  it('a slow but working API (1.5 s) still succeeds live', async () => {
    const { submit, entries } = withOutbox();
    fetchMock.mockImplementation(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return json(200, { success: true });
    });
    expect(await submit(idle, form(visitor))).toEqual({ status: 'sent', key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await mockAfterTasks[0]?.();
    expect(entries()).toEqual([]);
  });

  it('when the outbox cannot be written (Redis down), delivers live as today and says so loudly', async () => {
    const submit = loadAction({ ...API, CONTACT_OUTBOX: 'auto', REDIS_URL: 'redis://127.0.0.1:9' });
    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', values: typed, token: SIGNED });
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(logs.join('\n')).toMatch(/ERROR: no se pudo guardar .* en la bandeja de salida .*se intenta solo en vivo/);
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    expect(await submit(idle, form(visitor))).toEqual({ status: 'sent', key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expectNoPersonalData();
  });

  /** Enquiries of earlier visitors, left pending and due now, as the flush would find them. */
  async function earlierDue(dir: string, count: number): Promise<OutboxEntry[]> {
    const store = new FileOutboxStore(dir);
    const entries = Array.from({ length: count }, (_, n) => {
      const { lease: _lease, ...entry } = newEntry(randomUUID(), { ...visitor, name: `Visitante Anterior ${n}`, captcha: '' }, Date.now() - 120_000, 'gone');
      return { ...entry, rounds: 1, nextAttemptAt: Date.now() - 1000 };
    });
    for (const entry of entries) await store.add(entry);
    return entries;
  }
  const keysSent = () => fetchMock.mock.calls.map(([, init]) => (init as RequestInit & { headers: Record<string, string> }).headers['Idempotency-Key']);

  it('every enquiry delivered live also redelivers up to 3 due entries of earlier visitors, after the answer', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const earlier = await earlierDue(dir, 4);
    const submit = loadAction({ ...API, CONTACT_OUTBOX: 'auto', CONTACT_INBOX_DIR: dir });
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const state = await submit(idle, form(visitor));
    expect(state).toEqual(SENT);
    // The visitor's answer came with one call: the others wait for after().
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(mockAfterTasks).toHaveLength(1);
    await mockAfterTasks[0]?.();
    const redelivered = keysSent().slice(1);
    expect(redelivered).toHaveLength(3);
    expect(redelivered.every((key) => earlier.some((entry) => entry.key === key))).toBe(true);
    expect(readdirSync(path.join(dir, 'outbox')).filter((name) => name.endsWith('.json'))).toHaveLength(1);
    expectNoPersonalData();
  });

  it('with the API down, after() first retries this enquiry, then tries the due entries of others', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const earlier = await earlierDue(dir, 1);
    const submit = loadAction({ ...API, CONTACT_OUTBOX: 'auto', CONTACT_INBOX_DIR: dir });
    fetchMock.mockImplementation(async () => json(503, {}));
    const state = await submit(idle, form(visitor));
    expect(state).toEqual(SENT);
    const live = keysSent().length;
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    await mockAfterTasks[0]?.();
    expect(keysSent().slice(live)).toEqual([state.status === 'sent' && state.key, earlier[0]?.key]);
    expect(readdirSync(path.join(dir, 'outbox')).filter((name) => name.endsWith('.json'))).toEqual([]);
  });

  it('when after() cannot take work (outside a request), the visitor still gets the answer and the entry stays for the flush', async () => {
    const { submit, entries } = withOutbox();
    mockOutsideRequest = true;
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(entries()).toEqual([expect.objectContaining({ state: 'pending', rounds: 0 })]);
    expect(logs.join('\n')).toMatch(/No se pudo dejar trabajo para después de la respuesta/);
  });

  it('CONTACT_OUTBOX=off: the failure path of today, nothing stored', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const submit = loadAction({ ...API, CONTACT_OUTBOX: 'off', CONTACT_INBOX_DIR: dir });
    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', values: typed, token: SIGNED });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('configuration never fails a visitor', () => {
  const ALERTS = { ALERT_SMTP_URL: 'smtp://u:p@127.0.0.1:9', ALERT_EMAIL_TO: 'ventas@agencia.mx', ALERT_EMAIL_FROM: 'avisos@agencia.mx' };
  const runAfterTasks = async () => {
    for (const task of mockAfterTasks.splice(0)) await task();
  };

  it('ALERT_SMTP_URL=foo: the enquiry is delivered, kept when the API is down, and no alert is tried', async () => {
    const { submit, entries } = withOutbox({ ...ALERTS, ALERT_SMTP_URL: 'foo' });
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    await runAfterTasks();
    const [kept] = entries();
    expect(kept).toMatchObject({ state: 'pending', rounds: 1, alerted: { pending: false, dead: false } });
    expect(logs.join('\n')).not.toMatch(/aviso por correo/i);
    expectNoPersonalData();
  });

  it('CONTACT_OUTBOX_BACKOFF_SECONDS=abc: the enquiry is delivered, and a kept one waits the default first backoff (60 s)', async () => {
    const { submit, entries } = withOutbox({ CONTACT_OUTBOX_BACKOFF_SECONDS: 'abc' });
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    expect(await submit(idle, form(visitor))).toEqual(SENT);

    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    await runAfterTasks();
    const [kept] = entries();
    expect(kept.nextAttemptAt - Date.now()).toBeGreaterThan(50_000);
    expect(kept.nextAttemptAt - Date.now()).toBeLessThanOrEqual(60_000);
  });

  it('a malformed REDIS_URL, abuse limit or CONTACT_OUTBOX: delivered, with the outbox in files and the default limit', async () => {
    const { submit, entries } = withOutbox({
      REDIS_URL: 'localhost:6379',
      CONTACT_RATE_LIMIT_MAX: 'cinco',
      CONTACT_RATE_LIMIT_WINDOW_SECONDS: '-5',
      CONTACT_OUTBOX: 'siempre',
      TRUST_PROXY_HEADERS: 'yes',
    });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.90' });
    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(entries()).toHaveLength(1);
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    for (let i = 0; i < 4; i++) expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', reason: 'rate-limited', values: typed, token: SIGNED });
  });

  it('an outbox that cannot be opened: delivered live, as without an outbox, and logged', async () => {
    jest.doMock('./outbox/file-store', () => ({
      FileOutboxStore: class {
        constructor() {
          throw new Error('EACCES');
        }
      },
    }));
    try {
      const { submit } = withOutbox({});
      fetchMock.mockImplementation(async () => json(200, { success: true }));
      expect(await submit(idle, form(visitor))).toEqual(SENT);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(logs.join('\n')).toMatch(/ERROR: no se pudo abrir la bandeja de salida/);
      expect(mockAfterTasks).toHaveLength(0);
    } finally {
      jest.dontMock('./outbox/file-store');
    }
  });

  it('an abuse limit whose Redis client cannot be made: the same limit in memory, and logged', async () => {
    jest.doMock('ioredis', () =>
      class {
        constructor() {
          throw new Error('ERR_INVALID_URL');
        }
      },
    );
    try {
      const submit = loadAction({ ...API, REDIS_URL: 'redis://127.0.0.1:9', CONTACT_RATE_LIMIT_MAX: '1' });
      requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.91' });
      fetchMock.mockImplementation(async () => json(200, { success: true }));
      expect(await submit(idle, form(visitor))).toEqual(SENT);
      expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', reason: 'rate-limited', values: typed, token: SIGNED });
      expect(logs.join('\n')).toMatch(/ERROR: no se pudo preparar el límite de solicitudes/);
    } finally {
      jest.dontMock('ioredis');
    }
  });
});

describe('the spam filter, at no cost to a person', () => {
  const THANKED_AS_A_PERSON = { status: 'sent' };

  it('a filled honeypot is thanked like a person, kept apart, and neither delivered nor counted as a lead', async () => {
    const { submit, entries } = withOutbox();
    const state = await submit(idle, form({ ...visitor, [HONEYPOT_FIELD]: 'https://spam.example' }));
    // No key: the page converts nothing.
    expect(state).toEqual(THANKED_AS_A_PERSON);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(entries()).toEqual([expect.objectContaining({ state: 'spam', spamRule: 'honeypot', enquiry: expect.objectContaining(visitor) })]);
    expect(mockAfterTasks).toHaveLength(0);
    expect(logs.join('\n')).toMatch(/Posible spam \(honeypot\) guardado aparte/);
    expectNoPersonalData();
  });

  it('a post without the honeypot at all (never served the form) is kept apart too, even unsigned', async () => {
    const { submit, entries } = withOutbox();
    expect(await submit.raw(idle, form(visitor))).toEqual(THANKED_AS_A_PERSON);
    expect(entries()).toEqual([expect.objectContaining({ state: 'spam', spamRule: 'honeypot-missing' })]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a content rule (a reason made only of links) keeps it apart', async () => {
    const { submit, entries } = withOutbox();
    expect(await submit(idle, form({ ...visitor, reason: 'https://casino.example https://pills.example' }))).toEqual(THANKED_AS_A_PERSON);
    expect(entries()).toEqual([expect.objectContaining({ state: 'spam', spamRule: 'only-links' })]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a reason that mentions the visitor\'s own website is an ordinary enquiry', async () => {
    fetchMock.mockResolvedValue(json(200, { success: true }));
    const submit = loadAction(API);
    expect(await submit(idle, form({ ...visitor, reason: 'Quiero rediseñar www.floreriaana.mx para vender en línea.' }))).toEqual(SENT);
  });

  it('unsigned, signed too soon, forged or expired: asked to confirm with every value kept, nothing stored, no count against the limit', async () => {
    const { submit, entries } = withOutbox({ CONTACT_RATE_LIMIT_MAX: '1' });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.77' });
    const confirm = { status: 'confirm', values: typed, token: SIGNED };
    for (const token of ['', submit.sign('time', Date.now() - 500), 't.abc.AAAAAAAAAAAAAAAAAAAAAA', submit.sign('confirm', Date.now() - 3 * 60 * 60 * 1000)]) {
      expect(await submit(idle, form({ ...visitor, [TOKEN_FIELD]: token }))).toEqual(confirm);
    }
    expect(fetchMock).not.toHaveBeenCalled();
    // Nothing was stored: the outbox folder was never even made.
    expect(() => entries()).toThrow(/ENOENT/);

    // The answer's own signature is accepted at once: a person presses once more, and that one counts.
    fetchMock.mockResolvedValue(json(200, { success: true }));
    const answered = (await submit(idle, form({ ...visitor, [TOKEN_FIELD]: '' }))) as { token: string };
    expect(await submit(idle, form({ ...visitor, [TOKEN_FIELD]: answered.token }))).toEqual(SENT);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('spam also counts against the abuse limit, and a flood past it is stored nowhere', async () => {
    const { submit, entries } = withOutbox({ CONTACT_RATE_LIMIT_MAX: '2' });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.78' });
    for (let i = 0; i < 5; i++) await submit(idle, form({ ...visitor, [HONEYPOT_FIELD]: 'x' }));
    expect(entries()).toHaveLength(2);
  });

  it('with no store to keep it in (CONTACT_OUTBOX=off) and no alerts: thanked, dropped, and said in the log', async () => {
    const submit = loadAction(API);
    expect(await submit(idle, form({ ...visitor, [HONEYPOT_FIELD]: 'x' }))).toEqual(THANKED_AS_A_PERSON);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(logs.join('\n')).toMatch(/Posible spam \(honeypot\) descartado sin guardar/);
    expectNoPersonalData();
  });

  it('without a contact API (the local inbox), spam is kept apart in the outbox folder, not in the inbox', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'inbox-'));
    const submit = loadAction({ CONTACT_INBOX_DIR: dir });
    expect(await submit(idle, form({ ...visitor, [HONEYPOT_FIELD]: 'x' }))).toEqual(THANKED_AS_A_PERSON);
    expect(readdirSync(path.join(dir, 'outbox')).filter((name) => name.endsWith('.json'))).toHaveLength(1);
    expect(readdirSync(dir)).not.toContain('enquiries.jsonl');
  });
});

describe('QA enquiries (an address at .invalid): every check, then thanked, never delivered', () => {
  const qa = { ...visitor, mail: 'qa+pixel-7-1764000000000@pruebas.invalid' };
  const QA_LINE = /\[contacto\] Solicitud de prueba \(QA, dirección \.invalid\) [0-9a-f-]{36}: /;
  const qaLines = () => logs.filter((line) => QA_LINE.test(line));
  const alerting = { ALERT_SMTP_URL: 'smtp://avisos:secreto@127.0.0.1:9', ALERT_EMAIL_TO: 'agencia@example.mx' };

  it('is thanked without a key (no conversion): no API call, nothing stored, no alert, one log line without what was typed', async () => {
    const { submit } = withOutbox(alerting);
    expect(await submit(idle, form(qa))).toEqual({ status: 'sent' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(mockAfterTasks).toHaveLength(0);
    expect(qaLines()).toEqual([expect.stringMatching(/pasó el filtro de spam; no se envía a la API de contacto/)]);
    expect(logs).toHaveLength(1);
    for (const value of Object.values(qa)) expect(logs.join('\n')).not.toContain(value);
  });

  it('is the same with the API down: the API is never asked, so nothing is kept for later', async () => {
    fetchMock.mockImplementation(async () => json(503, {}));
    const { submit, entries } = withOutbox(alerting);
    expect(await submit(idle, form({ ...qa, mail: 'QA@Pruebas.INVALID' }))).toEqual({ status: 'sent' });
    expect(fetchMock).not.toHaveBeenCalled();
    // The outbox folder was never even made.
    expect(() => entries()).toThrow(/ENOENT/);
  });

  it('runs every check a visitor runs: the field rules, the form signature, the abuse limit', async () => {
    const submit = loadAction({ ...API, CONTACT_RATE_LIMIT_MAX: '1' });
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.90' });
    expect((await submit(idle, form({ ...qa, phone: '' }))).status).toBe('invalid');
    expect((await submit(idle, form({ ...qa, [TOKEN_FIELD]: '' }))).status).toBe('confirm');
    expect(await submit(idle, form(qa))).toEqual({ status: 'sent' });
    expect(await submit(idle, form(qa))).toEqual({ status: 'failed', reason: 'rate-limited', values: qa, token: SIGNED });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is not counted as spam: what the rules would have done is said in its log line, and nothing is kept apart', async () => {
    const { submit, entries } = withOutbox(alerting);
    expect(await submit(idle, form({ ...qa, [HONEYPOT_FIELD]: 'x' }))).toEqual({ status: 'sent' });
    expect(await submit(idle, form({ ...qa, reason: 'https://casino.example https://pills.example' }))).toEqual({ status: 'sent' });
    expect(() => entries()).toThrow(/ENOENT/);
    expect(mockAfterTasks).toHaveLength(0);
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
    expect(logs.join('\n')).toMatch(/Solicitud de prueba \(QA, dirección \.invalid\) [0-9a-f-]{36} no atendida: .*CONTACT_API_BASE_URL/);
  });

  it('only the reserved domain marks it: an address merely mentioning "invalid" is a visitor\'s', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    for (const mail of ['invalid@example.mx', 'ana@invalid.com.mx', 'ana@noinvalid.mx', 'ana@ejemplo.invalidos.mx']) {
      expect(await submit(idle, form({ ...visitor, mail }))).toEqual(SENT);
    }
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(qaLines()).toEqual([]);
  });
});

describe('the captcha is never the visitor\'s to fix', () => {
  it('a captcha that is no reCAPTCHA token (a space, a control character, over 4,096) goes as none, and the enquiry is delivered', async () => {
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    const submit = loadAction(API);
    for (const captcha of ['token con espacios', '03A\u0000x', 'a'.repeat(5000)]) {
      expect(await submit(idle, form({ ...visitor, captcha }))).toEqual(SENT);
    }
    for (const [, init] of fetchMock.mock.calls as Array<[URL, RequestInit]>) expect(JSON.parse(String(init.body)).captcha).toBe('');
  });
});

describe('nothing a store or the API can exhaust', () => {
  it('a Redis that answers the handshake and nothing more: the visitor is thanked within 4 s, delivered once, and nothing is stored later', async () => {
    const stuck = await startStuckRedis();
    try {
      const submit = loadAction({ ...API, CONTACT_OUTBOX: 'auto', REDIS_URL: stuck.url });
      fetchMock.mockImplementation(async () => json(200, { success: true }));
      const started = Date.now();
      expect(await submit(idle, form(visitor))).toEqual(SENT);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(fetchMock).toHaveBeenCalledTimes(1);
      const log = logs.join('\n');
      // The limit gave up on Redis within its 300 ms, once, and the outbox within its second.
      expect(log).toMatch(/Redis no respondió al límite de solicitudes en 300 ms/);
      expect(log).toMatch(/no se pudo guardar .* en la bandeja de salida \(no respondió en 1000 ms\); se intenta solo en vivo/);
      // A second visitor: the limit answers from memory without saying it again.
      requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.77' });
      const again = Date.now();
      expect(await submit(idle, form(visitor))).toEqual(SENT);
      expect(Date.now() - again).toBeLessThan(4000);
      expect(logs.filter((line) => /límite de solicitudes en 300 ms/.test(line))).toHaveLength(1);
      expect(stuck.heldCommands()).toBeGreaterThan(0);
    } finally {
      await stuck.stop();
    }
  }, 20_000);

  it('the same stuck Redis with the API down: the failure message (WhatsApp, phone) within 4 s, never thanks for what was not stored', async () => {
    const stuck = await startStuckRedis();
    try {
      const submit = loadAction({ ...API, CONTACT_OUTBOX: 'auto', REDIS_URL: stuck.url });
      fetchMock.mockImplementation(async () => json(503, {}));
      const started = Date.now();
      expect(await submit(idle, form(visitor))).toEqual({ status: 'failed', values: typed, token: SIGNED });
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await stuck.stop();
    }
  }, 20_000);

  it('a full outbox: a new enquiry is still tried live; when that fails too, the failure message, and the agency is told', async () => {
    const { submit, entries } = withOutbox({ CONTACT_OUTBOX_MAX_ENTRIES: '1' });
    fetchMock.mockImplementation(async () => json(503, {}));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(entries()).toHaveLength(1);
    mockAfterTasks.splice(0);

    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.78' });
    expect(await submit(idle, form({ ...visitor, mail: 'otra.persona@example.mx' }))).toEqual({ status: 'failed', values: { ...typed, mail: 'otra.persona@example.mx' }, token: SIGNED });
    expect(entries()).toHaveLength(1);
    expect(logs.join('\n')).toMatch(/la bandeja de salida está llena; .* se intenta solo en vivo/);

    // The API back: the live try thanks the visitor, with nothing stored.
    fetchMock.mockImplementation(async () => json(200, { success: true }));
    requestHeaders = new Headers({ 'x-forwarded-for': '203.0.113.79' });
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    expect(entries()).toHaveLength(1);
  });

  it('a 429 with Retry-After: 120 costs the API one call, and no flush asks again within 20 s', async () => {
    const { submit, entries } = withOutbox({ CONTACT_OUTBOX_BACKOFF_SECONDS: '5,10,300' });
    fetchMock.mockImplementation(async () => new Response('{}', { status: 429, headers: { 'Retry-After': '120' } }));
    expect(await submit(idle, form(visitor))).toEqual(SENT);
    for (const task of mockAfterTasks.splice(0)) await task();
    const [kept] = entries();
    expect(kept.nextAttemptAt - Date.now()).toBeGreaterThan(115_000);
    const store = new FileOutboxStore(String(process.env.CONTACT_INBOX_DIR));
    for (const seconds of [5, 10, 20]) {
      await flushStore({ store, config: { backoffSeconds: [5, 10, 300] }, api: { baseUrl: 'http://127.0.0.1:9/api/', siteKey: 'k' }, now: () => Date.now() + seconds * 1000 });
    }
    expect(fetchMock.mock.calls.length).toBeLessThanOrEqual(2);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
