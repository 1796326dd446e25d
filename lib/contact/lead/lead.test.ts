import { leadNeeds, maxRetryAfterMs, waitBeforeRound } from './lead';

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

// What the engine's rescue (lib/engine/rescue.ts) is told to do with a run of ours cut off at a step.
describe('leadNeeds', () => {
  it('starts again a stalled lead unless its step says it was delivered', () => {
    expect(
      leadNeeds('deliverRound', 'stalled', { outcome: 'unavailable', failures: 'http-503' }),
    ).toBe('again');
    expect(leadNeeds('deliverRound', 'stalled', { outcome: 'delivered' })).toBe('forget');
    // As builds before the one vocabulary stored it.
    expect(leadNeeds('deliverRound', 'stalled', { outcome: 'accepted' })).toBe('forget');
  });

  it('never starts again a lead its step says was delivered or went on', () => {
    expect(leadNeeds('deliverRound', 'torn', { outcome: 'accepted' })).toBe('forget');
    expect(leadNeeds('continueInNewRun', 'torn', undefined)).toBe('forget');
    expect(leadNeeds('continueForwarding', 'torn', undefined)).toBe('forget');
    expect(leadNeeds('sendForward', 'torn', { outcome: 'delivered' })).toBe('forget');
    expect(leadNeeds('sendForward', 'torn', { outcome: 'sent' })).toBe('forget');
    expect(leadNeeds('sendForward', 'torn', { outcome: 'refused', refusal: 'HTTP 410' })).toBe(
      'forget',
    );
    expect(leadNeeds('sendForward', 'torn', { outcome: 'unavailable', failures: 'http-503' })).toBe(
      'again',
    );
    expect(leadNeeds('forgetAfter', 'torn', undefined)).toBe('keep');
    expect(leadNeeds('forgetAfter', 'abandoned', undefined)).toBe('keep');
    // Counted last, after its forgetting was scheduled: a fresh run would deliver and count it again.
    expect(leadNeeds('countLeadOutcome', 'torn', undefined)).toBe('keep');
    expect(leadNeeds('countLeadOutcome', 'abandoned', undefined)).toBe('keep');
  });

  it('starts again a lead still owed: an undelivered round, an alert, or a step whose result was never kept', () => {
    expect(
      leadNeeds('deliverRound', 'torn', { outcome: 'unavailable', failures: 'http-503' }),
    ).toBe('again');
    expect(leadNeeds('deliverRound', 'torn', { outcome: 'refused' })).toBe('again');
    expect(leadNeeds('deliverRound', 'torn', { outcome: 'rejected' })).toBe('again');
    expect(leadNeeds('alertAgency', 'torn', true)).toBe('again');
    expect(leadNeeds('deliverRound', 'abandoned', undefined)).toBe('again');
  });
});
