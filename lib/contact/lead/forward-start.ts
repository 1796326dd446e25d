import { start } from 'workflow/api';
import { getDeliveryConfig, getForwardConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { NAMES, targetsOf, type Forward } from './forward';
import { forwardWorkflow } from './forward-workflow';
import type { Lead } from './lead';

// Not in forward-workflow.ts: what a workflow's file exports is bundled into the engine's sandbox, where these
// settings (and Node) are not to be read.

/**
 * One forwarding run per configured target, once the lead is confirmed. Never throws: the lead itself is delivered
 * either way.
 */
export async function startForwarding(forward: Forward): Promise<void> {
  const targets = targetsOf(getForwardConfig());
  const { backoffSeconds } = getDeliveryConfig();
  for (const target of targets) {
    try {
      const run = await start(forwardWorkflow, [forward, target, backoffSeconds, 0]);
      console.info(`[contacto] Solicitud ${forward.key}: envío al ${NAMES[target]} en la ejecución ${run.runId}`);
    } catch (error) {
      console.error(
        `[contacto] ERROR: no se pudo programar el envío de ${forward.key} al ${NAMES[target]} (${errorName(error)})`,
      );
    }
  }
}

export const forwardOf = (lead: Pick<Lead, 'key' | 'enquiry' | 'receivedAt' | 'source' | 'visitor'>): Forward => ({
  key: lead.key,
  enquiry: lead.enquiry,
  receivedAt: lead.receivedAt,
  ...(lead.source ? { source: lead.source } : {}),
  ...(lead.visitor ? { visitor: lead.visitor } : {}),
});
