import { gtag } from './analytics';

/**
 * The events of a confirmed enquiry: the Google Ads conversion and GA4's
 * recommended generate_lead. Imported only by the lazily loaded tags chunk.
 * No personal data: the only value from the enquiry is its idempotency key,
 * a random UUID.
 */

export type LeadTargets = {
  gaMeasurementId?: string;
  googleAdsId?: string;
  googleAdsConversionLabel?: string;
};

type EventParams = Record<string, unknown>;
export type GtagEvent = ['event', string, EventParams];

/**
 * The events a lead sends. Each names its destination (send_to): without it
 * gtag sends an event to every configured tag, and GA would get the
 * conversion, Ads the lead.
 */
export function leadEvents(targets: LeadTargets, key: string): GtagEvent[] {
  // Beacon: the thank-you redirect follows at once, and a beacon outlives the page.
  const events: GtagEvent[] = [];
  if (targets.googleAdsId && targets.googleAdsConversionLabel) {
    events.push([
      'event',
      'conversion',
      // transaction_id: Ads counts one conversion per id, however often it is sent.
      { send_to: `${targets.googleAdsId}/${targets.googleAdsConversionLabel}`, transaction_id: key, transport_type: 'beacon' },
    ]);
  }
  if (targets.gaMeasurementId) {
    events.push(['event', 'generate_lead', { send_to: targets.gaMeasurementId, transport_type: 'beacon' }]);
  }
  return events;
}

/** Sends a lead's events; `sent` is called once, when gtag has called back (event_callback) for every one. */
export function sendLeadEvents(targets: LeadTargets, key: string, sent: () => void): void {
  const events = leadEvents(targets, key);
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
