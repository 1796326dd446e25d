import 'server-only';
import { getRun, start } from 'workflow/api';
import { hydrateResourceIO, observabilityRevivers, parseStepName, parseWorkflowName } from 'workflow/observability';
import { getWorld } from 'workflow/runtime';
import { errorName } from '@/lib/error-name';
import { leadNeeds, logEnd, verdictOf } from './cut-off';
import { forgetRun } from './forget';
import { forgetWorkflow } from './forget-workflow';
import type { Forward, Target } from './forward';
import { forwardWorkflow } from './forward-workflow';
import type { Lead } from './lead';
import { leadWorkflow } from './workflow';

/** The engine's own cap on one message's deliveries (@workflow/core, MAX_QUEUE_DELIVERIES): its words when it gives a run up. */
const GAVE_UP = /maximum queue deliveries/;

/**
 * Starts again, with the same lead and key, every lead's run the engine gave
 * up on by itself: on the local world, runs replayed after a SIGKILL and runs
 * that met a full disk for minutes spent the engine's 48 deliveries of one
 * message and failed, which loses the lead (the chaos run lost 5 and 8 of 60).
 * Only that failure: a run our own code failed would fail again. The API
 * stores a key once, so a round made twice is no second lead; the agency is
 * not alerted again. Returns how many were started again.
 */
export async function rescueGivenUpLeads(): Promise<number> {
  const world = getWorld();
  let rescued = 0;
  for (let cursor: string | undefined; ; ) {
    const page = await world.runs.list({ status: 'failed', resolveData: 'all', pagination: { limit: 50, cursor } });
    for (const run of page.data) {
      if (parseWorkflowName(run.workflowName)?.shortName !== 'leadWorkflow' || !GAVE_UP.test(run.error?.message ?? '')) continue;
      const { input } = hydrateResourceIO(run, observabilityRevivers) as { input?: unknown };
      const lead = Array.isArray(input) ? (input[0] as Lead | undefined) : undefined;
      if (!lead?.key) continue;
      try {
        const again = await start(leadWorkflow, [{ ...lead, alerted: true }]);
        await forgetRun(run.runId);
        rescued += 1;
        console.warn(`[contacto] El motor de entregas abandonó la ejecución ${run.runId} de ${lead.key}; sigue en ${again.runId}`);
      } catch (error) {
        console.error(`[contacto] No se pudo retomar ${lead.key} (${errorName(error)}); se intenta de nuevo más tarde`);
      }
    }
    if (!page.hasMore || !page.cursor) return rescued;
    cursor = page.cursor;
  }
}

const VERDICT_WORDS = { torn: 'terminado sin registrar', abandoned: 'abandonado', stalled: 'terminado, y la ejecución no siguió' } as const;

/** How long after its cancelling a cut-off run is forgotten. */
const FORGET_CANCELLED_AFTER_MS = 5000;
const rescuingSince = Date.now();
/** Runs whose latest step was seen ended in the log too: not read again until that step changes. */
const seenEnded = new Map<string, string>();

/**
 * Why this pass: the local world (@workflow/world-local 4.4) records a step's
 * end in three files, one after the other: a lock, the step (ended, with its
 * result), then the event; the Postgres world (4.3) updates the step and
 * inserts the event in two statements. A SIGKILL in between leaves a run whose
 * log says the step is still running while the step says it ended, and the
 * engine never mends it: after the restart the replay sends the step again,
 * the step is refused as ended and sends the replay again, for ever, nothing
 * recorded and no delivery tried (the chaos test's lost lead), so the engine
 * never fails the run and rescueGivenUpLeads never sees it. Killed after the
 * lock alone, the step runs once more, its end is refused, and the run stops
 * for good. No engine option covers it, and the engine's API can no longer
 * write that event. So each server looks at the latest step of every running
 * run of ours; one the log has no end for (verdictOf) has its run cancelled,
 * which ends the loop, and a fresh run started first when there is still
 * something to do: a lead's, unless its step's own result says it was
 * delivered or went on (leadNeeds); a forgetting's, always (forgetting twice is
 * harmless). The same for a run whose log ends with its latest step's end, or
 * a sleep, over a minute after it should have gone on (logEnd, 'stalled').
 * Returns how many runs it mended.
 */
