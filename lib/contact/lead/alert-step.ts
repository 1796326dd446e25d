import { getDeliveryConfig, getWorkflowWorld } from '@/lib/env/server';
import { sendLeadAlert } from './alert';
import type { AlertKind, DeadDetail } from './alert-message';
import type { Lead } from './lead';

/**
 * True once there is nothing more to tell (sent, in the hour's digest, or alerts not configured); false: the workflow
 * owes it still.
 */
export async function alertAgency(kind: AlertKind, lead: Lead, detail: DeadDetail): Promise<boolean> {
  'use step';
  const { alert } = getDeliveryConfig();
  const onVercel = getWorkflowWorld().kind === 'vercel';
  return alert ? sendLeadAlert(kind, lead, { ...detail, ...(onVercel ? { onVercel } : {}) }, alert) : true;
}
