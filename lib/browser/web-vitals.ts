import type { Metric } from 'web-vitals';
import { gtag } from './analytics';

/**
 * Core Web Vitals of real visits, sent to GA4 the way the web-vitals guide
 * does. Imported only by the lazily loaded tags chunk, and the web-vitals
 * library itself only from there: a first visit downloads none of it before
 * the 'loaded' flag. Buffered performance entries still give the page's LCP,
 * CLS, FCP and TTFB from before it arrived.
 */

export type VitalsMetric = Pick<Metric, 'name' | 'value' | 'delta' | 'id' | 'rating'>;

/** The parameters of the GA4 event named after the metric (LCP, INP, CLS, FCP, TTFB). */
export function vitalsEventParams(
  metric: VitalsMetric,
  gaMeasurementId: string,
): Record<string, unknown> {
  return {
    // GA sums `value`: the delta, so repeated reports of one metric add up to
    // its final value; CLS is a small fraction, scaled so rounding keeps it.
    value: Math.round(metric.name === 'CLS' ? metric.delta * 1000 : metric.delta),
    metric_id: metric.id,
    metric_value: metric.value,
    metric_delta: metric.delta,
    metric_rating: metric.rating,
    // Not an interaction: the visit's bounce rate is left alone.
    non_interaction: true,
    // Only to GA: the Ads tag has no use for them.
    send_to: gaMeasurementId,
  };
}

let started = false;

/**
 * Starts reporting the vitals to GA (once per page). Never rejects: measuring
 * is best effort, and a library chunk that never arrives costs the vitals
 * only (a later call asks for it again).
 */
export async function reportWebVitals(gaMeasurementId: string): Promise<void> {
  if (started) return;
  started = true;
  let library: typeof import('web-vitals');
  try {
    library = await import('web-vitals');
  } catch {
    started = false;
    return;
  }
  const { onCLS, onFCP, onINP, onLCP, onTTFB } = library;
  const send = (metric: Metric) =>
    gtag('event', metric.name, vitalsEventParams(metric, gaMeasurementId));
  onCLS(send);
  onFCP(send);
  onINP(send);
  onLCP(send);
  onTTFB(send);
}