export async function rescueCutOffRuns(now = Date.now()): Promise<number> {
  const world = getWorld();
  let mended = 0;
  const running = new Set<string>();
  for (let cursor: string | undefined; ; ) {
    const page = await world.runs.list({ status: 'running', resolveData: 'none', pagination: { limit: 50, cursor } });
    for (const run of page.data) {
      const workflow = parseWorkflowName(run.workflowName)?.shortName;
      if (workflow !== 'leadWorkflow' && workflow !== 'forgetWorkflow' && workflow !== 'forwardWorkflow') continue;
      running.add(run.runId);
      const [latest] = (await world.steps.list({ runId: run.runId, resolveData: 'none', pagination: { limit: 1, sortOrder: 'desc' } })).data;
      if (!latest || seenEnded.get(run.runId) === latest.stepId) continue;
      const verdict = verdictOf(latest, now, rescuingSince);
      if (!verdict) continue;
      if (verdict === 'torn') {
        // The log ends with this step's end, or a sleep: the run waits to go on, or never will.
        const [last] = (await world.events.list({ runId: run.runId, resolveData: 'all', pagination: { limit: 1, sortOrder: 'desc' } })).data;
        const end = logEnd(latest.stepId, last, now);
        if (end === 'stalled' && (await mend(run.runId, workflow, latest.stepId, 'stalled'))) mended += 1;
        if (end) continue;
      }
      if (await endLogged(run.runId, latest.stepId)) {
        seenEnded.set(run.runId, latest.stepId);
        continue;
      }
      if (await mend(run.runId, workflow, latest.stepId, verdict)) mended += 1;
    }
    if (!page.hasMore || !page.cursor) break;
    cursor = page.cursor;
  }
  for (const runId of seenEnded.keys()) if (!running.has(runId)) seenEnded.delete(runId);
  return mended;
}

/** Whether the run's event log records the step's end (a run's log: a few dozen events, ROUNDS_PER_RUN rounds at most). */
async function endLogged(runId: string, stepId: string): Promise<boolean> {
  const world = getWorld();
  for (let cursor: string | undefined; ; ) {
    const page = await world.events.list({ runId, resolveData: 'none', pagination: { limit: 100, cursor } });
    if (page.data.some((event) => event.correlationId === stepId && (event.eventType === 'step_completed' || event.eventType === 'step_failed'))) return true;
    if (!page.hasMore || !page.cursor) return false;
    cursor = page.cursor;
  }
}

async function mend(runId: string, workflow: 'leadWorkflow' | 'forgetWorkflow' | 'forwardWorkflow', stepId: string, verdict: 'torn' | 'abandoned' | 'stalled'): Promise<boolean> {
  const world = getWorld();
  try {
    const step = await world.steps.get(runId, stepId, { resolveData: 'all' });
    const shortName = parseStepName(step.stepName)?.shortName;
    const { input } = hydrateResourceIO(await world.runs.get(runId, { resolveData: 'all' }), observabilityRevivers) as { input?: unknown };
    const args = Array.isArray(input) ? input : [];
    const lead = workflow === 'forgetWorkflow' ? undefined : (args[0] as Lead | Forward | undefined);
    const what = lead?.key ?? `el borrado de ${String(args[0])}`;
    let needs: 'again' | 'forget' | 'keep' = 'again';
    let again: string | undefined;
    const stepOutput = () => (hydrateResourceIO(step, observabilityRevivers) as { output?: unknown }).output;
    if (workflow === 'forwardWorkflow' && lead?.key) {
      needs = leadNeeds(shortName, verdict, stepOutput());
      const [forward, target, backoffSeconds, from] = args as [Forward, Target, number[], number];
      if (needs === 'again') again = (await start(forwardWorkflow, [forward, target, backoffSeconds, from])).runId;
    } else if (workflow === 'leadWorkflow' && lead?.key) {
      needs = leadNeeds(shortName, verdict, stepOutput());
      // It has a step, so it was released if it was spam: the fresh run delivers at once, as continueInNewRun's does.
      const { spamRule, ...rest } = lead as Lead;
      // Sending on is a lead's first step: any other step cut off means it was sent on already, as does its logged end.
      const forwarded = (lead as Lead).forwarded || shortName !== 'forwardConfirmed' || verdict === 'stalled';
      if (needs === 'again') again = (await start(leadWorkflow, [{ ...rest, round: (lead as Lead).round ?? (spamRule ? 0 : 1), alerted: true, forwarded }])).runId;
    } else if (workflow === 'forgetWorkflow' && typeof args[0] === 'string' && typeof args[1] === 'number') {
      again = (await start(forgetWorkflow, [args[0], args[1]])).runId;
    } else return false;
    // Cancelled only once a fresh run is started: a lead is never left with none.
    await getRun(runId).cancel();
    seenEnded.delete(runId);
    // Forgotten by a forgetting run (durable), a few seconds on: the cancelled run's last replay may still be reading it.
    if (needs !== 'keep') await start(forgetWorkflow, [runId, Date.now() + FORGET_CANCELLED_AFTER_MS]);
    console.warn(
      `[contacto] La ejecución ${runId} (${what}) quedó cortada por una caída en ${shortName ?? 'un paso'} (${VERDICT_WORDS[verdict]}): ` +
        (again ? `sigue en ${again}` : 'cancelada; la solicitud ya estaba entregada o seguía en otra ejecución'),
    );
    return true;
  } catch (error) {
    console.error(`[contacto] No se pudo retomar la ejecución ${runId} (${errorName(error)}); se intenta de nuevo más tarde`);
    return false;
  }
}
