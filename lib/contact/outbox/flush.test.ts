/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { flushStore } from './flush';
import { CircuitBreaker, contactApiBreaker } from '../breaker';
import { FileOutboxStore } from './file-store';
import { ALERT_TIMEOUT_MS, LEASE_MS, newEntry } from './policy';
import { UPSTREAM_DEFAULTS } from '../upstream';
import { startSmtpSink } from '@/test-support/smtp-sink';

// Each test starts with the API's circuit closed: one test's failing API is not the next one's.
beforeEach(() => contactApiBreaker.reset());

describe('releasing a suspected spam (npm run outbox -- release <key>)', () => {
  const enquiry = { name: 'Roberto Enlaces', mail: 'roberto@example.mx', phone: '5512345678', reason: 'https://mi-negocio.example.com', captcha: '' };
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    jest.restoreAllMocks();
  });

  async function setUp(status: number) {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = mkdtempSync(path.join(tmpdir(), 'release-'));
    Object.assign(process.env, { CONTACT_API_BASE_URL: 'http://127.0.0.1:9/api/', CONTACT_SITE_KEY: 'k', CONTACT_INBOX_DIR: dir, CONTACT_OUTBOX_BACKOFF_SECONDS: '60' });
    for (const level of ['info', 'warn', 'error'] as const) jest.spyOn(console, level).mockImplementation(() => {});
    const fetchMock = jest.fn(async () => new Response(JSON.stringify({ success: status === 200 }), { status }));
    global.fetch = fetchMock as unknown as typeof fetch;
    let modules: { flush: typeof import('./flush'); policy: typeof import('./policy'); store: typeof import('./file-store') } | undefined;
    jest.isolateModules(() => {
      modules = {
        flush: jest.requireActual('./flush'),
        policy: jest.requireActual('./policy'),
        store: jest.requireActual('./file-store'),
      };
    });
    const { flush, policy, store: stores } = modules as NonNullable<typeof modules>;
    const store = new stores.FileOutboxStore(dir);
    const spam = policy.spamEntry('3f1c2a9e-0000-4000-8000-000000000001', enquiry, Date.now() - 60_000, 'only-links');
    await store.add(spam);
    const config = { backoffSeconds: [60] };
    return { release: (key: string) => flush.releaseSpam(store, config, key), store, fetchMock, key: spam.key };
  }

  it('delivers it at once with its own key, and it leaves the quarantine', async () => {
    const { release, store, fetchMock, key } = await setUp(200);
    expect(await release(key)).toBe('delivered');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [, init] = fetchMock.mock.calls[0] as unknown as [URL, RequestInit & { headers: Record<string, string> }];
    expect(init.headers['Idempotency-Key']).toBe(key);
    expect(await store.get(key)).toBeNull();
    expect(await release(key)).toBe('not-found');
  });

  it('with the API down it becomes an ordinary pending enquiry, retried later', async () => {
    const { release, store, key } = await setUp(503);
    expect(await release(key)).toBe('pending');
    expect(await store.get(key)).toEqual(expect.objectContaining({ state: 'pending', rounds: 1 }));
    expect(await release(key)).toBe('not-spam');
  });
});

describe('leases that outlive their work', () => {
  it('cover a whole round: the longest delivery, then the longest alert, with a margin', () => {
    expect(LEASE_MS).toBeGreaterThanOrEqual(UPSTREAM_DEFAULTS.deadlineMs + ALERT_TIMEOUT_MS + 5000);
  });

  it('another flush never takes an entry over while its alert is still being sent', async () => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    for (const level of ['info', 'warn', 'error'] as const) jest.spyOn(console, level).mockImplementation(() => {});
    const sink = await startSmtpSink(undefined, { delayMs: 1500 });
    try {
      const store = new FileOutboxStore(mkdtempSync(path.join(tmpdir(), 'lease-')));
      const T = Date.UTC(2025, 0, 15, 16, 0, 0);
      const enquiry = { name: 'Lucía Arriendo', mail: 'lucia@example.mx', phone: '5512345678', reason: 'Quiero vender en línea.', captcha: '' };
      const { lease: _lease, ...entry } = newEntry(randomUUID(), enquiry, T, 'live');
      await store.add({ ...entry, rounds: 1, nextAttemptAt: T });
      const calls: string[] = [];
      const down = (who: string) =>
        (async () => {
          calls.push(who);
          return new Response('{}', { status: 503 });
        }) as unknown as typeof fetch;
      const config = { backoffSeconds: [0.001], alert: { smtpUrl: sink.url, to: 'ventas@agencia.mx', from: 'avisos@agencia.mx' } };
      const api = { baseUrl: 'http://127.0.0.1:9/api/', siteKey: 'k' };
      // Flush A: one round, then its alert, which the slow SMTP server holds.
      const first = flushStore({ store, config, api, now: () => T, fetchImpl: down('a'), breaker: new CircuitBreaker() });
      while (sink.sessions() === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      // Flush B, as late as a round can last: the longest delivery and the longest alert after A claimed it.
      const late = T + UPSTREAM_DEFAULTS.deadlineMs + ALERT_TIMEOUT_MS;
      await flushStore({ store, config, api, now: () => late, fetchImpl: down('b'), breaker: new CircuitBreaker() });
      await first;
      expect(calls.filter((who) => who === 'b')).toEqual([]);
      expect(sink.mails).toHaveLength(1);
      expect(await store.get(entry.key)).toMatchObject({ rounds: 2, alerted: { pending: true } });
    } finally {
      await sink.stop();
    }
  }, 20_000);
});
