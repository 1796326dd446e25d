import 'server-only';
import type Redis from 'ioredis';
import { Client, Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { RateLimitConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { sharedRedis, whenReady, type RedisLease } from '@/lib/server/redis-client';
import { withTimeout } from '@/lib/server/with-timeout';

// The abuse limit: a few enquiries per client and window, in Redis (REDIS_URL, shared by every instance), else in the
// Postgres world's database, else in memory. A store that does not answer within LIMIT_WAIT_MS is replaced by the same
// limit in this instance's memory (logged once), rather than holding or refusing a genuine visitor.
export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };
/** How long the limit may hold a visitor, connecting included. */
export const LIMIT_WAIT_MS = 300;

/**
 * The shared limit and the same limit in memory; `fellBack` while memory answers (logged once when it starts, once when
 * it ends). `ready`, when the store needs something made first (PostgreSQL's table): settled once it is, tried again
 * after a failure.
 */
export type SharedLimiter = {
  limiter: RateLimiterAbstract;
  fallback: RateLimiterMemory | null;
  redis?: Redis;
  ready?: () => Promise<void>;
  release?: () => void;
  fellBack: boolean;
};

type StoreConfig = Pick<RateLimitConfig, 'max' | 'windowSeconds' | 'redisUrl' | 'postgresUrl'>;

/** `keyPrefix` keeps each count (enquiries, used signatures) apart in the same store. */
export function createLimiter(
  keyPrefix: string,
  config: StoreConfig,
  redis?: Redis,
): SharedLimiter {
  const options = { keyPrefix, points: config.max, duration: config.windowSeconds };
  if (!config.redisUrl && !redis && config.postgresUrl)
    return postgresLimiter(config.postgresUrl, options);
  if (!config.redisUrl && !redis)
    return { limiter: new RateLimiterMemory(options), fallback: null, fellBack: false };
  const lease: Partial<RedisLease> & { client: Redis } = redis
    ? { client: redis }
    : sharedRedis(config.redisUrl as string);
  return {
    limiter: new RateLimiterRedis({ ...options, storeClient: lease.client }),
    fallback: new RateLimiterMemory(options),
    redis: lease.client,
    release: lease.release,
    fellBack: false,
  };
}

/**
 * How long the pool may take to open a connection. Longer than any caller waits, on purpose: each caller bounds its own
 * wait (LIMIT_WAIT_MS for a visitor, seconds for the staff ledger), and a connection still opening when a visitor
 * stops waiting is then there for the next one. At 300 ms, a PostgreSQL slow to accept (a loaded machine) never gave
 * the pool a connection: the limit stayed in memory, and every staff session check failed ("Error", pg-pool's
 * "timeout exceeded when trying to connect").
 */
const CONNECT_WAIT_MS = 5000;

/**
 * The limit in its own table of the Postgres world's database (made when the limiter is, see makeLimitTable), with a
 * small pool.
 */
function postgresLimiter(
  url: string,
  options: { keyPrefix: string; points: number; duration: number },
): SharedLimiter {
  const pool = new Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: CONNECT_WAIT_MS,
    idleTimeoutMillis: 30_000,
  });
  // An idle client's error (the database restarting) is the pool's to handle, never the process's.
  pool.on('error', () => {});
  const limiter = new RateLimiterPostgres({
    ...options,
    storeClient: pool,
    storeType: 'pool',
    tableName: LIMIT_TABLE,
    tableCreated: true,
    clearExpiredByTimeout: true,
  });
  let making: Promise<void> | undefined;
  let failed = false;
  const ready = () =>
    (making ??= makeLimitTable(url).catch((error: unknown) => {
      // The next enquiry tries again; until then this instance counts in memory.
      making = undefined;
      if (!failed)
        console.error(
          `[contacto] ERROR: no se pudo preparar la tabla del límite de solicitudes en PostgreSQL ` +
            `(${errorName(error)}); se usa la memoria mientras tanto`,
        );
      failed = true;
      throw error;
    }));
  // Made now, as the library would: the table is there before the first enquiry.
  ready().catch(() => {});
  return {
    limiter,
    fallback: new RateLimiterMemory(options),
    ready,
    release: () => void pool.end().catch(() => {}),
    fellBack: false,
  };
}

// rate-limiter-flexible's table, as its RateLimiterPostgres makes it (_getCreateTableStmt; the version is pinned in
// package.json). We make it, not the library: two servers starting at once on an empty database race at its CREATE
// TABLE IF NOT EXISTS, and the library forgives only the loser's 23505; a 42P07 or 42710 left that server counting in
// memory until it restarted. Here servers take turns on an advisory lock, so the statement never races.
const LIMIT_TABLE = 'contacto_limite';
const LIMIT_TABLE_SQL = `create table if not exists "${LIMIT_TABLE}"
  (key varchar(255) primary key, points integer not null default 0, expire bigint)`;
