import { start } from 'workflow/api';
import type { Forward, Target } from './forward';
import { forwardOf, NAMES, startForwarding } from './forward-start';
import { forwardWorkflow } from './forward-workflow';
import type { Lead } from './lead';

/** The lead's workflow, for a lead it holds confirmed: sends it on, as a step so a replay does not start it twice. */
export async function forwardConfirmed(lead: Lead): Promise<void> {
  'use step';
  await startForwarding(forwardOf(lead));
}

/** A fresh run of the forwarding workflow that goes on from round `from` (see ROUNDS_PER_RUN). */
export async function continueForwarding(
  forward: Forward,
  target: Target,
  backoffSeconds: readonly number[],
  from: number,
): Promise<void> {
  'use step';
  const run = await start(forwardWorkflow, [forward, target, backoffSeconds, from]);
  console.info(`[contacto] Envío de ${forward.key} al ${NAMES[target]}: sigue en la ejecución ${run.runId}`);
}
