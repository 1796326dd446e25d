import { createHook, getWorkflowMetadata, sleep } from 'workflow';
import { start } from 'workflow/api';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import { getContactConfig, getDeliveryConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { countOutcome } from '@/lib/experiments/counters';
import { saveToInbox } from '../inbox';
import { postEnquiry } from '../upstream';
import { sendLeadAlert } from './alert';
import type { AlertKind, DeadDetail } from './alert-message';
import { forgetAfter, forgetInboxLater } from './forget-workflow';
import { forwardOf, startForwarding } from './forward-start';
import {
  goingOn,
  maxRetryAfterMs,
  releaseToken,
  type Lead,
  type LeadOutcome,
  type Try,
} from './lead';
import { tryInRounds } from './rounds';

// The lead's life in one file: the workflow, then its steps. Its rounds to the contact API are tried as its forwarding
// copies' are (./rounds.ts): the steps never throw, and a round's outcome sets the next wait.

/**
 * An enquiry the API did not take live, or a spam held back until `npm run leads -- release`. A restart or another
 * machine resumes it here; a dead letter is forgotten CONTACT_KEEP_DAYS later, the others at once.
 */
export async function leadWorkflow(lead: Lead): Promise<LeadOutcome> {
  'use workflow';
  const outcome = await deliverLead(lead);
  const keep = outcome.outcome === 'dead' ? lead.keepMs : 0;
  await forgetAfter(getWorkflowMetadata().workflowRunId, Date.now() + keep);
  // Last: a crash in it leaves nothing owed (leadNeeds). Only a released spam has a round 0, the moment it is released.
  if (outcome.outcome === 'delivered')
    await countLeadOutcome(outcome.rounds === 1 ? 'live' : 'later');
  else if (outcome.outcome === 'dead') await countLeadOutcome('dead');
  return outcome;
}

async function deliverLead(lead: Lead): Promise<LeadOutcome> {
  if (lead.spamRule) {
    using release = createHook<{ released: true }>({ token: releaseToken(lead.key) });
    const released = await Promise.race([
      release.then(() => true),
      sleep(lead.keepMs).then(() => false),
    ]);
    if (!released) return { outcome: 'spam-expired' };
  }
  // Confirmed: sent on now (the webhook, Meta), not after the API; a fresh run of the same lead already was.
  if (!lead.forwarded) await forwardConfirmed(lead);
  // One e-mail per lead: the pending one, or the dead letter's when no other went out (false: owed still).
  let alerted = lead.alerted ?? (lead.spamRule ? false : await alertAgency('pending', lead, {}));
  const end = await tryInRounds({
    // Round 0 was the live attempt; a released spam was never tried, so its first round goes at once.
    from: lead.round ?? (lead.spamRule ? 0 : 1),
    receivedAt: lead.receivedAt,
    backoffSeconds: lead.backoffSeconds,
    retryAfterMs: lead.retryAfterMs,
    attempt: () => deliverRound(lead),
    afterFailure: async () => {
      if (!alerted) alerted = await alertAgency('pending', lead, {});
    },
    goOnInNewRun: (round, retryAfterMs) =>
      continueInNewRun(goingOn(lead, { round, alerted, retryAfterMs, forwarded: true })),
  });
  if (end.outcome === 'delivered' || end.outcome === 'continued') return end;
  const dead =
    end.outcome === 'refused'
      ? { reason: 'refused' as const, refusal: end.refusal }
      : { reason: 'expired' as const };
  if (!alerted) await alertAgency('dead', lead, dead);
  return { outcome: 'dead', ...dead, deadAt: Date.now() };
}

/** One round to the contact API (4 attempts with the lead's key, within 7.5 s) or the inbox. Never throws. */
export async function deliverRound(lead: Lead): Promise<Try> {
  'use step';
  const config = getContactConfig();
  const { key, enquiry, keepMs } = lead;
  try {
    if (config.mode === 'misconfigured')
      return { outcome: 'unavailable', failures: 'misconfigured' };
    if (config.mode === 'inbox') {
      await saveToInbox(enquiry, config.dir, key, keepMs, lead.source);
      await forgetInboxLater(keepMs);
      console.info(`[contacto] Solicitud pendiente ${key} guardada en la bandeja local`);
      return { outcome: 'delivered' };
    }
    const { baseUrl, siteKey } = config;
    const options = {
      baseUrl,
      siteKey,
      idempotencyKey: key,
      maxRetryAfterMs: maxRetryAfterMs(lead.backoffSeconds),
    };
    const { result, attempts, retryAfterMs, ...report } = await postEnquiry(enquiry, options);
    const failures = report.failures.join(',') || 'unavailable';
    const refused =
      result.outcome === 'refused' ? 'la API la rechazó' : `sin entregar (${failures})`;
    if (result.outcome === 'delivered')
      console.info(`[contacto] Solicitud pendiente ${key} entregada (${attempts} intento(s))`);
    else console.warn(`[contacto] Solicitud pendiente ${key}: ${refused}`);
    if (result.outcome !== 'unavailable') return result;
    return {
      outcome: 'unavailable',
      failures,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  } catch (error) {
    console.error(
      `[contacto] Falló la entrega de la solicitud pendiente ${key} (${errorName(error)})`,
    );
    return { outcome: 'unavailable', failures: errorName(error) };
  }
}

/** True once there is nothing more to tell (sent, in the hour's digest, or no alerts); false: owed still. */
export async function alertAgency(
  kind: AlertKind,
  lead: Lead,
  detail: DeadDetail,
): Promise<boolean> {
  'use step';
  const { alert } = getDeliveryConfig();
  const onVercel = getWorkflowWorld().kind === 'vercel';
  return alert
    ? sendLeadAlert(kind, lead, { ...detail, ...(onVercel && { onVercel }) }, alert)
    : true;
}

/** Starts a fresh run of the lead's workflow that goes on from `lead.round` (see ROUNDS_PER_RUN). */
export async function continueInNewRun(lead: Lead): Promise<void> {
  'use step';
  const { runId } = await start(leadWorkflow, [lead]);
  console.info(`[contacto] Solicitud pendiente ${lead.key}: sigue en la ejecución ${runId}`);
}

/** The staff page's totals: a step, for the body runs again at every replay and a step's recorded result does not. */
export async function countLeadOutcome(outcome: 'live' | 'later' | 'dead'): Promise<void> {
  'use step';
  await countOutcome(outcome);
}

/** The lead's workflow, for a lead it holds confirmed: sends it on, as a step so a replay does not start it twice. */
export async function forwardConfirmed(lead: Lead): Promise<void> {
  'use step';
  await startForwarding(forwardOf(lead));
}
