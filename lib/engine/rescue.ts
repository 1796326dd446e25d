import 'server-only';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { getRun } from 'workflow/api';
import {
  hydrateResourceIO,
  observabilityRevivers,
  parseStepName,
  parseWorkflowName,
} from 'workflow/observability';
import { getWorld } from 'workflow/runtime';
import { RUN_ERROR_CODES } from '@workflow/errors';
import { getWorkflowWorld } from './choose-world';
import { errorName } from '@/lib/server/error-name';
import { logEnd, verdictOf, type CutVerdict } from './cut-off';
import { forgetRun } from './forget-run';

// The engine's repairs that read its internals (pinned: workflow 4.8.9, @workflow/world-local 4.4.1,
// @workflow/world-postgres 4.3.7). Each names what upstream leaves open and the chaos scenario that proves it
// (scripts/chaos/scenarios.ts); docs/operations.md says how to upgrade the engine with them.

/**
 * The failures that are the engine's, not our code's (a run our code failed would fail again):
 * - MAX_DELIVERIES_EXCEEDED: upstream recovers a crashed run only when a server starts (vercel/workflow#3993), and
 *   gives a run up after 48 deliveries of one message. On the local world, replays after a SIGKILL or a full disk
 *   spent them (the chaos run lost 5 and 8 leads of 60). Chaos scenarios 1 (server SIGKILLed) and 4 (full disk).
 * - REPLAY_DIVERGENCE, CORRUPTED_EVENT_LOG: on our own servers a run is not pinned to the build that started it (on
 *   Vercel it is), so a run waiting across a deploy that moved or renamed a step no longer replays. The SDK's advice
 *   (docs: foundations/versioning) is to start it again with the same input; this does.
 */
/** A step a crash cut off: its short name, how it was found, and what it returned (none when it never ended). */
export type Cut = { step: string | undefined; verdict: CutVerdict; output: unknown };
/**
 * What our code tells the rescue about one of its workflows (lib/contact/lead/resume.ts): the rescue finds the runs,
 * this decides what each needs. `resume` gets the run's input and, for a crash, the step cut off; it starts a fresh
 * run if one is needed ('again', with its id), or says the run is done with ('forget') or keeps itself ('keep').
 */
export type OurWorkflow = {
  about(args: unknown[]): string | undefined;
  againAfterEngineFailure: boolean;
  /** Undefined: not a run this can mend (its input is not ours), left as it is. */
  resume(
    args: unknown[],
    cut?: Cut,
  ): Promise<{ needs: 'again' | 'forget' | 'keep'; again?: string } | undefined>;
};
export type OurWorkflows = {
  byName: Record<string, OurWorkflow>;
  /** Forgets a run at `at` (ms), durably: a run of the forgetting workflow. */
  forgetLater(runId: string, at: number): Promise<void>;
};

const ENGINE_FAILURES = new Set<string>([
  RUN_ERROR_CODES.MAX_DELIVERIES_EXCEEDED,
  RUN_ERROR_CODES.REPLAY_DIVERGENCE,
  RUN_ERROR_CODES.CORRUPTED_EVENT_LOG,
]);

/**
 * Starts again, with the same input, every lead's and forwarding run the engine failed (ENGINE_FAILURES). The API and
 * the webhook take a key once, so a round made twice is no second lead; the agency is not alerted again.
 */
export async function rescueGivenUpLeads(ours: OurWorkflows): Promise<number> {
  const world = getWorld();
  let rescued = 0;
  for (let cursor: string | undefined; ;) {
    const page = await world.runs.list({
      status: 'failed',
      resolveData: 'all',
      pagination: { limit: 50, cursor },
    });
    for (const run of page.data) {
      const workflow = ours.byName[parseWorkflowName(run.workflowName)?.shortName ?? ''];
      if (!workflow?.againAfterEngineFailure || !ENGINE_FAILURES.has(run.error?.code ?? ''))
        continue;
      const { input } = hydrateResourceIO(run, observabilityRevivers) as { input?: unknown };
      const args = Array.isArray(input) ? input : [];
      const about = workflow.about(args);
      if (!about) continue;
      try {
        const again = (await workflow.resume(args))?.again;
        if (!again) continue;
        await forgetRun(run.runId);
        rescued += 1;
        console.warn(
          `[contacto] El motor de entregas abandonó la ejecución ${run.runId} de ${about} (${run.error?.code}); ` +
            `sigue en ${again}`,
        );
      } catch (error) {
        console.error(
          `[contacto] No se pudo retomar ${about} (${errorName(error)}); se intenta de nuevo más tarde`,
        );
      }
    }
    if (!page.hasMore || !page.cursor) return rescued;
    cursor = page.cursor;
  }
}

const VERDICT_WORDS = {
  torn: 'terminado sin registrar',
  abandoned: 'abandonado',
  stalled: 'terminado, y la ejecución no siguió',
} as const;
const rescuingSince = Date.now();
/** Runs whose latest step was seen ended in the log too: not read again until that step changes. */
const seenEnded = new Map<string, string>();

/**
 * Upstream: crash recovery only at start-up (vercel/workflow#3993); a sleep is not durable across a worker's crash
 * (vercel/workflow#679). Chaos scenarios 1, 2 (a server of two on PostgreSQL SIGKILLed) and 3 (PostgreSQL restarted). A
 * world records a step's end in steps (local 4.4: a lock, the step, then the event; Postgres 4.3: two statements). Cut
 * between them (a SIGKILL, a full disk), the log says the step runs while the step says it ended, or the lock refuses
 * an end never written: the run waits for ever, nothing delivered, never failed (so rescueGivenUpLeads never sees it),
 * and no engine option or API mends it. So a running run of ours whose latest step has no logged end (verdictOf) is
 * cancelled, a fresh run started first if something is left (leadNeeds); the same when its log ends with that step's
 * end, or a sleep, long after it should have gone on (logEnd).
 */
