/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { countEntries, flushStore } from './flush';
import { DRAIN_MAX_LOOKS, redeliverDue, type FlushOptions } from './sweep';
import { listEntries } from './outbox';
import type { OutboxStore } from './store';
import type { OutboxEntry } from './entry';
import { FileOutboxStore } from './file-store';
import { RedisOutboxStore } from './redis-store';
import { DEAD_AFTER_MS, KEEP_DEAD_MS, LEASE_MS, newEntry, spamEntry } from './policy';
import { startRedisServer } from '@/test-support/redis-server';
import type { OutboxLimits } from '@/lib/env/server';
import { OutboxFullError, StoredTooLateError } from './store';
import { CircuitBreaker, contactApiBreaker } from '../breaker';

/** The same contract, run against every store. */

const API = { baseUrl: 'http://127.0.0.1:9/api/', siteKey: 'clave-de-sitio' };
const BACKOFF = [60, 300];
const T0 = Date.UTC(2025, 0, 15, 16, 0, 0);

const enquiry = (n = 1) => ({
  name: `Mariana Peña ${n}`,
  mail: `mariana.${n}@example.mx`,
  phone: '5512345678',
  reason: 'Quiero una página para mi cafetería en Coyoacán.',
  captcha: 'token',
});

/** A stored entry nobody holds, as the live request leaves it after a failed round. */
const pendingEntry = (overrides: Partial<OutboxEntry> = {}): OutboxEntry => {
  const { lease: _lease, ...entry } = newEntry(randomUUID(), enquiry(), T0, 'live');
  return { ...entry, rounds: 1, nextAttemptAt: T0 + 60_000, ...overrides };
};

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

/** A contact API answering `answer` after a short pause, counting the attempts per Idempotency-Key. */
function fakeApi(answer: () => Response = () => json(200, { success: true })) {
  const attempts = new Map<string, number>();
  const fetchImpl = (async (_url: URL, init: RequestInit) => {
    const key = (init.headers as Record<string, string>)['Idempotency-Key'] as string;
    attempts.set(key, (attempts.get(key) ?? 0) + 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return answer();
  }) as unknown as typeof fetch;
  return { attempts, fetchImpl };
}

type StoreFactory = { name: string; make: (limits?: OutboxLimits) => Promise<OutboxStore> };

let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
const opened: OutboxStore[] = [];

const factories: StoreFactory[] = [
  { name: 'files', make: async (limits) => new FileOutboxStore(mkdtempSync(path.join(tmpdir(), 'outbox-')), limits) },
  {
    name: 'Redis',
    make: async (limits) => {
      redis ??= await startRedisServer();
      // A fresh database number per test keeps the tests apart.
      const client = new Redis(redis.url, { db: opened.length % 16, maxRetriesPerRequest: 1 });
      await client.flushdb();
      return new RedisOutboxStore(client, limits);
    },
  },
];

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  redis?.stop();
});

afterEach(() => jest.restoreAllMocks());
// Each test starts with the API's circuit closed: one test's failing API is not the next one's.
beforeEach(() => contactApiBreaker.reset());

