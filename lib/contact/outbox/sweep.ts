import 'server-only';
import { randomUUID } from 'node:crypto';
import { errorName } from '@/lib/error-name';
import { contactApiBreaker, type CircuitBreaker } from '../breaker';
import { UPSTREAM_DEFAULTS, type ContactApi } from '../upstream';
import { alertIfOwed } from './alert';
import { isDue, isPurgeable, LEASE_MS, owedAlert } from './policy';
import { redeliverOnce, type RoundConfig } from './round';
import type { OutboxStore } from './store';

export type FlushOptions = {
  store: OutboxStore;
  config: RoundConfig;
  /** The contact API; without one nothing can be delivered (alerts and purges still run). */
  api: ContactApi | null;
  /** Stop taking new entries after this long (the route's function has 60 s). */
  budgetMs?: number;
  /** The contact API's circuit (the process's own by default): while open, no entry is tried. */
  breaker?: CircuitBreaker;
  fetchImpl?: typeof fetch;
  now?: () => number;
};

// A few at a time: the API is probably just back, and each delivery may take 7.5 s.
const CONCURRENCY = 4;

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
  /** Read at most this many entries, from a random place in the list (all of them otherwise). */
  maxLooks?: number;
};

/** Goes through the stored entries, a few at a time, claiming each before working on it. Returns how many were delivered. */
export async function sweep(options: Sweep): Promise<number> {
  const { store, config, api, breaker = contactApiBreaker, fetchImpl, now, stopAt, maxRounds, upkeep, roundDeadlineMs, maxLooks } = options;
  // Without upkeep only due entries are worked on, and none is while the circuit is open: nothing to read.
  const idle = () => !upkeep && (api === null || breaker.state() === 'open');
  if (idle()) return 0;
  const keys = someOf(await store.keys(), maxLooks);
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
      while (next < keys.length && now() < stopAt && rounds < maxRounds && !idle()) {
        const key = keys[next++] as string;
        try {
          await work(key);
        } catch (error) {
          // One entry's trouble (a store error) must not stop the others; its lease runs out.
          console.error(`[contacto] Falló el reenvío de ${key} (${errorName(error)})`);
        }
      }
    }),
  );
  return delivered;
}

/** `max` keys in a row from a random place (wrapping round), so that drains running often reach every entry in turn. */
function someOf(keys: string[], max = Infinity): string[] {
  if (keys.length <= max) return keys;
  const start = Math.floor(Math.random() * keys.length);
  return Array.from({ length: max }, (_, n) => keys[(start + n) % keys.length] as string);
}

export type DrainOptions = Omit<FlushOptions, 'api' | 'budgetMs'> & {
  api: ContactApi;
  /** Everything ends by then (ms since the epoch): no entry is begun that could not finish. */
  endsAt: number;
  /** Redeliver at most this many. */
  max: number;
};

// Less time than this left: not worth beginning a round (one attempt has a 2.5 s timeout).
const MIN_ROUND_MS = 1000;
/**
 * Entries one drain reads at most, looking for its few due ones: every enquiry runs a drain, so with a
 * store full after an outage (2,000 entries) reading them all would be 2,000 reads per visitor, and on a
 * busy server those reads delay the next visitors' own stores past STORE_WAIT_MS.
 */
export const DRAIN_MAX_LOOKS = 24;

/**
 * A few due entries redelivered with the flush's own machinery (leases, the
 * same round), each within the time left: what every enquiry's after() does
 * besides its own retry. Only redeliveries: purges and owed alerts of entries
 * not due are left to the flush. It reads at most DRAIN_MAX_LOOKS entries,
 * and none while the API's circuit is open. Returns how many were delivered.
 */
export async function redeliverDue(options: DrainOptions): Promise<number> {
  const { endsAt, max, now = Date.now } = options;
  return sweep({
    ...options,
    now,
    stopAt: endsAt - MIN_ROUND_MS,
    maxRounds: max,
    maxLooks: DRAIN_MAX_LOOKS,
    upkeep: false,
    roundDeadlineMs: () => Math.min(UPSTREAM_DEFAULTS.deadlineMs, endsAt - now()),
  });
}
