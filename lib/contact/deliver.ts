import 'server-only';
import { randomUUID } from 'node:crypto';
import { after } from 'next/server';
import { start } from 'workflow/api';
import { getContactConfig, getDeliveryConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { countOutcome, type LeadOutcome as Counted } from '@/lib/experiments/counters';
import type { LeadSource } from '@/lib/contact/source';
import { withTimeout } from '@/lib/server/with-timeout';
import { saveToInbox } from './inbox';
import type { Visitor } from './lead/forward';
import { forgetInboxLater } from './lead/forget-workflow';
import { forwardOf, startForwarding } from './lead/forward-start';
import { maxRetryAfterMs, type Lead } from './lead/lead';
import { leadWorkflow } from './lead/workflow';
import type { ContactEnquiry } from './schema';
import type { ContactState } from './state';
import { postEnquiry } from './upstream';

/** The live try's limit: room under the form's 4 s to hand over to the engine; a slow API (2 s) gets its 2.5 s. */
export const LIVE_DEADLINE_MS = 2700;
/** The action answers within this of its start, whatever the API or the engine does (the form promises 4 s). */
export const ANSWER_WITHIN_MS = 3600;
/** The engine must hold the enquiry within this, or the visitor is asked to try again. */
const HOLD_WAIT_MS = 800;

/** `key`: the Idempotency-Key an earlier failed send of the same words had (resend-key.ts); else a fresh one. */
type Known = { answerBy: number; source?: LeadSource; visitor?: Visitor; key?: string };

/** A lead of this enquiry: its key, and the delivery settings it keeps for its whole life. */
function newLead(
  enquiry: ContactEnquiry,
  { source, visitor, key }: Pick<Known, 'source' | 'visitor' | 'key'>,
): Lead {
  const { backoffSeconds, keepMs } = getDeliveryConfig();
  return {
    key: key ?? randomUUID(),
    enquiry,
    receivedAt: Date.now(),
    backoffSeconds,
    keepMs,
    ...(source && { source }),
    ...(visitor && { visitor }),
  };
}

/** Delivers live (API or inbox), else the lead's workflow does, same key; thanks once delivered or held. */
export async function deliverEnquiry(enquiry: ContactEnquiry, known: Known): Promise<ContactState> {
  const config = getContactConfig();
  const { answerBy } = known;
  const lead = newLead(enquiry, known);
  const { key, backoffSeconds, keepMs, source } = lead;
  if (config.mode === 'misconfigured') {
    console.error(`[contacto] Solicitud no entregada (${key}): ${config.problem}`);
    return { status: 'failed' };
  }
  if (config.mode === 'inbox') {
    try {
      const file = await saveToInbox(enquiry, config.dir, key, keepMs, source);
      console.info(
        `[contacto] Sin CONTACT_API_BASE_URL: solicitud ${key} guardada en la bandeja local ${file}`,
      );
      afterAnswer(() => Promise.all([forgetInboxLater(keepMs), startForwarding(forwardOf(lead))]));
      countSoon(lead, 'received', 'live');
      return { status: 'sent', key };
    } catch (error) {
      console.error(
        `[contacto] No se pudo guardar la solicitud ${key} en la bandeja local (${errorName(error)})`,
      );
    }
  } else {
    const deadlineMs = Math.min(
      LIVE_DEADLINE_MS,
      Math.max(0, answerBy - Date.now() - HOLD_WAIT_MS),
    );
    const { siteKey, baseUrl } = config;
    const report = await postEnquiry(enquiry, {
      ...{ baseUrl, siteKey, idempotencyKey: key, deadlineMs },
      maxRetryAfterMs: maxRetryAfterMs(backoffSeconds),
    });
    const { result, failures } = report;
    const summary = `${key}: ${report.attempts} intento(s) en ${Date.now() - lead.receivedAt} ms`;
    if (result.outcome === 'delivered') {
      if (failures.length)
        console.warn(`[contacto] Entregada tras fallos (${failures.join(', ')}) ${summary}`);
      afterAnswer(() => startForwarding(forwardOf(lead)));
      countSoon(lead, 'received', 'live');
      return { status: 'sent', key };
    }
    if (result.outcome === 'refused') {
      console.warn(`[contacto] La API rechazó la solicitud ${summary}`);
      return { status: 'failed', mes: result.refusal };
    }
    console.warn(`[contacto] La API no respondió bien (${failures.join(', ')}) ${summary}`);
    if (report.retryAfterMs !== undefined) lead.retryAfterMs = report.retryAfterMs;
  }
  // Not held in time, the lead may still land: its key goes back (signed by the action) for the same words sent again.
  return (await startLead(lead, answerBy))
    ? { status: 'sent', key }
    : { status: 'failed', resend: key };
}

/** A suspected spam: thanked like a person, with no key (nothing to convert); its run waits to be released. */
export async function quarantineEnquiry(
  enquiry: ContactEnquiry,
  rule: string,
  known: Known,
): Promise<ContactState> {
  const { answerBy, source } = known;
  // No visitor (what Meta matches a person by): a suspected spam keeps the least.
  const lead: Lead = { ...newLead(enquiry, { source }), spamRule: rule };
  const { key } = lead;
  if (await startLead(lead, answerBy))
    console.warn(
      `[contacto] Posible spam (${rule}) apartado: ${key}; npm run leads -- spam lo lista`,
    );
  else
    console.warn(
      `[contacto] Posible spam (${rule}) descartado: ${key} (el motor de entregas no lo guardó)`,
    );
  return { status: 'sent' };
}

// Runs started after the answer (sending on, forgetting) cost up to 0.5 s each; on Vercel `after` keeps the function
// alive. A crash loses the copy, never the lead. Outside a request (a script, a test): at once.
function afterAnswer(work: () => Promise<unknown>): void {
  try {
    after(work);
  } catch {
    void work();
  }
}

// The staff page's totals, once a lead is delivered or held (one the visitor is asked to send again is not yet).
const countSoon = (lead: Lead, ...outcomes: Counted[]) =>
  afterAnswer(() => Promise.all(outcomes.map((outcome) => countOutcome(outcome, lead.receivedAt))));

/** Hands the lead to the engine by `answerBy`; true once it is durably held (the run started). */
async function startLead(lead: Lead, answerBy: number): Promise<boolean> {
  const wait = Math.max(HOLD_WAIT_MS, answerBy - Date.now());
  const began = Date.now();
  try {
    const { runId } = await withTimeout(start(leadWorkflow, [lead]), wait);
    const ms = Date.now() - began;
    console.info(
      `[contacto] Solicitud ${lead.key} en manos del motor de entregas en ${ms} ms (ejecución ${runId})`,
    );
    // Then its workflow counts it delivered (later; live, a spam released and delivered at once) or dead.
    countSoon(lead, 'received', ...(lead.spamRule ? (['spam'] as const) : []));
    return true;
  } catch (error) {
    // A start that answers later still runs: the API stores the key once, the visitor was told to retry, and the
    // same words sent again keep this key (actions.ts).
    console.error(
      `[contacto] ERROR: el motor de entregas no guardó ${lead.key} en ${wait} ms (${errorName(error)})`,
    );
    return false;
  }
}
