import { getContactConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { saveToInbox } from '../inbox';
import { forgetInboxLater } from './forget-step';
import { postEnquiry } from '../upstream';
import { maxRetryAfterMs, type Lead } from './lead';

/** What one round told the workflow: no personal data, safe to keep and log. */
export type RoundResult =
  | { outcome: 'accepted' }
  | { outcome: 'rejected'; mes?: string }
  | { outcome: 'unavailable'; failures: string; retryAfterMs?: number };

/**
 * One round to the contact API (4 attempts with the lead's key, within 7.5 s) or the inbox. Never throws: the workflow
 * decides when to try again.
 */
export async function deliverRound(lead: Lead): Promise<RoundResult> {
  'use step';
  const config = getContactConfig();
  try {
    if (config.mode === 'misconfigured') return { outcome: 'unavailable', failures: 'misconfigured' };
    if (config.mode === 'inbox') {
      await saveToInbox(lead.enquiry, config.dir, lead.key, lead.keepMs, lead.source);
      await forgetInboxLater(lead.keepMs);
      console.info(`[contacto] Solicitud pendiente ${lead.key} guardada en la bandeja local`);
      return { outcome: 'accepted' };
    }
    const report = await postEnquiry(lead.enquiry, {
      baseUrl: config.baseUrl,
      siteKey: config.siteKey,
      idempotencyKey: lead.key,
      maxRetryAfterMs: maxRetryAfterMs(lead.backoffSeconds),
    });
    const { result } = report;
    const failures = report.failures.join(',') || 'unavailable';
    if (result.outcome === 'accepted')
      console.info(`[contacto] Solicitud pendiente ${lead.key} entregada (${report.attempts} intento(s))`);
    else
      console.warn(
        `[contacto] Solicitud pendiente ${lead.key}: ${result.outcome === 'rejected' ? 'la API la rechazó' : `sin entregar (${failures})`}`,
      );
    if (result.outcome !== 'unavailable') return result;
    return report.retryAfterMs === undefined
      ? { outcome: 'unavailable', failures }
      : { outcome: 'unavailable', failures, retryAfterMs: report.retryAfterMs };
  } catch (error) {
    console.error(`[contacto] Falló la entrega de la solicitud pendiente ${lead.key} (${errorName(error)})`);
    return { outcome: 'unavailable', failures: errorName(error) };
  }
}
