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
  DEAD_AFTER_MS,
  maxRetryAfterMs,
  releaseToken,
  ROUNDS_PER_RUN,
  waitBeforeRound,
  type Lead,
  type LeadOutcome,
  type Try,
} from './lead';

// The lead's life in one file: the workflow, then its steps. Our loop, not the engine's step retries, decides when to
// try again: a round's outcome sets the next wait, honours Retry-After and counts the 24 hours, so the steps never
// throw; the engine retries only what it alone sees fail (a lost delivery, a step cut off: lib/engine/rescue.ts).

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
  let retryAfterMs = lead.retryAfterMs ?? 0;
  // Round 0 was the live attempt; a released spam was never tried, so its first round goes at once.
  const first = lead.round ?? (lead.spamRule ? 0 : 1);
  for (let round = first; ; round += 1) {
    if (round > 0) {
      const wait = waitBeforeRound(round, lead.backoffSeconds, retryAfterMs, Math.random());
      if (Date.now() + wait - lead.receivedAt > DEAD_AFTER_MS) {
        if (!alerted) await alertAgency('dead', lead, { reason: 'expired' });
        return { outcome: 'dead', reason: 'expired', deadAt: Date.now() };
      }
      await sleep(wait);
    }
    const result = await deliverRound(lead);
    if (result.outcome === 'delivered') return { outcome: 'delivered', rounds: round + 1 };
    if (result.outcome === 'refused') {
      if (!alerted) await alertAgency('dead', lead, { reason: 'refused', refusal: result.refusal });
      return { outcome: 'dead', reason: 'refused', refusal: result.refusal, deadAt: Date.now() };
    }
    if (!alerted) alerted = await alertAgency('pending', lead, {});
    retryAfterMs = result.retryAfterMs ?? 0;
    if (round + 1 - first >= ROUNDS_PER_RUN) {
      // Released already, if it was spam: the fresh run delivers at once on its schedule.
      const { spamRule: _released, ...rest } = lead;
      await continueInNewRun({ ...rest, round: round + 1, alerted, retryAfterMs, forwarded: true });
      return { outcome: 'continued' };
    }
  }
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
