import { fbq, gtag } from './analytics';
import type { ConfirmedLead, LeadContact } from './confirmed-lead';
import type { LeadExperiment } from '../experiments/lead-experiment';
import { normalMail } from '@/lib/contact/fields';

/**
 * The events of a confirmed enquiry: the Google Ads conversion, GA4's
 * recommended generate_lead and the Meta Pixel's Lead. Imported only by the
 * lazily loaded tags chunk. The events carry the enquiry's idempotency key, a
 * random UUID; the e-mail and phone go only to Google Ads, only with enhanced
 * conversions on (`gtag('set', 'user_data', …)`: gtag hashes them before they
 * leave the browser).
 */

export type LeadTargets = {
  gaMeasurementId?: string;
  googleAdsId?: string;
  googleAdsConversionLabel?: string;
  googleAdsEnhancedConversions?: boolean;
  metaPixelId?: string;
};

type EventParams = Record<string, unknown>;
export type GtagEvent = ['event', string, EventParams];

/**
 * The events a lead sends. Each names its destination (send_to): without it
 * gtag sends an event to every configured tag, and GA would get the
 * conversion, Ads the lead. A lead from an experiment's variant says which
 * (`experiment`, `variant`: lib/content-experiments.ts; several, each joined
 * by commas in the same order), so GA4 and Ads can split their reports by it;
 * under the same consent as the rest of the event.
 */
export function leadEvents(
  targets: LeadTargets,
  key: string,
  experiments: readonly LeadExperiment[] = [],
): GtagEvent[] {
  const tested = experiments.length
    ? {
        experiment: experiments.map(({ name }) => name).join(','),
        variant: experiments.map(({ variant }) => variant).join(','),
      }
    : {};
  // Beacon: the thank-you redirect follows at once, and a beacon outlives the page.
  const events: GtagEvent[] = [];
  if (targets.googleAdsId && targets.googleAdsConversionLabel) {
    events.push([
      'event',
      'conversion',
      // transaction_id: Ads counts one conversion per id, however often it is sent.
      {
        send_to: `${targets.googleAdsId}/${targets.googleAdsConversionLabel}`,
        transaction_id: key,
        transport_type: 'beacon',
        ...tested,
      },
    ]);
  }
  if (targets.gaMeasurementId) {
    events.push([
      'event',
      'generate_lead',
      { send_to: targets.gaMeasurementId, transport_type: 'beacon', ...tested },
    ]);
  }
  return events;
}

/**
 * A phone in E.164, Mexico's +52 for ten digits: the simple cases of the
 * server's libphonenumber-js reading (lib/contact/phone.ts), which is too big
 * for the browser. Undefined for anything else: Google takes E.164 only.
 */
export function e164(typed: string): string | undefined {
  const bare = typed.replace(/[^\d+]/g, '');
  if (/^\d{10}$/.test(bare)) return `+52${bare}`;
  // The mobile "1" after +52 that Mexico dropped in 2019.
  const oldMobile = /^\+521(\d{10})$/.exec(bare);
  if (oldMobile) return `+52${oldMobile[1]}`;
  return /^\+[1-9]\d{7,14}$/.test(bare) ? bare : undefined;
}

/** The enquiry's e-mail and phone as Google's enhanced conversions want them. */
export function userData({ mail, phone }: LeadContact): Record<string, string> {
  const phoneNumber = e164(phone);
  return {
    email: normalMail(mail),
    ...(phoneNumber ? { phone_number: phoneNumber } : {}),
  };
}

/**
 * Sends a lead's events; `sent` is called once, when gtag has called back
 * (event_callback) for every one. The Meta Pixel has no callback: its Lead
 * counts as sent once fbq has it (fbevents.js sends it, or queues it until it
 * arrives). Its eventID is the key the server's Conversions API Lead carries,
 * so Meta counts the two as one.
 */
export function sendLeadEvents(
  targets: LeadTargets,
  { key, contact, experiments, sent }: ConfirmedLead,
): void {
  if (targets.metaPixelId) fbq('track', 'Lead', {}, { eventID: key });
  const events = leadEvents(targets, key, experiments);
  // Before the conversion: gtag attaches the user data set when the conversion is sent.
  if (
    targets.googleAdsEnhancedConversions &&
    contact &&
    events.some(([, name]) => name === 'conversion')
  ) {
    gtag('set', 'user_data', userData(contact));
  }
  let waiting = events.length;
  if (waiting === 0) return sent();
  for (const [command, name, params] of events) {
    let called = false;
    const eventCallback = () => {
      if (called) return;
      called = true;
      waiting -= 1;
      if (waiting === 0) sent();
    };
    gtag(command, name, { ...params, event_callback: eventCallback });
  }
}
