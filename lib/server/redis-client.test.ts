/**
 * @jest-environment node
 */
import { RedisNotReadyError, sharedRedis, whenReady } from './redis-client';

// Lazy clients: nothing here connects.
const URL_A = 'redis://127.0.0.1:1/0';

describe('the shared Redis client', () => {
  it('is one client per URL while anyone holds it, and is closed by the last one out', () => {
    const limit = sharedRedis(URL_A);
    const outbox = sharedRedis(URL_A);
    expect(outbox.client).toBe(limit.client);

    limit.release();
    limit.release(); // a second release of the same lease counts once
    expect(outbox.client.status).not.toBe('end');

    outbox.release();
    expect(outbox.client.status).toBe('end');

    const next = sharedRedis(URL_A);
    expect(next.client).not.toBe(outbox.client);
    next.release();
  });

  it('replaces a client someone disconnected directly', () => {
    const first = sharedRedis(URL_A);
    first.client.disconnect();
    const second = sharedRedis(URL_A);
    expect(second.client).not.toBe(first.client);
    first.release();
    expect(second.client.status).not.toBe('end');
    second.release();
  });

  // Every request that needs Redis while it connects waits on its 'ready' event; eleven visitors at once made Node warn
  // of a leak ("MaxListenersExceededWarning … ready listeners added to [Commander]") in every server's log.
  it('lets many requests wait for the same connection without a leak warning', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    const { client, release } = sharedRedis(URL_A);
    try {
      const waits = Array.from({ length: 30 }, () => whenReady(client, 300));
      for (const wait of waits) await expect(wait).rejects.toBeInstanceOf(RedisNotReadyError);
      expect(client.listenerCount('ready')).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      release();
    }
  });
});
