/**
 * A tiny gtag queue, as the official snippet does it: an event sent before
 * gtag.js has loaded (the scripts wait 6 s, see ThirdPartyScripts) is replayed
 * when it arrives, where @next/third-parties' `sendGAEvent` would drop it.
 * The Meta Pixel's commands wait the same way (`fbq`).
 */

export type AnalyticsEvent = 'formulario' | 'whatsapp';

type Gtag = (...args: unknown[]) => void;

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
    /** Meta's fbq, once the tags chunk has started the pixel (lib/meta-pixel.ts). */
    fbq?: (...args: unknown[]) => void;
    /** Meta Pixel commands sent before that: the tags chunk replays them after fbq('init'). */
    fbqQueue?: unknown[][];
  }
}

export function gtag(..._args: unknown[]): void {
  if (typeof window === 'undefined') return;
  window.dataLayer = window.dataLayer ?? [];
  // gtag.js only recognises Arguments objects, not plain arrays.
  // eslint-disable-next-line prefer-rest-params
  window.dataLayer.push(arguments);
}

/** A Meta Pixel command, now or once the pixel has started (it starts only when configured). */
export function fbq(...args: unknown[]): void {
  if (typeof window === 'undefined') return;
  if (window.fbq) window.fbq(...args);
  else (window.fbqQueue ??= []).push(args);
}

export function trackEvent(
  name: AnalyticsEvent,
  params: Record<string, string | number> = {},
): void {
  gtag('event', name, params);
  // A chat started on WhatsApp is Meta's standard Contact event.
  if (name === 'whatsapp') fbq('track', 'Contact');
}

/** The attribute that marks links whose clicks are tracked (see ThirdPartyScripts). */
export const ANALYTICS_EVENT_ATTRIBUTE = 'data-analytics-event';