describe.each(factories)('outbox in $name', ({ make }) => {
  let store: OutboxStore;
  const flush = (options: Partial<FlushOptions> & { at: number }) =>
    flushStore({ store, config: { backoffSeconds: BACKOFF }, api: API, now: () => options.at, ...options });

  beforeEach(async () => {
    for (const level of ['info', 'warn'] as const) jest.spyOn(console, level).mockImplementation(() => {});
    store = await make();
    opened.push(store);
  });

  it('stores an entry with its key, received time and state, accents intact', async () => {
    const entry = newEntry(randomUUID(), enquiry(), T0, 'live');
    await store.add(entry);
    expect(await store.keys()).toEqual([entry.key]);
    expect(await store.get(entry.key)).toEqual(entry);
  });

  it('holds at most its limits in entries and bytes, and a suspected spam only half of them', async () => {
    const small = await make({ maxEntries: 4, maxBytes: 1_000_000 });
    opened.push(small);
    const spam = (n: number) => spamEntry(randomUUID(), enquiry(n), T0, 'link-in-name');
    await small.add(spam(1));
    await small.add(spam(2));
    // Half of the room is spam's: a third one is refused, and a person still gets in.
    await expect(small.add(spam(3))).rejects.toBeInstanceOf(OutboxFullError);
    await small.add(newEntry(randomUUID(), enquiry(4), T0, 'live'));
    const last = newEntry(randomUUID(), enquiry(5), T0, 'live');
    await small.add(last);
    await expect(small.add(newEntry(randomUUID(), enquiry(6), T0, 'live'))).rejects.toBeInstanceOf(OutboxFullError);
    expect(await small.keys()).toHaveLength(4);
    const usage = await small.usage();
    expect(usage).toMatchObject({ entries: 4, maxEntries: 4, maxBytes: 1_000_000 });
    expect(usage.bytes).toBeGreaterThan(4 * 200);
    // Room again once one is delivered.
    expect(await small.remove(last.key, 'live')).toBe(true);
    await small.add(newEntry(randomUUID(), enquiry(7), T0, 'live'));

    const tight = await make({ maxEntries: 100, maxBytes: 1500 });
    opened.push(tight);
    await tight.add(newEntry(randomUUID(), enquiry(1), T0, 'live'));
    await expect(tight.add(newEntry(randomUUID(), { ...enquiry(2), reason: 'x'.repeat(1000) }, T0, 'live'))).rejects.toBeInstanceOf(OutboxFullError);
  });

  it('stores nothing when it gets to an entry after storeBy: the visitor was answered without it', async () => {
    const entry = newEntry(randomUUID(), enquiry(), T0, 'live');
    await expect(store.add(entry, { storeBy: Date.now() - 1 })).rejects.toBeInstanceOf(StoredTooLateError);
    expect(await store.keys()).toEqual([]);
    expect((await store.usage()).entries).toBe(0);
    await store.add(entry, { storeBy: Date.now() + 5000 });
    expect(await store.keys()).toEqual([entry.key]);
  });

  it('lists and counts a store of 260 entries a page at a time', async () => {
    const entries = Array.from({ length: 260 }, (_, n) => newEntry(randomUUID(), enquiry(n), T0, 'live'));
    for (const entry of entries) await store.add(entry);
    expect((await store.keys()).sort()).toEqual(entries.map((entry) => entry.key).sort());
    expect(await countEntries(store)).toEqual({ pending: 260, dead: 0, spam: 0 });
    expect(await listEntries(store, (entry) => entry.enquiry.name.endsWith(' 7'))).toHaveLength(1);
  });

  it('claims with a lease: nobody else gets the entry until the lease runs out', async () => {
    const entry = newEntry(randomUUID(), enquiry(), T0, 'live');
    await store.add(entry);
    expect(await store.claim(entry.key, 'flush-a', T0 + 1000, T0 + 1000 + LEASE_MS)).toBeNull();
    // The live request crashed: its lease runs out and a flush may take over.
    const claimed = await store.claim(entry.key, 'flush-a', T0 + LEASE_MS + 1, T0 + 2 * LEASE_MS);
    expect(claimed?.lease).toEqual({ holder: 'flush-a', until: T0 + 2 * LEASE_MS });
    expect(await store.claim(entry.key, 'flush-b', T0 + LEASE_MS + 2, T0 + 3 * LEASE_MS)).toBeNull();
    // The old holder can neither write nor delete any more.
    expect(await store.release({ ...entry, rounds: 9 }, 'live')).toBe(false);
    expect(await store.remove(entry.key, 'live')).toBe(false);
    expect((await store.get(entry.key))?.rounds).toBe(0);
  });

  it('release writes the entry back and lets go; remove deletes it, each only for the holder', async () => {
    const entry = newEntry(randomUUID(), enquiry(), T0, 'live');
    await store.add(entry);
    expect(await store.release({ ...entry, rounds: 1, lastFailure: 'http-503' }, 'live')).toBe(true);
    const released = await store.get(entry.key);
    expect(released).toMatchObject({ rounds: 1, lastFailure: 'http-503' });
    expect(released?.lease).toBeUndefined();
    expect(await store.claim(entry.key, 'flush', T0, T0 + LEASE_MS)).not.toBeNull();
    expect(await store.remove(entry.key, 'other')).toBe(false);
    expect(await store.remove(entry.key, 'flush')).toBe(true);
    expect(await store.keys()).toEqual([]);
    expect(await store.get(entry.key)).toBeNull();
  });

  it('redelivers a due entry with its original body and key, and removes it', async () => {
    const entry = pendingEntry();
    await store.add(entry);
    const api = fakeApi();
    expect(await flush({ at: T0 + 30_000, fetchImpl: api.fetchImpl })).toEqual({ delivered: 0, pending: 1, dead: 0, spam: 0 });
    expect(api.attempts.size).toBe(0);
    expect(await flush({ at: T0 + 60_000, fetchImpl: api.fetchImpl })).toEqual({ delivered: 1, pending: 0, dead: 0, spam: 0 });
    expect([...api.attempts]).toEqual([[entry.key, 1]]);
  });

  it('backs off: the next try waits the next configured interval, the last one repeating', async () => {
    const entry = pendingEntry();
    await store.add(entry);
    const api = fakeApi(() => json(503, {}));
    await flush({ at: T0 + 60_000, fetchImpl: api.fetchImpl });
    const after2 = await store.get(entry.key);
    expect(after2).toMatchObject({ state: 'pending', rounds: 2, lastFailure: expect.stringContaining('http-503') });
    const second = (after2 as OutboxEntry).nextAttemptAt;
    expect(second - (T0 + 60_000)).toBeGreaterThanOrEqual(300_000);
    expect(second - (T0 + 60_000)).toBeLessThan(310_000);
    // The failures opened the API's circuit (on the real clock): closed again, since its cool-off is not what this tests.
    contactApiBreaker.reset();
    await flush({ at: second, fetchImpl: api.fetchImpl });
    const after3 = (await store.get(entry.key)) as OutboxEntry;
    expect(after3.nextAttemptAt - second).toBeGreaterThanOrEqual(300_000);
    expect(after3.rounds).toBe(3);
  });

  it('makes a dead letter of an entry refused on replay, and of one undelivered after 24 hours', async () => {
    const refused = pendingEntry();
    const old = pendingEntry({ key: randomUUID(), receivedAt: T0 - DEAD_AFTER_MS, nextAttemptAt: T0 });
    await store.add(refused);
    await store.add(old);
    const refusing = fakeApi(() => json(400, { success: false, mes: 'Captcha vencido' }));
    await store.release({ ...old }, 'nobody'); // not held: no-op
    const counts = await flush({
      at: T0 + 60_000,
      fetchImpl: ((url: URL, init: RequestInit) =>
        (init.headers as Record<string, string>)['Idempotency-Key'] === old.key
          ? Promise.resolve(json(503, {}))
          : refusing.fetchImpl(url, init)) as unknown as typeof fetch,
    });
    expect(counts).toEqual({ delivered: 0, pending: 0, dead: 2, spam: 0 });
    expect(await store.get(refused.key)).toMatchObject({ state: 'dead', deadReason: 'refused', refusal: 'Captcha vencido' });
    expect(await store.get(old.key)).toMatchObject({ state: 'dead', deadReason: 'expired' });
    // Dead letters are never sent again.
    const api = fakeApi();
    await flush({ at: T0 + 10 * DEAD_AFTER_MS, fetchImpl: api.fetchImpl });
    expect(api.attempts.size).toBe(0);
  });

  it('purges dead letters 30 days after they died, not before', async () => {
    const dead = pendingEntry({ state: 'dead', deadAt: T0, deadReason: 'expired' });
    await store.add(dead);
    expect(await flush({ at: T0 + KEEP_DEAD_MS - 1000 })).toEqual({ delivered: 0, pending: 0, dead: 1, spam: 0 });
    expect(await flush({ at: T0 + KEEP_DEAD_MS })).toEqual({ delivered: 0, pending: 0, dead: 0, spam: 0 });
    expect(await store.keys()).toEqual([]);
  });

  it('an enquiry\'s after() redelivers at most 3 due entries, never one not due, held by someone, or dead', async () => {
    const due = Array.from({ length: 5 }, (_, n) => pendingEntry({ key: randomUUID(), enquiry: enquiry(n) }));
    const later = pendingEntry({ key: randomUUID(), nextAttemptAt: T0 + 10 * 60_000 });
    const held = { ...pendingEntry({ key: randomUUID() }), lease: { holder: 'live', until: T0 + 70_000 } };
    const dead = pendingEntry({ key: randomUUID(), state: 'dead', deadAt: T0, deadReason: 'expired' });
    for (const entry of [...due, later, held, dead]) await store.add(entry);
    const api = fakeApi();
    const at = T0 + 60_000;
    expect(await redeliverDue({ store, config: { backoffSeconds: BACKOFF }, api: API, endsAt: at + 8000, max: 3, now: () => at, fetchImpl: api.fetchImpl })).toBe(3);
    expect(api.attempts.size).toBe(3);
    expect([...api.attempts.keys()].every((key) => due.some((entry) => entry.key === key))).toBe(true);
    expect((await store.keys()).sort()).toHaveLength(5);
    for (const key of [later.key, held.key, dead.key]) expect(await store.get(key)).not.toBeNull();
  });

  it('two enquiries\' after() at once send each due entry exactly once', async () => {
    const entries = Array.from({ length: 6 }, (_, n) => pendingEntry({ key: randomUUID(), enquiry: enquiry(n) }));
    for (const entry of entries) await store.add(entry);
    const api = fakeApi();
    const at = T0 + 60_000;
    const drain = () =>
      redeliverDue({ store, config: { backoffSeconds: BACKOFF }, api: API, endsAt: at + 8000, max: 3, now: () => at, fetchImpl: api.fetchImpl });
    const [a, b] = await Promise.all([drain(), drain()]);
    expect(a + b).toBe(6);
    expect([...api.attempts.values()]).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it("an enquiry's after() reads no entry while the API's circuit is open", async () => {
    for (let n = 0; n < 4; n++) await store.add(pendingEntry({ key: randomUUID(), enquiry: enquiry(n) }));
    const breaker = new CircuitBreaker({ failureThreshold: 2 });
    breaker.record('down', undefined, Date.now(), 'a');
    breaker.record('down', undefined, Date.now(), 'b');
    expect(breaker.state()).toBe('open');
    const keys = jest.spyOn(store, 'keys');
    const get = jest.spyOn(store, 'get');
    const api = fakeApi();
    const at = T0 + 60_000;
    const drain = { store, config: { backoffSeconds: BACKOFF }, api: API, endsAt: at + 8000, max: 3, now: () => at, fetchImpl: api.fetchImpl };
    expect(await redeliverDue({ ...drain, breaker })).toBe(0);
    expect([keys.mock.calls.length, get.mock.calls.length, api.attempts.size]).toEqual([0, 0, 0]);
    // Closed again, the same drain reads and sends.
    expect(await redeliverDue({ ...drain, breaker: new CircuitBreaker() })).toBe(3);
  });

  it(`an enquiry's after() reads at most ${DRAIN_MAX_LOOKS} entries however full the store, and drains in turn reach every due one`, async () => {
    // After an outage: most entries wait for a later try, a few are due now, wherever the list puts them.
    const waiting = Array.from({ length: 57 }, (_, n) => pendingEntry({ key: randomUUID(), enquiry: enquiry(n), nextAttemptAt: T0 + 10 * 60_000 }));
    const due = Array.from({ length: 6 }, (_, n) => pendingEntry({ key: randomUUID(), enquiry: enquiry(100 + n) }));
    for (const entry of [...waiting.slice(0, 30), ...due, ...waiting.slice(30)]) await store.add(entry);
    const get = jest.spyOn(store, 'get');
    const api = fakeApi();
    const at = T0 + 60_000;
    const drain = () =>
      redeliverDue({ store, config: { backoffSeconds: BACKOFF }, api: API, endsAt: at + 8000, max: 3, now: () => at, fetchImpl: api.fetchImpl, breaker: new CircuitBreaker() });
    let drains = 0;
    while (api.attempts.size < due.length && drains < 200) {
      get.mockClear();
      await drain();
      drains += 1;
      // Each entry looked at is read once; each of the 3 sent, again by its claim and its removal (files).
      expect(get.mock.calls.length).toBeLessThanOrEqual(DRAIN_MAX_LOOKS + 2 * 3);
    }
    expect(new Set(api.attempts.keys())).toEqual(new Set(due.map((entry) => entry.key)));
    expect([...api.attempts.values()].every((count) => count === 1)).toBe(true);
    expect(await store.keys()).toHaveLength(waiting.length);
  });

  it('the after() redelivery ends by its deadline even when the API hangs, and begins nothing without time left', async () => {
    const entry = pendingEntry();
    await store.add(entry);
    const at = T0 + 60_000;
    const hanging = jest.fn(
      (_url: URL, init: RequestInit) =>
        new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    ) as unknown as typeof fetch;
    const config = { backoffSeconds: BACKOFF };
    expect(await redeliverDue({ store, config, api: API, endsAt: at + 900, max: 3, now: () => at, fetchImpl: hanging })).toBe(0);
    expect(hanging).not.toHaveBeenCalled();

    const started = Date.now();
    expect(await redeliverDue({ store, config, api: API, endsAt: at + 1500, max: 3, now: () => at, fetchImpl: hanging })).toBe(0);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(hanging).toHaveBeenCalled();
    // Released for later, with its next wait.
    expect(await store.get(entry.key)).toMatchObject({ state: 'pending', rounds: 2, nextAttemptAt: at + 300_000 });
  });

  it('two flushes at once send each entry exactly once', async () => {
    const entries = Array.from({ length: 12 }, (_, n) => pendingEntry({ key: randomUUID(), enquiry: enquiry(n) }));
    for (const entry of entries) await store.add(entry);
    const api = fakeApi();
    const [a, b] = await Promise.all([
      flush({ at: T0 + 60_000, fetchImpl: api.fetchImpl }),
      flush({ at: T0 + 60_000, fetchImpl: api.fetchImpl }),
    ]);
    expect(a.delivered + b.delivered).toBe(12);
    expect(api.attempts.size).toBe(12);
    expect([...api.attempts.values()].every((count) => count === 1)).toBe(true);
    expect(await store.keys()).toEqual([]);
  });
});

describe('outbox in files, damaged entries', () => {
  it('skips a corrupted or truncated entry with a log line, and loses nothing else', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const store = new FileOutboxStore(dir);
    const good = pendingEntry();
    await store.add(good);
    const truncated = randomUUID();
    const garbage = randomUUID();
    writeFileSync(path.join(store.folder, `${truncated}.json`), JSON.stringify(pendingEntry({ key: truncated })).slice(0, 80));
    writeFileSync(path.join(store.folder, `${garbage}.json`), '\u0000\u0000not json');
    const logs: string[] = [];
    jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logs.push(args.join(' ')));
    jest.spyOn(console, 'info').mockImplementation(() => {});

    const api = fakeApi();
    const counts = await flushStore({
      store,
      config: { backoffSeconds: BACKOFF },
      api: API,
      now: () => T0 + 60_000,
      fetchImpl: api.fetchImpl,
    });
    expect(counts).toEqual({ delivered: 1, pending: 0, dead: 0, spam: 0 });
    expect([...api.attempts.keys()]).toEqual([good.key]);
    expect(logs.join('\n')).toContain(`Entrada ilegible en la bandeja de salida, se omite: ${truncated}.json`);
    expect(logs.join('\n')).toContain(`${garbage}.json`);
    // Left in place for a person to look at.
    expect(readdirSync(store.folder).filter((name) => name.endsWith('.json')).sort()).toEqual(
      [`${truncated}.json`, `${garbage}.json`].sort(),
    );
    jest.restoreAllMocks();
  });
});
