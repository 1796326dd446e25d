import { getDeliveryConfig } from '@/lib/env/server';
import { sendLeadAlert } from './alert';
import type { AlertKind, DeadDetail } from './alert-message';
import type { Lead } from './lead';

/**
 * Tells the agency about a lead, where alerts are configured. True once there
 * is nothing more to tell (sent, covered by the hour's digest, or no one to
 * tell); false when the mail server failed: the workflow tries again.
 */
export async function alertAgency(kind: AlertKind, lead: Lead, detail: DeadDetail): Promise<boolean> {
  'use step';
  const { alert } = getDeliveryConfig();
  if (!alert) return true;
  return sendLeadAlert(kind, lead, detail, alert);
}
