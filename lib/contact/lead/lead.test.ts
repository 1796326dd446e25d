import { maxRetryAfterMs, waitBeforeRound } from './lead';

describe('the wait before a round', () => {
  const backoff = [60, 300, 900];

  it('follows the configured waits, the last one repeating', () => {
    expect([1, 2, 3, 4, 9].map((round) => waitBeforeRound(round, backoff, 0, 0))).toEqual([
      60_000, 300_000, 900_000, 900_000, 900_000,
    ]);
  });

  it('adds up to 20% of jitter, so leads caught by one outage do not come back together', () => {
    expect(waitBeforeRound(1, backoff, 0, 0.5)).toBe(66_000);
    expect(waitBeforeRound(1, backoff, 0, 0.999)).toBeLessThan(72_000);
  });

  it('never comes sooner than a Retry-After, and never later than the longest wait for one', () => {
    expect(waitBeforeRound(1, backoff, 120_000, 0)).toBe(120_000);
    expect(waitBeforeRound(1, backoff, 24 * 60 * 60 * 1000, 0)).toBe(900_000);
    // With waits of a second, a Retry-After is still honoured up to a minute.
    expect(maxRetryAfterMs([1])).toBe(60_000);
    expect(waitBeforeRound(1, [1], 5000, 0)).toBe(5000);
  });
});
