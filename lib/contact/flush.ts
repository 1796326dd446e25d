import 'server-only';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { getContactConfig, type OutboxConfig } from '@/lib/env/server';
import { alertIfOwed } from './alert';
import { entriesOf, getOutbox, removeFromOutbox } from './outbox';
import type { OutboxEntry } from './outbox-entry';
import type { OutboxStore } from './outbox-store';
import { saveToInbox } from './inbox';
import { contactApiBreaker, type CircuitBreaker } from './breaker';
import { isDue, isPurgeable, LEASE_MS, maxRetryAfterMs, owedAlert, releasedEntry, settle } from './policy';
import { postEnquiry, UPSTREAM_DEFAULTS, type UpstreamReport } from './upstream';

/**
 * Redelivery: every due entry goes to the API again with its original body
 * and Idempotency-Key; entries given up become dead letters, old dead letters
 * are purged, and alert e-mails that failed are sent again. Called by the
 * scheduler through /api/outbox/flush, or by `npm run outbox -- flush`.
 */

/** What the flush answers: counts only, never personal data. */
export type FlushCounts = { delivered: number; pending: number; dead: number; spam: number };

type Api = { baseUrl: string; siteKey: string };
type RoundConfig = Pick<OutboxConfig, 'backoffSeconds' | 'alert'>;

export type FlushOptions = {
  store: OutboxStore;
  config: RoundConfig;
  /** The contact API; without one nothing can be delivered (alerts and purges still run). */
  api: Api | null;
  /** Stop taking new entries after this long (the route's function has 60 s). */
  budgetMs?: number;
  /** The contact API's circuit (the process's own by default): while open, no entry is tried. */
  breaker?: CircuitBreaker;
  fetchImpl?: typeof fetch;
  now?: () => number;
};

// A few at a time: the API is probably just back, and each delivery may take 7.5 s.
const CONCURRENCY = 4;

/** `Authorization: Bearer <CRON_SECRET>`, compared in constant time; no secret set means no one. */
export function isAuthorizedFlush(authorization: string | null, secret: string | undefined): boolean {
  if (!secret || !authorization) return false;
  // Hashing first gives equal lengths, so the comparison's time says nothing about the secret.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`));
}

export type RoundOptions = {
  store: OutboxStore;
  config: RoundConfig;
  api: Api;
  /** The round ends by then, retries included (the upstream client's default otherwise). */
  deadlineMs?: number;
  /** Settle with this report, without a call, when no call is made (the API's circuit is open, or `skipCall`). */
  settleWith?: UpstreamReport;
  /** Make no call: settle with `settleWith` (the live round asked for a pause). */
  skipCall?: boolean;
  /** Attempts in this round (the upstream client's 4 otherwise). */
  maxAttempts?: number;
  breaker?: CircuitBreaker;
  /** A scheduled flush: probes the API even while its circuit cools off. */
  forceProbe?: boolean;
  fetchImpl?: typeof fetch;
  now?: () => number;
};

/**
 * One redelivery round of an entry `holder` holds, the same for the live
 * request's background retry and for the flush: post it with its own key,
 * settle the outcome, then remove it (delivered) or write it back with its
 * next attempt and any alert it owes. True when it was delivered and removed.
 */
export async function redeliverOnce(entry: OutboxEntry, holder: string, options: RoundOptions): Promise<boolean> {
  const { store, config, api, deadlineMs, settleWith, skipCall = false, maxAttempts, breaker = contactApiBreaker, forceProbe, fetchImpl, now = Date.now } =
    options;
  const called = skipCall
    ? null
    : await postEnquiry(entry.enquiry, {
        ...api,
        idempotencyKey: entry.key,
        breaker,
        forceProbe,
        maxRetryAfterMs: maxRetryAfterMs(config.backoffSeconds),
        fetchImpl,
        ...(maxAttempts === undefined ? {} : { maxAttempts }),
        ...(deadlineMs === undefined ? {} : { deadlineMs }),
      });
  const report = called && called.attempts > 0 ? called : settleWith;
  if (!report) {
    // No call was made (the circuit is open, or another round is its probe): not a round, let go as it was.
    await store.release(entry, holder);
    return false;
  }
  const next = settle(entry, report, now(), config.backoffSeconds);
  if (!next) {
    console.info(`[contacto] Solicitud ${entry.key} entregada al reintentar (${report.attempts} intento(s))`);
    return removeFromOutbox(store, entry.key, holder);
  }
  console.warn(`[contacto] Solicitud ${entry.key} ${next.state === 'dead' ? 'pasa a no entregada' : 'sigue pendiente'} (${next.lastFailure})`);
  await store.release(await alertIfOwed(next, config.alert), holder);
  return false;
}

type Sweep = FlushOptions & {
  now: () => number;
  /** No new entry is taken after this (ms). */
  stopAt: number;
  /** Redelivery rounds to begin at most. */
  maxRounds: number;
  /** Also purge old dead letters and send owed alerts of entries not due. */
  upkeep: boolean;
  /** Each round's deadline, from the time left. */
  roundDeadlineMs?: () => number;
};

