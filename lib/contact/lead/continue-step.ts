import { start } from 'workflow/api';
import type { Lead } from './lead';
import { leadWorkflow } from './workflow';

/** Starts a fresh run of the lead's workflow that goes on from `lead.round` (see ROUNDS_PER_RUN). */
export async function continueInNewRun(lead: Lead): Promise<void> {
  'use step';
  const run = await start(leadWorkflow, [lead]);
  console.info(`[contacto] Solicitud pendiente ${lead.key}: sigue en la ejecución ${run.runId}`);
}
