import 'server-only';
import Redis from 'ioredis';

/**
 * A command nobody waits for any more still settles by then. Each caller bounds
 * its own commands with withTimeout (the abuse limit: 300 ms).
 */
const SHARED_COMMAND_TIMEOUT_MS = 5000;

/**
 * A Redis that is away or stuck fails a command, never holds it: no offline
 * queue (a command sent while disconnected fails at once), no retry of a
 * command cut by a dropped connection, a bounded connect. Lazy: `whenReady`
 * connects on first use and waits a bounded time, so a cold instance's first
 * visitor is not refused just because the connection was still opening.
 */
function createRedisClient(url: string): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: SHARED_COMMAND_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Reconnects in the background, never faster than every 200 ms nor slower than every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  client.on('error', () => {}); // surfaced by the failing command, logged there
  // Each request waiting for the connection (whenReady) listens for 'ready' until it connects or the request's own
  // wait ends: as many as the requests of that moment, each gone within its bound. Not a leak, so no warning.
  client.setMaxListeners(0);
  return client;
}

const SHARED = Symbol.for('contacto.redis-clients');

/** One user's hold on the shared client: `release` once done, and the last one out disconnects it. */
export type RedisLease = { client: Redis; release: () => void };

type Shared = Map<string, { client: Redis; users: number }>;
// On globalThis: Next may load this module once per bundle (instrumentation, routes) in one process.
const shared: Shared = ((globalThis as { [SHARED]?: Shared })[SHARED] ??= new Map());

/**
 * The process's one client for `url` (the abuse limit's):
 * one connection per instance instead of one per feature.
 */
export function sharedRedis(url: string): RedisLease {
  let held = shared.get(url);
  if (!held || held.client.status === 'end') {
    held = { client: createRedisClient(url), users: 0 };
    shared.set(url, held);
  }
  const mine = held;
  mine.users += 1;
  let released = false;
  return {
    client: mine.client,
    release: () => {
      if (released) return;
      released = true;
      mine.users -= 1;
      if (mine.users > 0) return;
      mine.client.disconnect();
      if (shared.get(url) === mine) shared.delete(url);
    },
  };
}

/** Resolves once `client` can take commands (connecting it if it is idle); rejects after `timeoutMs`. */
export async function whenReady(client: Redis, timeoutMs: number): Promise<void> {
  if (client.status === 'ready') return;
  if (client.status === 'end') throw new RedisNotReadyError();
  if (client.status === 'wait') client.connect().catch(() => {});
  await new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(() => {
      client.off('ready', done);
      reject(new RedisNotReadyError());
    }, timeoutMs);
    client.once('ready', done);
  });
}

export class RedisNotReadyError extends Error {
  constructor() {
    super('Redis no respondió a tiempo');
    this.name = 'RedisNotReadyError';
  }
}
