import 'server-only';
import { randomUUID } from 'node:crypto';
import { after } from 'next/server';
import { start } from 'workflow/api';
import { getContactConfig, getDeliveryConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { withTimeout } from '@/lib/with-timeout';
import { saveToInbox } from './inbox';
import type { Visitor } from './lead/forward';
import { forgetInboxLater } from './lead/forget-workflow';
import { forwardOf, startForwarding } from './lead/forward-start';
import { maxRetryAfterMs, type Lead } from './lead/lead';
import { leadWorkflow } from './lead/workflow';
import type { ContactEnquiry } from './schema';
import type { LeadSource } from '@/lib/source';
import type { ContactState } from './state';
import { postEnquiry } from './upstream';

/**
 * The live attempt's limit: room under the form's 4 s to hand the enquiry to the engine, and a slow API (2 s) still
 * gets its one 2.5 s attempt.
 */
export const LIVE_DEADLINE_MS = 2700;
/** The action answers within this of its start, whatever the API or the engine does (the form promises 4 s). */
export const ANSWER_WITHIN_MS = 3600;
/** The engine must hold the enquiry within this, or the visitor is asked to try again. */
const HOLD_WAIT_MS = 800;

/**
 * Delivers live (contact API or inbox) or hands over to the lead's workflow with the same key, by `answerBy` (ms);
 * thanks only if delivered or held. Logs never carry what was typed.
 */
export async function deliverEnquiry(
  enquiry: ContactEnquiry,
  { answerBy, source, visitor }: { answerBy: number; source?: LeadSource; visitor?: Visitor },
): Promise<ContactState> {
  const config = getContactConfig();
  const key = randomUUID();
  if (config.mode === 'misconfigured') {
    console.error(`[contacto] Solicitud no entregada (${key}): ${config.problem}`);
    return { status: 'failed' };
  }
  const receivedAt = Date.now();
  const { backoffSeconds, keepMs } = getDeliveryConfig();
  let retryAfterMs: number | undefined;
  if (config.mode === 'inbox') {
    try {
      const file = await saveToInbox(enquiry, config.dir, key, keepMs, source);
      console.info(`[contacto] Sin CONTACT_API_BASE_URL: solicitud ${key} guardada en la bandeja local ${file}`);
      afterAnswer(() =>
        Promise.all([
          forgetInboxLater(keepMs),
          startForwarding(forwardOf({ key, enquiry, receivedAt, source, visitor })),
        ]),
      );
      return { status: 'sent', key };
    } catch (error) {
      console.error(`[contacto] No se pudo guardar la solicitud ${key} en la bandeja local (${errorName(error)})`);
    }
  } else {
    const deadlineMs = Math.min(LIVE_DEADLINE_MS, Math.max(0, answerBy - Date.now() - HOLD_WAIT_MS));
    const report = await postEnquiry(enquiry, {
      baseUrl: config.baseUrl,
      siteKey: config.siteKey,
      idempotencyKey: key,
      maxRetryAfterMs: maxRetryAfterMs(backoffSeconds),
      deadlineMs,
    });
    const summary = `${key}: ${report.attempts} intento(s) en ${Date.now() - receivedAt} ms`;
    if (report.result.outcome === 'delivered') {
      if (report.failures.length)
        console.warn(`[contacto] Entregada tras fallos (${report.failures.join(', ')}) ${summary}`);
      afterAnswer(() => startForwarding(forwardOf({ key, enquiry, receivedAt, source, visitor })));
      return { status: 'sent', key };
    }
    if (report.result.outcome === 'refused') {
      console.warn(`[contacto] La API rechazó la solicitud ${summary}`);
      return { status: 'failed', mes: report.result.refusal };
    }
    console.warn(`[contacto] La API no respondió bien (${report.failures.join(', ')}) ${summary}`);
    retryAfterMs = report.retryAfterMs;
  }
  const known = {
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    ...(source ? { source } : {}),
    ...(visitor ? { visitor } : {}),
  };
  return (await hold({ key, enquiry, receivedAt, backoffSeconds, keepMs, ...known }, answerBy))
    ? { status: 'sent', key }
    : { status: 'failed' };
}

/**
 * A suspected spam is thanked like a person (a bot learns nothing), with no key (nothing to convert); its run waits for
 * `npm run leads -- release` or forgets it.
 */
export async function quarantineEnquiry(
  enquiry: ContactEnquiry,
  rule: string,
  { answerBy, source }: { answerBy: number; source?: LeadSource },
): Promise<ContactState> {
  const { backoffSeconds, keepMs } = getDeliveryConfig();
  const lead: Lead = {
    key: randomUUID(),
    enquiry,
    receivedAt: Date.now(),
    backoffSeconds,
    keepMs,
    spamRule: rule,
    ...(source ? { source } : {}),
  };
  if (await hold(lead, answerBy))
    console.warn(`[contacto] Posible spam (${rule}) apartado: ${lead.key}; npm run leads -- spam lo lista`);
  else console.warn(`[contacto] Posible spam (${rule}) descartado: ${lead.key} (el motor de entregas no lo guardó)`);
  return { status: 'sent' };
}

/**
 * Runs started after the answer (sending on, forgetting): starting one costs up to 0.5 s; on Vercel `after` keeps the
 * function alive. A crash loses the copy, never the lead.
 */
function afterAnswer(work: () => Promise<unknown>): void {
  try {
    after(work);
  } catch {
    // Outside a request (a script, a unit test): at once, without waiting.
    void work();
  }
}

/** Hands the lead to the engine by `answerBy`; true once it is durably held (the run started). */
async function hold(lead: Lead, answerBy: number): Promise<boolean> {
  const wait = Math.max(HOLD_WAIT_MS, answerBy - Date.now());
  const began = Date.now();
  try {
    const run = await withTimeout(start(leadWorkflow, [lead]), wait);
    console.info(
      `[contacto] Solicitud ${lead.key} en manos del motor de entregas en ${Date.now() - began} ms (ejecución ` +
        `${run.runId})`,
    );
    return true;
  } catch (error) {
    // A start that answers later still runs: the API stores the key once, and the visitor was told to retry.
    console.error(`[contacto] ERROR: el motor de entregas no guardó ${lead.key} en ${wait} ms (${errorName(error)})`);
    return false;
  }
}
