import { getDeliveryConfig } from '@/lib/env/server';
import { sendLeadAlert } from './alert';
import type { AlertKind, DeadDetail } from './alert-message';
import type { Lead } from './lead';

/** True once there is nothing more to tell (sent, in the hour's digest, or alerts not configured); false: the workflow owes it still. */
export async function alertAgency(kind: AlertKind, lead: Lead, detail: DeadDetail): Promise<boolean> {
  'use step';
  const { alert } = getDeliveryConfig();
  return alert ? sendLeadAlert(kind, lead, detail, alert) : true;
}
