import { ABANDONED_AFTER_MS, leadNeeds, TORN_AFTER_MS, verdictOf } from './cut-off';

describe('a run cut off by a crash mid-step', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms);
  const upLong = now - ABANDONED_AFTER_MS;

  it('is suspected when its latest step ended a while ago (the log is then read), never while the end is being written', () => {
    expect(verdictOf({ status: 'completed', completedAt: ago(TORN_AFTER_MS), updatedAt: ago(TORN_AFTER_MS) }, now, upLong)).toBe('torn');
    expect(verdictOf({ status: 'failed', completedAt: ago(TORN_AFTER_MS + 1), updatedAt: ago(1) }, now, upLong)).toBe('torn');
    expect(verdictOf({ status: 'completed', completedAt: ago(2000), updatedAt: ago(2000) }, now, upLong)).toBeNull();
  });

  it('is suspected when its latest step is "running" untouched for minutes, once this server has been up as long', () => {
    expect(verdictOf({ status: 'running', updatedAt: ago(ABANDONED_AFTER_MS) }, now, upLong)).toBe('abandoned');
    expect(verdictOf({ status: 'running', updatedAt: ago(60_000) }, now, upLong)).toBeNull();
    // Just restarted after a long stop: the world's own start runs the step again first.
    expect(verdictOf({ status: 'running', updatedAt: ago(60 * 60_000) }, now, now - 10_000)).toBeNull();
    expect(verdictOf({ status: 'pending', updatedAt: ago(60 * 60_000) }, now, upLong)).toBeNull();
  });

  it('never starts again a lead its step says was delivered or went on', () => {
    expect(leadNeeds('deliverRound', 'torn', { outcome: 'accepted' })).toBe('forget');
    expect(leadNeeds('continueInNewRun', 'torn', undefined)).toBe('forget');
    expect(leadNeeds('continueForwarding', 'torn', undefined)).toBe('forget');
    expect(leadNeeds('sendForward', 'torn', { outcome: 'sent' })).toBe('forget');
    expect(leadNeeds('sendForward', 'torn', { outcome: 'refused', status: 410 })).toBe('forget');
    expect(leadNeeds('sendForward', 'torn', { outcome: 'unavailable', failure: 'http-503' })).toBe('again');
    expect(leadNeeds('forgetAfter', 'torn', undefined)).toBe('keep');
    expect(leadNeeds('forgetAfter', 'abandoned', undefined)).toBe('keep');
  });

  it('starts again a lead still owed: an undelivered round, an alert, or a step whose result was never kept', () => {
    expect(leadNeeds('deliverRound', 'torn', { outcome: 'unavailable', failures: 'http-503' })).toBe('again');
    expect(leadNeeds('deliverRound', 'torn', { outcome: 'rejected' })).toBe('again');
    expect(leadNeeds('alertAgency', 'torn', true)).toBe('again');
    expect(leadNeeds('deliverRound', 'abandoned', undefined)).toBe('again');
  });
});
