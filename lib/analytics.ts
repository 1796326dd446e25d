/**
 * A tiny gtag queue. Events are pushed to `window.dataLayer` as `arguments`
 * objects, exactly what the official gtag snippet does, so an event sent
 * before gtag.js has loaded (the scripts wait 6 s, see ThirdPartyScripts) is
 * replayed by gtag.js when it arrives instead of being dropped, which is what
 * `sendGAEvent` from @next/third-parties does before its component mounts.
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
