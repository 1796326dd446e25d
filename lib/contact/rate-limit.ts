import 'server-only';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import type Redis from 'ioredis';
import { Client, Pool } from 'pg';
import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { getRateLimitConfig, RATE_LIMIT_DEFAULTS, type RateLimitConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { sharedRedis, whenReady, type RedisLease } from '@/lib/redis-client';
import { withTimeout } from '@/lib/with-timeout';

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
export type ContactLimiter = {
  limiter: RateLimiterAbstract;
  fallback: RateLimiterMemory | null;
  redis?: Redis;
  ready?: () => Promise<void>;
  release?: () => void;
  fellBack: boolean;
};

/** `keyPrefix` keeps another count (the used signatures, signature-store.ts) apart in the same store. */
export function createContactLimiter(config: RateLimitConfig, redis?: Redis, keyPrefix = 'contacto'): ContactLimiter {
  const options = { keyPrefix, points: config.max, duration: config.windowSeconds };
  if (!config.redisUrl && !redis && config.postgresUrl) return postgresLimiter(config.postgresUrl, options);
  if (!config.redisUrl && !redis) return { limiter: new RateLimiterMemory(options), fallback: null, fellBack: false };
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
 * The limit in its own table of the Postgres world's database (made when the limiter is, see makeLimitTable), with a
 * small pool.
 */
function postgresLimiter(
  url: string,
  options: { keyPrefix: string; points: number; duration: number },
): ContactLimiter {
  const pool = new Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: LIMIT_WAIT_MS,
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

export async function consume(shared: ContactLimiter, key: string): Promise<LimitVerdict> {
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
    if (shared.fellBack) console.info('[contacto] El límite de solicitudes vuelve a usar su almacén compartido');
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

async function verdictOf(take: () => Promise<unknown>, { rethrow = false } = {}): Promise<LimitVerdict> {
  try {
    await take();
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes)
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    if (rethrow) throw rejection;
    // The memory limiter itself failed: let the visitor through, loudly.
    console.error(`[contacto] El límite de solicitudes no respondió (${errorName(rejection)})`);
    return { allowed: true };
  }
}

export type AddressTrust = Pick<RateLimitConfig, 'trustedProxies' | 'onVercel'>;
/** Shared by every missing, unreadable or oversized address: garbage can neither lock a person out nor mint keys. */
export const UNKNOWN_CLIENT_KEY = 'desconocida';
// The longest real address (an IPv4-mapped IPv6 with a zone id) is well under this.
const MAX_ADDRESS_LENGTH = 64;

/**
 * The abuse limit's key: the client's address as written by a hop we trust, never by the client. On Vercel,
 * x-vercel-forwarded-for, else x-real-ip, else the first x-forwarded-for entry (Vercel overwrites all three). Behind N
 * proxies of yours (TRUST_PROXY_HEADERS=N), the N-th x-forwarded-for entry from the right: each appends what it saw,
 * and further left the client may have written; never x-real-ip, which a proxy that does not set it passes on. With no
 * proxy (N = 0), the last entry, which Next writes only when the client wrote none, so the client can choose it
 * (start-up warns).
 */
export function clientKey(headers: Pick<Headers, 'get'>, trust: AddressTrust): string {
  return addressKey(clientAddressOf(headers, trust));
}

function clientAddressOf(
  headers: Pick<Headers, 'get'>,
  { trustedProxies, onVercel }: AddressTrust,
): string | undefined {
  const forwarded = entries(headers.get('x-forwarded-for'));
  if (onVercel)
    return entries(headers.get('x-vercel-forwarded-for'))[0] ?? (headers.get('x-real-ip')?.trim() || forwarded[0]);
  // N = 0 and N = 1 both take the last entry; fewer entries than proxies: the leftmost.
  return forwarded[Math.max(0, forwarded.length - Math.max(1, trustedProxies))];
}

function entries(header: string | null): string[] {
  return (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * IPv4 as it is; IPv6 by its /64, which one subscriber gets whole (one visitor, not 2^64); an IPv4-mapped IPv6 as its
 * IPv4.
 */
export function addressKey(address: string | undefined): string {
  const host = hostOf(address);
  return !host ? UNKNOWN_CLIENT_KEY : isIP(host) === 4 ? host : ipv6Key(host);
}

/**
 * The address alone, when it is one: `[v6]:port`, `[v6]`, `v4:port` and `v6%zone` bare; a zone only on IPv6 and only of
 * plain characters.
 */
function hostOf(address: string | undefined): string | undefined {
  if (!address || address.length > MAX_ADDRESS_LENGTH) return undefined;
  const trimmed = address.trim();
  const host =
    trimmed.match(/^\[([^\]]+)\](?::\d{1,5})?$/)?.[1] ??
    trimmed.match(/^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/)?.[1] ??
    trimmed;
  if (!host.includes('%')) return isIP(host) ? host : undefined;
  const zoned = host.match(/^([\da-fA-F:.]+)%[\w.~-]{1,32}$/)?.[1];
  return zoned && isIP(zoned) === 6 ? zoned : undefined;
}

/** A valid IPv6 address as its /64, or as the IPv4 it maps (a dual-stack socket's IPv4 client). */
function ipv6Key(address: string): string {
  const parsed = ipaddr.process(address);
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  return `${parsed.parts
    .slice(0, 4)
    .map((hextet) => hextet.toString(16))
    .join(':')}::/64`;
}

/** The abuse limit's configuration, or its defaults in memory when it cannot be read (logged where it is used). */
export function limitConfigOrDefaults(): RateLimitConfig {
  try {
    return getRateLimitConfig();
  } catch {
    return { ...RATE_LIMIT_DEFAULTS, trustedProxies: 0, onVercel: false };
  }
}

/** This request's client as the abuse limit counts it: the key a signature is bound to (form-token.ts). */
export const requestClient = (requestHeaders: Pick<Headers, 'get'>) =>
  clientKey(requestHeaders, limitConfigOrDefaults());

/** This request's client's address, whole, when it is one: the same the abuse limit trusts. */
export const requestAddress = (requestHeaders: Pick<Headers, 'get'>) =>
  hostOf(clientAddressOf(requestHeaders, limitConfigOrDefaults()));

let shared: ContactLimiter | undefined;

/** One enquiry from this request's client, against the configured limit. Never throws because of configuration. */
export async function consumeEnquiry(requestHeaders: Pick<Headers, 'get'>): Promise<LimitVerdict> {
  let config: RateLimitConfig = { ...RATE_LIMIT_DEFAULTS, trustedProxies: 0, onVercel: false };
  try {
    config = getRateLimitConfig();
    shared ??= createContactLimiter(config);
  } catch (error) {
    // The limit must never cost a visitor their enquiry: the same limit in memory, for this instance.
    console.error(
      `[contacto] ERROR: no se pudo preparar el límite de solicitudes (${errorName(error)}); se usa en memoria`,
    );
    closeEnquiryLimiter();
    shared = createContactLimiter({ ...config, redisUrl: undefined, postgresUrl: undefined });
  }
  return consume(shared, clientKey(requestHeaders, config));
}

/** Drops the shared limiter and its store client (tests, scripts), so nothing keeps the process alive. */
export function closeEnquiryLimiter(): void {
  shared?.release?.();
  shared = undefined;
}