/** Goes through the stored entries, a few at a time, claiming each before working on it. Returns how many were delivered. */
async function sweep(options: Sweep): Promise<number> {
  const { store, config, api, breaker = contactApiBreaker, fetchImpl, now, stopAt, maxRounds, upkeep, roundDeadlineMs } = options;
  const keys = await store.keys();
  let delivered = 0;
  let rounds = 0;

  const work = async (key: string) => {
    const seen = await store.get(key);
    const at = now();
    if (!seen || (seen.lease && seen.lease.until > at)) return;
    // While the circuit cools off, only a flush probes (one entry at a time); the others are let go untried.
    const due = api !== null && isDue(seen, at) && rounds < maxRounds && (upkeep || breaker.state() !== 'open');
    const chore = upkeep && (isPurgeable(seen, at) || (config.alert !== undefined && owedAlert(seen) !== null));
    if (!due && !chore) return;
    // Counted before the claim, which awaits: concurrent workers never begin more than maxRounds.
    if (due) rounds += 1;

    const holder = randomUUID();
    const entry = await store.claim(key, holder, at, at + LEASE_MS);
    if (!entry) {
      if (due) rounds -= 1; // someone else has it
      return;
    }
    if (upkeep && isPurgeable(entry, at)) {
      if (await store.remove(key, holder)) console.info(`[contacto] Solicitud no entregada ${key} borrada tras 30 días`);
      return;
    }
    if (due && api && isDue(entry, at)) {
      const deadlineMs = roundDeadlineMs?.();
      const forceProbe = upkeep;
      if (await redeliverOnce(entry, holder, { store, config, api, breaker, forceProbe, fetchImpl, now, deadlineMs })) delivered += 1;
      return;
    }
    await store.release(await alertIfOwed(entry, config.alert), holder);
  };

  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, maxRounds) }, async () => {
      while (next < keys.length && now() < stopAt && rounds < maxRounds) {
        const key = keys[next++] as string;
        try {
          await work(key);
        } catch (error) {
          // One entry's trouble (a store error) must not stop the others; its lease runs out.
          console.error(`[contacto] Falló el reenvío de ${key}:`, error instanceof Error ? error.message : 'error');
        }
      }
    }),
  );
  return delivered;
}

export async function flushStore(options: FlushOptions): Promise<FlushCounts> {
  const { store, budgetMs = 45_000, now = Date.now } = options;
  const cleaned = await store.cleanUp().catch(() => 0);
  if (cleaned) console.warn(`[contacto] Bandeja de salida: ${cleaned} archivo(s) temporal(es) de una escritura interrumpida borrado(s)`);
  const delivered = await sweep({ ...options, now, stopAt: now() + budgetMs, maxRounds: Infinity, upkeep: true });
  const counts = await countEntries(store);
  return { delivered, ...counts };
}

export type DrainOptions = Omit<FlushOptions, 'api' | 'budgetMs'> & {
  api: Api;
  /** Everything ends by then (ms since the epoch): no entry is begun that could not finish. */
  endsAt: number;
  /** Redeliver at most this many. */
  max: number;
};

// Less time than this left: not worth beginning a round (one attempt has a 2.5 s timeout).
const MIN_ROUND_MS = 1000;

/**
 * A few due entries redelivered with the flush's own machinery (leases, the
 * same round), each within the time left: what every enquiry's after() does
 * besides its own retry. Only redeliveries: purges and owed alerts of entries
 * not due are left to the flush. Returns how many were delivered.
 */
export async function redeliverDue(options: DrainOptions): Promise<number> {
  const { endsAt, max, now = Date.now } = options;
  return sweep({
    ...options,
    now,
    stopAt: endsAt - MIN_ROUND_MS,
    maxRounds: max,
    upkeep: false,
    roundDeadlineMs: () => Math.min(UPSTREAM_DEFAULTS.deadlineMs, endsAt - now()),
  });
}

/** A page at a time: only the counts are kept. */
export async function countEntries(store: OutboxStore): Promise<{ pending: number; dead: number; spam: number }> {
  const counts = { pending: 0, dead: 0, spam: 0 };
  for await (const entry of entriesOf(store)) counts[entry.state] += 1;
  return counts;
}

export type ReleaseResult = 'delivered' | 'pending' | 'inbox' | 'not-found' | 'not-spam' | 'busy';

/**
 * A suspected spam the agency judged a person's (`npm run outbox -- release <key>`): an
 * ordinary enquiry from now on, delivered at once with its own key (to the local inbox
 * without a contact API), or left pending for the flush, with its alert, if the API fails.
 */
export async function releaseSpam(store: OutboxStore, config: RoundConfig, key: string): Promise<ReleaseResult> {
  const seen = await store.get(key);
  if (!seen) return 'not-found';
  if (seen.state !== 'spam') return 'not-spam';
  const holder = randomUUID();
  const now = Date.now();
  const entry = await store.claim(key, holder, now, now + LEASE_MS);
  if (!entry) return 'busy';
  const released = releasedEntry(entry, holder, now);
  const contact = getContactConfig();
  if (contact.mode === 'inbox') {
    await saveToInbox(released.enquiry, contact.dir, released.key);
    await removeFromOutbox(store, key, holder);
    return 'inbox';
  }
  if (contact.mode !== 'api') {
    await store.release(released, holder);
    return 'pending';
  }
  const api = { baseUrl: contact.baseUrl, siteKey: contact.siteKey };
  return (await redeliverOnce(released, holder, { store, config, api })) ? 'delivered' : 'pending';
}

/**
 * The configured outbox, flushed towards the configured contact API. The
 * counts are logged; with `logIdle: false` (the minute flush) only when
 * something was delivered.
 */
export async function flushOutbox({ logIdle = true }: { logIdle?: boolean } = {}): Promise<FlushCounts> {
  const outbox = getOutbox();
  if (!outbox) return { delivered: 0, pending: 0, dead: 0, spam: 0 };
  const contact = getContactConfig();
  const api = contact.mode === 'api' ? { baseUrl: contact.baseUrl, siteKey: contact.siteKey } : null;
  const counts = await flushStore({ store: outbox.store, config: outbox.config, api });
  if (logIdle || counts.delivered > 0) {
    console.info(
      `[contacto] Bandeja de salida: ${counts.delivered} entregada(s), ${counts.pending} pendiente(s), ${counts.dead} no entregada(s), ${counts.spam} posible(s) spam aparte`,
    );
  }
  return counts;
}
