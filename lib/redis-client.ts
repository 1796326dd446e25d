import 'server-only';
import Redis from 'ioredis';

/**
 * The site's Redis clients (the abuse limit, the outbox): a Redis that is
 * away or stuck fails a command within its timeout, never holds it. No
 * offline queue (a command sent while disconnected fails at once instead of
 * waiting for a reconnect), no retry of a command cut by a dropped
 * connection, and a bounded connect. Lazy: `whenReady` connects on first use
 * and waits a bounded time for it, so a cold instance's first visitor is not
 * refused just because the connection was still opening.
 */
export function createRedisClient(url: string, { commandTimeoutMs }: { commandTimeoutMs: number }): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1000,
    commandTimeout: commandTimeoutMs,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // Reconnects in the background, never faster than every 200 ms nor slower than every 2 s.
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  client.on('error', () => {}); // surfaced by the failing command, logged there
  return client;
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
