// When a run of ours was cut off by a crash mid-step (see rescueCutOffRuns in
// rescue.ts): the pure rules, apart from the engine so they can be tested.

/**
 * A step whose entity says it ended this long ago while the run's event log
 * has no end for it is torn, not being written: the log's event follows the
 * entity within milliseconds.
 */
export const TORN_AFTER_MS = 60_000;
/**
 * A step still "running" with nothing recorded for this long (entity and log)
 * is abandoned: a round takes 7.5 s at most, an alert 12 s, and while the
 * engine retries a step it records each attempt, 5 s apart, for 48 of them
 * (4 minutes), then fails it.
 */
export const ABANDONED_AFTER_MS = 5 * 60_000;

/**
 * A run still "running" whose log ends with its latest step's end, or with a
 * sleep whose time has come, and stays so this long, is stalled: the workflow
 * never went on. Seen on the Postgres world when the database restarted under
 * load (the chaos test's leads lost beside other scenarios): its replays came
 * back every second and recorded nothing. A healthy run goes on within a
 * second, and a job a dead server held is given back within 55 s
 * (lib/workflow-world.ts).
 */
export const STALLED_AFTER_MS = 75_000;

/** The latest step of a running run, as the world lists it. */
export type LatestStep = { status: string; completedAt?: Date; updatedAt: Date };
export type Verdict = 'torn' | 'abandoned' | null;
/** The last event of a run's log (a sleep's `eventData` has its `resumeAt`). */
export type LastEvent = { eventType: string; correlationId?: string; createdAt: Date; eventData?: unknown };

/**
 * Whether a run, whose latest step is `stepId`, waits at the end of its log:
 * after that step's end, or asleep. 'stalled' once it should have gone on
 * STALLED_AFTER_MS ago (the step's end, the sleep's waking), else 'waits';
 * null when the log goes on past them (a hook, another step).
 */
export function logEnd(stepId: string, last: LastEvent | undefined, now: number): 'stalled' | 'waits' | null {
  let due: number;
  if (last?.correlationId === stepId && (last.eventType === 'step_completed' || last.eventType === 'step_failed')) due = +last.createdAt;
  else if (last?.eventType === 'wait_created') due = +new Date((last.eventData as { resumeAt?: Date | string } | undefined)?.resumeAt ?? last.createdAt);
  else return null;
  return now - due >= STALLED_AFTER_MS ? 'stalled' : 'waits';
}

/**
 * Whether a run's latest step looks cut off (its event log is then read to be
 * sure): ended by its entity TORN_AFTER_MS ago, or "running" untouched
 * ABANDONED_AFTER_MS while this server has been rescuing at least as long
 * (after a long stop, the world's own start runs such a step again first).
 */
export function verdictOf(step: LatestStep, now: number, rescuingSinceMs: number): Verdict {
  if ((step.status === 'completed' || step.status === 'failed') && now - +(step.completedAt ?? step.updatedAt) >= TORN_AFTER_MS) return 'torn';
  if (step.status === 'running' && now - +step.updatedAt >= ABANDONED_AFTER_MS && now - rescuingSinceMs >= ABANDONED_AFTER_MS) return 'abandoned';
  return null;
}

/**
 * What a lead's run cut off at its step `shortName` needs, from the result
 * the step kept (`output`; none when abandoned): 'again', a fresh run; 'forget',
 * nothing but forgetting it now (delivered, or handed to a fresh run, which a
 * run's end would have done); 'keep', nothing (its end was settled and its
 * forgetting scheduled by forgetAfter, at the time the privacy notice says).
 * Never 'again' once the step says delivered: this pass sends no lead twice.
 * The same for a forwarding run: its send answered, or handed to a fresh run.
 */
export function leadNeeds(shortName: string | undefined, verdict: 'torn' | 'abandoned' | 'stalled', output: unknown): 'again' | 'forget' | 'keep' {
  if (shortName === 'forgetAfter') return 'keep';
  if (verdict === 'abandoned') return 'again';
  if (shortName === 'continueInNewRun' || shortName === 'continueForwarding') return 'forget';
  const outcome = (output as { outcome?: string } | undefined)?.outcome;
  if (shortName === 'deliverRound' && outcome === 'accepted') return 'forget';
  // A forwarding run (forward-workflow.ts) whose send got its answer has nothing left to do.
  if (shortName === 'sendForward' && (outcome === 'sent' || outcome === 'refused')) return 'forget';
  return 'again';
}
