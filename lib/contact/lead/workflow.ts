import { createHook, getWorkflowMetadata, sleep } from 'workflow';
import { alertAgency } from './alert-step';
import { continueInNewRun } from './continue-step';
import { deliverRound } from './deliver-step';
import { forgetAfter } from './forget-step';
import { forwardConfirmed } from './forward-continue-step';
import { DEAD_AFTER_MS, releaseToken, ROUNDS_PER_RUN, waitBeforeRound, type Lead, type LeadOutcome } from './lead';

/**
 * The life of an enquiry the API did not take live, or that the spam filter held back (it waits for `npm run leads --
 * release`); the engine keeps each step's outcome, so a restart or another machine resumes it here. A dead letter's
 * data is forgotten CONTACT_KEEP_DAYS later, the others' at once.
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