export async function rescueCutOffRuns(
  ours: OurWorkflows,
  { now = Date.now(), tornOnly = false }: { now?: number; tornOnly?: boolean } = {},
): Promise<number> {
  const world = getWorld();
  const config = getWorkflowWorld();
  const local = config.kind === 'local';
  const endLocked = (runId: string, stepId: string) =>
    local &&
    existsSync(
      path.resolve(
        /* turbopackIgnore: true */ process.cwd(),
        config.dir,
        '.locks',
        'steps',
        `${runId}-${stepId}.terminal`,
      ),
    );
  let mended = 0;
  const running = new Set<string>();
  for (let cursor: string | undefined; ;) {
    const page = await world.runs.list({
      status: 'running',
      resolveData: 'none',
      pagination: { limit: 50, cursor },
    });
    for (const run of page.data) {
      const workflow = parseWorkflowName(run.workflowName)?.shortName;
      if (!workflow || !ours.byName[workflow]) continue;
      running.add(run.runId);
      const [latest] = (
        await world.steps.list({
          runId: run.runId,
          resolveData: 'none',
          pagination: { limit: 1, sortOrder: 'desc' },
        })
      ).data;
      if (!latest || seenEnded.get(run.runId) === latest.stepId) continue;
      const verdict = verdictOf(
        latest,
        now,
        rescuingSince,
        local,
        latest.status === 'running' && endLocked(run.runId, latest.stepId),
      );
      if (!verdict) continue;
      if (verdict === 'torn') {
        const [last] = (
          await world.events.list({
            runId: run.runId,
            resolveData: 'all',
            pagination: { limit: 1, sortOrder: 'desc' },
          })
        ).data;
        const end = logEnd(latest.stepId, last, now, local);
        // At a start (tornOnly), a run asleep past its time is what the world's own re-enqueueing continues.
        if (
          end === 'stalled' &&
          !tornOnly &&
          (await mend(ours, run.runId, workflow, latest.stepId, 'stalled'))
        )
          mended += 1;
        if (end) continue;
      }
      if (await endLogged(run.runId, latest.stepId)) seenEnded.set(run.runId, latest.stepId);
      else if (await mend(ours, run.runId, workflow, latest.stepId, verdict)) mended += 1;
    }
    if (!page.hasMore || !page.cursor) break;
    cursor = page.cursor;
  }
  for (const runId of seenEnded.keys()) if (!running.has(runId)) seenEnded.delete(runId);
  return mended;
}

/**
 * Whether the run's event log records the step's end (a run's log: a few dozen events, ROUNDS_PER_RUN rounds at most).
 */
async function endLogged(runId: string, stepId: string): Promise<boolean> {
  const world = getWorld();
  for (let cursor: string | undefined; ;) {
    const page = await world.events.list({
      runId,
      resolveData: 'none',
      pagination: { limit: 100, cursor },
    });
    if (
      page.data.some(
        (event) =>
          event.correlationId === stepId &&
          (event.eventType === 'step_completed' || event.eventType === 'step_failed'),
      )
    )
      return true;
    if (!page.hasMore || !page.cursor) return false;
    cursor = page.cursor;
  }
}

async function mend(
  ours: OurWorkflows,
  runId: string,
  workflow: string,
  stepId: string,
  verdict: CutVerdict,
): Promise<boolean> {
  const world = getWorld();
  const ourWorkflow = ours.byName[workflow];
  if (!ourWorkflow) return false;
  try {
    const step = await world.steps.get(runId, stepId, { resolveData: 'all' });
    const shortName = parseStepName(step.stepName)?.shortName;
    const { input } = hydrateResourceIO(
      await world.runs.get(runId, { resolveData: 'all' }),
      observabilityRevivers,
    ) as {
      input?: unknown;
    };
    const args = Array.isArray(input) ? input : [];
    const output = (hydrateResourceIO(step, observabilityRevivers) as { output?: unknown }).output;
    const resumed = await ourWorkflow.resume(args, { step: shortName, verdict, output });
    if (!resumed || (resumed.needs === 'again' && !resumed.again)) return false;
    const { needs, again } = resumed;
    // Cancelled only once a fresh run is started: a lead is never left with none.
    await getRun(runId).cancel();
    seenEnded.delete(runId);
    // Forgotten by a forgetting run (durable), a few seconds on: the cancelled run's last replay may still be reading
    // it.
    if (needs !== 'keep') await ours.forgetLater(runId, Date.now() + 5000);
    const next = again
      ? `sigue en ${again}`
      : 'cancelada; la solicitud ya estaba entregada o seguía en otra ejecución';
    console.warn(
      `[contacto] La ejecución ${runId} (${ourWorkflow.about(args) ?? runId}) quedó cortada por una caída en ` +
        `${shortName ?? 'un paso'} (${VERDICT_WORDS[verdict]}): ${next}`,
    );
    return true;
  } catch (error) {
    console.error(
      `[contacto] No se pudo retomar la ejecución ${runId} (${errorName(error)}); se intenta de nuevo más tarde`,
    );
    return false;
  }
}
