import {
  ABANDONED_AFTER_MS,
  LOCAL_AFTER_MS,
  logEnd,
  STALLED_AFTER_MS,
  TORN_AFTER_MS,
  verdictOf,
} from './cut-off';

describe('a run cut off by a crash mid-step', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms);
  const upLong = now - ABANDONED_AFTER_MS;

  it('is suspected when its latest step ended a while ago (the log is then read), never while the end is being written', () => {
    expect(
      verdictOf(
        { status: 'completed', completedAt: ago(TORN_AFTER_MS), updatedAt: ago(TORN_AFTER_MS) },
        now,
        upLong,
      ),
    ).toBe('torn');
    expect(
      verdictOf(
        { status: 'failed', completedAt: ago(TORN_AFTER_MS + 1), updatedAt: ago(1) },
        now,
        upLong,
      ),
    ).toBe('torn');
    expect(
      verdictOf({ status: 'completed', completedAt: ago(2000), updatedAt: ago(2000) }, now, upLong),
    ).toBeNull();
  });

  it('is suspected when its latest step is "running" untouched for minutes, once this server has been up as long', () => {
    expect(verdictOf({ status: 'running', updatedAt: ago(ABANDONED_AFTER_MS) }, now, upLong)).toBe(
      'abandoned',
    );
    expect(verdictOf({ status: 'running', updatedAt: ago(60_000) }, now, upLong)).toBeNull();
    // Just restarted after a long stop: the world's own start runs the step again first.
    expect(
      verdictOf({ status: 'running', updatedAt: ago(60 * 60_000) }, now, now - 10_000),
    ).toBeNull();
    expect(verdictOf({ status: 'pending', updatedAt: ago(60 * 60_000) }, now, upLong)).toBeNull();
  });

  it("is stalled when its log ends with its latest step's end for STALLED_AFTER_MS, never while that is fresh or it goes on", () => {
    const end = (eventType: string, msAgo: number, correlationId = 'step_2') => ({
      eventType,
      correlationId,
      createdAt: ago(msAgo),
    });
    expect(logEnd('step_2', end('step_completed', STALLED_AFTER_MS), now)).toBe('stalled');
    expect(logEnd('step_2', end('step_failed', STALLED_AFTER_MS + 1), now)).toBe('stalled');
    // Its end just written: the next replay is on its way; a dead server's job comes back within 40 s.
    expect(logEnd('step_2', end('step_completed', 45_000), now)).toBe('waits');
    // The run went on: another step, or a step under way.
    expect(logEnd('step_2', end('step_completed', 60 * 60_000, 'step_1'), now)).toBeNull();
    expect(logEnd('step_2', end('step_started', 60 * 60_000), now)).toBeNull();
    expect(logEnd('step_2', end('hook_created', 60 * 60_000, 'hook_1'), now)).toBeNull();
    expect(logEnd('step_2', undefined, now)).toBeNull();
  });

  it('is stalled when it sleeps STALLED_AFTER_MS past its waking, never while it sleeps', () => {
    const sleep = (createdMsAgo: number, resumeAt: Date | string) => ({
      eventType: 'wait_created',
      correlationId: 'wait_3',
      createdAt: ago(createdMsAgo),
      eventData: { resumeAt },
    });
    // Asleep for hours between rounds, as the backoff says: not stalled, however old the step.
    expect(logEnd('step_2', sleep(60 * 60_000, new Date(now + 60_000)), now)).toBe('waits');
    expect(logEnd('step_2', sleep(110_000, ago(STALLED_AFTER_MS - 1)), now)).toBe('waits');
    // Its waking long past and nothing recorded: the chaos run's lead lost after "wait_created", 110 s before.
    expect(logEnd('step_2', sleep(110_000, ago(STALLED_AFTER_MS).toISOString()), now)).toBe(
      'stalled',
    );
  });

  it('is torn or stalled sooner on the local world, where no job comes back from another server', () => {
    const ended = {
      status: 'completed',
      completedAt: ago(LOCAL_AFTER_MS),
      updatedAt: ago(LOCAL_AFTER_MS),
    };
    expect(verdictOf(ended, now, upLong, true)).toBe('torn');
    expect(verdictOf(ended, now, upLong)).toBeNull();
    const end = (msAgo: number) => ({
      eventType: 'step_completed',
      correlationId: 'step_2',
      createdAt: ago(msAgo),
    });
    expect(logEnd('step_2', end(LOCAL_AFTER_MS), now, true)).toBe('stalled');
    expect(logEnd('step_2', end(LOCAL_AFTER_MS - 1000), now, true)).toBe('waits');
    expect(logEnd('step_2', end(LOCAL_AFTER_MS), now)).toBe('waits');
  });

  it('is torn at once on the local world when its step ended, or locked its end, before this server started', () => {
    // Restarted 5 s ago; the step ended 8 s ago, under the process that was killed: no wait for LOCAL_AFTER_MS.
    const startedAt = now - 5000;
    const ended = { status: 'completed', completedAt: ago(8000), updatedAt: ago(8000) };
    expect(verdictOf(ended, now, startedAt, true)).toBe('torn');
    expect(verdictOf({ status: 'running', updatedAt: ago(8000) }, now, startedAt, true, true)).toBe(
      'torn',
    );
    // Ended under this server: its end may be being written.
    expect(
      verdictOf(
        { status: 'completed', completedAt: ago(3000), updatedAt: ago(3000) },
        now,
        startedAt,
        true,
      ),
    ).toBeNull();
    expect(
      verdictOf({ status: 'running', updatedAt: ago(3000) }, now, startedAt, true, true),
    ).toBeNull();
    // PostgreSQL: another server may be writing that end.
    expect(verdictOf(ended, now, startedAt)).toBeNull();
    // Still running, no lock: the world runs it again after a restart.
    expect(verdictOf({ status: 'running', updatedAt: ago(8000) }, now, startedAt, true)).toBeNull();
  });

  it("is torn when the local world locked its step's end but never wrote it (a full disk, a kill), never while the end is being written", () => {
    expect(
      verdictOf({ status: 'running', updatedAt: ago(LOCAL_AFTER_MS) }, now, upLong, true, true),
    ).toBe('torn');
    expect(
      verdictOf({ status: 'running', updatedAt: ago(1000) }, now, upLong, true, true),
    ).toBeNull();
    expect(
      verdictOf({ status: 'running', updatedAt: ago(LOCAL_AFTER_MS) }, now, upLong, true, false),
    ).toBeNull();
  });
});
