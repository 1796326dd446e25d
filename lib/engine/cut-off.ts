// The pure rules of rescueCutOffRuns (rescue.ts), apart from the engine so they can be tested.

/**
 * A step its entity says ended this long ago, with no end in the log, is torn, not being written: the event follows
 * within milliseconds. Mended too early, a run only sends its lead again under the same key (stored once); mended
 * late, the lead waits: at 60 s, chaos scenario 2's torn lead reached the API 71 s after it came back (of 90 allowed).
 */
export const TORN_AFTER_MS = 30_000;
/**
 * A step "running" with nothing recorded this long is abandoned: a round takes 7.5 s at most, an alert 12 s, and the
 * engine records each retry, 5 s apart, 48 of them (4 minutes), then fails it.
 */
export const ABANDONED_AFTER_MS = 5 * 60_000;
/**
 * A run whose log ends with its latest step's end, or a sleep whose time has come, this long is stalled: seen on the
 * Postgres world when the database restarted under load (replays every second, nothing recorded), and when a server was
 * killed between a step's end and the run's next message. A healthy run goes on within a second; a dead server's job
 * comes back within 40 s (start.ts). At 75 s, chaos scenario 2's stalled lead reached the API 79.8 s after it came back
 * (of 90) on a busy machine; mended a little early, a run only sends its lead again under the same key.
 */
export const STALLED_AFTER_MS = 50_000;
/**
 * Both, on the local world: its one process writes and replays the runs (no job comes back from another), so 20 s is
 * patience enough.
 */
export const LOCAL_AFTER_MS = 20_000;

export type LatestStep = { status: string; completedAt?: Date; updatedAt: Date };
export type Verdict = 'torn' | 'abandoned' | null;
/**
 * How a step was found cut off: its end not logged (torn), never ended (abandoned), or the run not going on (stalled).
 */
export type CutVerdict = 'torn' | 'abandoned' | 'stalled';
/** A sleep's `eventData` has its `resumeAt`. */
export type LastEvent = {
  eventType: string;
  correlationId?: string;
  createdAt: Date;
  eventData?: unknown;
};

/**
 * Whether a run waits after its latest step's end, or asleep: 'stalled' once it should have gone on STALLED_AFTER_MS
 * ago; null when the log goes on (a hook, another step).
 */
export function logEnd(
  stepId: string,
  last: LastEvent | undefined,
  now: number,
  local = false,
): 'stalled' | 'waits' | null {
  let due: number;
  if (
    last?.correlationId === stepId &&
    (last.eventType === 'step_completed' || last.eventType === 'step_failed')
  )
    due = +last.createdAt;
  else if (last?.eventType === 'wait_created')
    due = +new Date(
      (last.eventData as { resumeAt?: Date | string } | undefined)?.resumeAt ?? last.createdAt,
    );
  else return null;
  return now - due >= (local ? LOCAL_AFTER_MS : STALLED_AFTER_MS) ? 'stalled' : 'waits';
}

/**
 * Whether a latest step looks cut off (the log is then read to be sure); 'abandoned' only once this server has rescued
 * as long: after a long stop, the world runs such a step again first. On the local world, one process writes the
 * world: a step that ended, or locked its end, before this process started was cut off by the last one's end, so it is
 * torn at once, with no wait (the rescue at start-up, lib/engine/start.ts).
 */
export function verdictOf(
  step: LatestStep,
  now: number,
  rescuingSinceMs: number,
  local = false,
  endLocked = false,
): Verdict {
  const ended = step.status === 'completed' || step.status === 'failed';
  const endedAt = +(step.completedAt ?? step.updatedAt);
  if (ended && now - endedAt >= (local ? LOCAL_AFTER_MS : TORN_AFTER_MS)) return 'torn';
  if (local && ended && endedAt < rescuingSinceMs) return 'torn';
  if (endLocked && now - +step.updatedAt >= LOCAL_AFTER_MS) return 'torn';
  if (endLocked && +step.updatedAt < rescuingSinceMs) return 'torn';
  if (
    step.status === 'running' &&
    now - +step.updatedAt >= ABANDONED_AFTER_MS &&
    now - rescuingSinceMs >= ABANDONED_AFTER_MS
  )
    return 'abandoned';
  return null;
}
