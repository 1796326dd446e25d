/**
 * @jest-environment node
 */
import { sharedRedis } from './redis-client';

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
});
