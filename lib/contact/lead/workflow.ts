import { createHook, getWorkflowMetadata, sleep } from 'workflow';
import { alertAgency } from './alert-step';
import { continueInNewRun } from './continue-step';
import { deliverRound } from './deliver-step';
import { forgetAfter } from './forget-step';
import { forwardConfirmed } from './forward-continue-step';
import { DEAD_AFTER_MS, releaseToken, ROUNDS_PER_RUN, waitBeforeRound, type Lead, type LeadOutcome } from './lead';

/**
 * The life of one enquiry the contact API did not take live (lib/contact/deliver.ts
 * starts it), or that the spam filter held back. Durable: the engine keeps each
 * step's outcome, so a restart, a crash or another machine resumes it here.
 *
 * A held-back spam first waits up to CONTACT_KEEP_DAYS for `npm run leads --
 * release`. The lead is confirmed (the visitor was thanked, or staff released
 * it), so it is sent on at once to the agency's webhook and Meta, whatever the
 * API does next. Then rounds: deliver; on a refusal, a dead letter at once;
 * otherwise the agency's one alert, a wait (the backoff, jitter, Retry-After)
 * and another round, until 24 hours have passed: a dead letter, kept for the
 * agency. Every ROUNDS_PER_RUN rounds the lead goes on in a fresh run. Whatever
 * the end, the run's data is forgotten when the privacy notice says: a
 * delivered or handed-on lead's at once, the others CONTACT_KEEP_DAYS later.
 */
export async function leadWorkflow(lead: Lead): Promise<LeadOutcome> {
  'use workflow';
  const outcome = await deliverLead(lead);
  const keep = outcome.outcome === 'dead' ? lead.keepMs : 0;
  await forgetAfter(getWorkflowMetadata().workflowRunId, Date.now() + keep);
  return outcome;
}

async function deliverLead(lead: Lead): Promise<LeadOutcome> {
  if (lead.spamRule) {
    using release = createHook<{ released: true }>({ token: releaseToken(lead.key) });
    const released = await Promise.race([release.then(() => true), sleep(lead.keepMs).then(() => false)]);
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
    if (result.outcome === 'accepted') return { outcome: 'delivered', rounds: round + 1 };
    if (result.outcome === 'rejected') {
      if (!alerted) await alertAgency('dead', lead, { reason: 'refused', refusal: result.mes });
      return { outcome: 'dead', reason: 'refused', refusal: result.mes, deadAt: Date.now() };
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
