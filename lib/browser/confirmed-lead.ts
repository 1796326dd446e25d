import { useEffect, useState } from 'react';
import type { LeadExperiment } from '../experiments/lead-experiment';

/**
 * The hand-off between the contact form and the third-party tags when an
 * enquiry is confirmed. The form knows the lead; only the tags know the IDs
 * and how to send its events (their code waits in the lazily imported tags
 * chunk, lib/conversion.ts). Kept this small because it is in the JavaScript
 * of every first visit.
 */

/**
 * The confirmed enquiry's e-mail and phone as typed, for Google's enhanced conversions (normalised in
 * lib/conversion.ts).
 */
export type LeadContact = { mail: string; phone: string };

/** A confirmed enquiry whose events the tags have to send (with the variant its page was of); `sent` once they went. */
export type ConfirmedLead = {
  key: string;
  contact?: LeadContact;
  experiments?: readonly LeadExperiment[];
  sent: () => void;
};

/** How much longer than the spec's 2 s the thanks may stay while gtag sends the lead's events. */
export const MAX_HOLD_MS = 1000;

let listener: ((lead: ConfirmedLead) => void) | undefined;
/** Leads confirmed before the tags' hook listened (a page rendered from a form sent without scripts). */
const unheard: ConfirmedLead[] = [];
const leads = new Map<string, { sent: boolean; waiting: Array<() => void> }>();

/** Calls `callback` once the lead's events were sent (at once when the tags have nothing to measure). */
function whenSent(
  key: string,
  about: Pick<ConfirmedLead, 'contact' | 'experiments'>,
  callback: () => void,
): void {
  let lead = leads.get(key);
  if (!lead) {
    // One announcement per key: React may run the form's effect twice.
    const entry = { sent: false, waiting: [] as Array<() => void> };
    leads.set(key, (lead = entry));
    const sent = () => {
      entry.sent = true;
      entry.waiting.splice(0).forEach((waiting) => waiting());
    };
    if (listener) listener({ key, ...about, sent });
    // Told as soon as the tags' hook mounts; leaveAfterLead never waits more than MAX_HOLD_MS for it.
    else unheard.push({ key, ...about, sent });
  }
  if (lead.sent) callback();
  else lead.waiting.push(callback);
}

/**
 * Leaves (`leave`) `delayMs` after a confirmed enquiry, or later, once its
 * analytics events were sent, but never more than MAX_HOLD_MS later: a
 * blocked gtag.js must not keep the visitor here. `contact`: what the visitor
 * sent, when the form has it; `experiments`: the variants the page is of. Returns a cancel function.
 */
export function leaveAfterLead(
  key: string,
  delayMs: number,
  leave: () => void,
  contact?: LeadContact,
  experiments?: readonly LeadExperiment[],
): () => void {
  let sent = false;
  let due = false;
  let done = false;
  const go = () => {
    if (done) return;
    done = true;
    leave();
  };
  const dueTimer = setTimeout(() => {
    due = true;
    if (sent) go();
  }, delayMs);
  const capTimer = setTimeout(go, delayMs + MAX_HOLD_MS);
  whenSent(key, { contact, experiments }, () => {
    sent = true;
    if (due) go();
  });
  return () => {
    done = true;
    clearTimeout(dueTimer);
    clearTimeout(capTimer);
  };
}

/**
 * The leads confirmed on this page, for the tags to send. With `measured`
 * false (no GA, no Ads conversion and no Meta Pixel configured) a lead has
 * nothing to wait for.
 */
export function useLeads(measured: boolean): readonly ConfirmedLead[] {
  const [confirmed, setConfirmed] = useState<readonly ConfirmedLead[]>([]);
  useEffect(() => {
    const current = (lead: ConfirmedLead) =>
      measured ? setConfirmed((list) => [...list, lead]) : lead.sent();
    listener = current;
    unheard.splice(0).forEach(current);
    return () => {
      if (listener === current) listener = undefined;
    };
  }, [measured]);
  return confirmed;
}
