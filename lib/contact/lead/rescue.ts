import 'server-only';
import { start } from 'workflow/api';
import { hydrateResourceIO, observabilityRevivers, parseWorkflowName } from 'workflow/observability';
import { getWorld } from 'workflow/runtime';
import { errorName } from '@/lib/error-name';
import { forgetRun } from './forget';
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