// Any number, the same on every server (not the Postgres world's migration lock).
const LIMIT_TABLE_LOCK = 0x6c696d697465;

async function makeLimitTable(url: string): Promise<void> {
  // Off the visitor's path (consume() waits LIMIT_WAIT_MS at most): seconds, not 300 ms, for a server that just
  // started.
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: 5000,
    statement_timeout: 5000,
    query_timeout: 6000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select pg_advisory_lock($1)', [LIMIT_TABLE_LOCK]);
    await client.query(LIMIT_TABLE_SQL);
  } finally {
    // Ends the session, and the advisory lock with it; not awaited, so nothing waits on a goodbye.
    void client.end().catch(() => {});
  }
}

export async function consume(shared: SharedLimiter, key: string): Promise<LimitVerdict> {
  const { limiter, fallback, redis } = shared;
  if (!fallback) return verdictOf(() => limiter.consume(key, 1));
  const startedAt = Date.now();
  try {
    if (redis) await whenReady(redis, LIMIT_WAIT_MS);
    if (shared.ready) await withTimeout(shared.ready(), LIMIT_WAIT_MS);
    const verdict = await withTimeout(
      verdictOf(() => limiter.consume(key, 1), { rethrow: true }),
      LIMIT_WAIT_MS - (Date.now() - startedAt),
    );
    if (shared.fellBack)
      console.info('[contacto] El límite de solicitudes vuelve a usar su almacén compartido');
    shared.fellBack = false;
    return verdict;
  } catch (error) {
    if (!shared.fellBack) {
      console.error(
        `[contacto] ERROR: ${redis ? 'Redis' : 'PostgreSQL'} no respondió al límite de solicitudes en ` +
          `${LIMIT_WAIT_MS} ms (${errorName(error)}); se usa el límite en memoria de esta instancia hasta que ` +
          `vuelva`,
      );
    }
    shared.fellBack = true;
    return verdictOf(() => fallback.consume(key, 1));
  }
}

/**
 * The points `key` has used in its window (0: none), counting what this instance's memory took while the store was
 * away; throws when the shared store does not answer within `waitMs` (the caller decides what that means).
 */
export async function used(
  shared: SharedLimiter,
  key: string,
  waitMs = LIMIT_WAIT_MS,
): Promise<number> {
  const read = async (limiter: RateLimiterAbstract) =>
    (await limiter.get(key))?.consumedPoints ?? 0;
  const here = shared.fallback ? await read(shared.fallback) : 0;
  if (shared.redis) await whenReady(shared.redis, waitMs);
  if (shared.ready) await withTimeout(shared.ready(), waitMs);
  return Math.max(here, await withTimeout(read(shared.limiter), waitMs));
}

/**
 * One point for `key` in the shared store itself, never only in memory: for what must hold on every instance (a link
 * used once, a session ended), off a visitor's path, so it may wait `waitMs`. True: taken now; false: used up already.
 * Throws when the store does not answer in time.
 */
export async function consumeInStore(
  shared: SharedLimiter,
  key: string,
  waitMs: number,
): Promise<boolean> {
  if (shared.redis) await whenReady(shared.redis, waitMs);
  if (shared.ready) await withTimeout(shared.ready(), waitMs);
  await shared.fallback?.consume(key, 1).catch(() => undefined);
  const taken = shared.limiter.consume(key, 1).then(
    () => true,
    (rejection) => (rejection instanceof RateLimiterRes ? false : Promise.reject(rejection)),
  );
  return withTimeout(taken, waitMs);
}

async function verdictOf(
  take: () => Promise<unknown>,
  { rethrow = false } = {},
): Promise<LimitVerdict> {
  try {
    await take();
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
      };
    if (rethrow) throw rejection;
    // The memory limiter itself failed: let the visitor through, loudly.
    console.error(`[contacto] El límite de solicitudes no respondió (${errorName(rejection)})`);
    return { allowed: true };
  }
}

/**
 * The limiter `held` keeps for `keyPrefix` (`what` in the log); a store client that cannot even be made is replaced by
 * memory, loudly: a limit must never cost a person what they came to do.
 */
export function heldLimiter(
  held: { limiter?: SharedLimiter },
  keyPrefix: string,
  what: string,
  config: StoreConfig,
): SharedLimiter {
  try {
    return (held.limiter ??= createLimiter(keyPrefix, config));
  } catch (error) {
    console.error(
      `[contacto] ERROR: no se pudo preparar ${what} (${errorName(error)}); se usa en memoria`,
    );
    return (held.limiter = createLimiter(keyPrefix, {
      ...config,
      redisUrl: undefined,
      postgresUrl: undefined,
    }));
  }
}
