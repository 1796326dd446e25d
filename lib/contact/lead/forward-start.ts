import { start } from 'workflow/api';
import { getDeliveryConfig, getForwardConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { NAMES, targetsOf, type Forward } from './forward';
import { forwardWorkflow } from './forward-workflow';
import type { Lead } from './lead';

// Not in forward-workflow.ts: what a workflow's file exports is bundled into the engine's sandbox, where these
// settings (and Node) are not to be read.

/** One forwarding run per configured target, once the lead is confirmed. Never throws: the lead is delivered anyway. */
export async function startForwarding(forward: Forward): Promise<void> {
  const { backoffSeconds } = getDeliveryConfig();
  for (const target of targetsOf(getForwardConfig())) {
    const to = `${forward.key} al ${NAMES[target]}`;
    try {
      const { runId } = await start(forwardWorkflow, [forward, target, backoffSeconds, 0]);
      console.info(
        `[contacto] Solicitud ${forward.key}: envío al ${NAMES[target]} en la ejecución ${runId}`,
      );
    } catch (error) {
      console.error(
        `[contacto] ERROR: no se pudo programar el envío de ${to} (${errorName(error)})`,
      );
    }
  }
}

export const forwardOf = ({ key, enquiry, receivedAt, source, visitor }: Lead): Forward =>
  Object.assign({ key, enquiry, receivedAt }, source && { source }, visitor && { visitor });
