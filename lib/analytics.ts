/**
 * A tiny gtag queue, as the official snippet does it: an event sent before
 * gtag.js has loaded (the scripts wait 6 s, see ThirdPartyScripts) is replayed
 * when it arrives, where @next/third-parties' `sendGAEvent` would drop it.
 */

export type AnalyticsEvent = 'formulario' | 'whatsapp';

type Gtag = (...args: unknown[]) => void;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

export function gtag(..._args: unknown[]): void {
  if (typeof window === 'undefined') return;
  window.dataLayer = window.dataLayer ?? [];
  // gtag.js only recognises Arguments objects, not plain arrays.
  // eslint-disable-next-line prefer-rest-params
  window.dataLayer.push(arguments);
}

export function trackEvent(name: AnalyticsEvent, params: Record<string, string | number> = {}): void {
  gtag('event', name, params);
}

/** The attribute that marks links whose clicks are tracked (see ThirdPartyScripts). */
export const ANALYTICS_EVENT_ATTRIBUTE = 'data-analytics-event';
