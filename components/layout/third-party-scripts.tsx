'use client';

import { usePathname } from 'next/navigation';
import { lazy, Suspense, useEffect, useState } from 'react';
import { ErrorBoundary } from '@/components/error-boundary';
import {
  ANALYTICS_EVENT_ATTRIBUTE,
  trackEvent,
  type AnalyticsEvent,
} from '@/lib/browser/analytics';
import { useLeads, type ConfirmedLead } from '@/lib/browser/confirmed-lead';
import type { ThirdPartyTagsProps } from './third-party-tags';

// Their code (and @next/third-parties') is fetched only when the flag turns
// true, so none of it is in the JavaScript of the first visit.
// (React.lazy rather than next/dynamic: the latter adds its own runtime.)
const ThirdPartyTags = lazy(() => import('./third-party-tags'));

/** Spec: the 'loaded' flag turns true 6000 ms after the page is first shown (its first contentful paint). */
export const LOADED_DELAY_MS = 6000;

/** The default thank-you page: a visitor may read it and close the tab at once, so its tags do not wait. */
const NO_WAIT_PATHS = new Set(['/gracias']);

type Props = ThirdPartyTagsProps;

/**
 * Holds the spec's 'loaded' flag. Nothing on screen waits for it: it only
 * delays analytics, the Ads tag, the Meta Pixel and the chat widget so they
 * never compete with the first paint. It also sends the analytics event of any
 * link marked with data-analytics-event, so those links can stay
 * server-rendered.
 */
export function ThirdPartyScripts(props: Props) {
  const anyTag = Boolean(
    props.gaMeasurementId || props.googleAdsId || props.metaPixelId || props.chatWidgetSrc,
  );
  const noWait = NO_WAIT_PATHS.has(usePathname() ?? '');
  // With no tag to add, no timer either: nothing runs on the main thread 6 s in for nothing.
  const flag = useLoadedFlag(!anyTag ? null : noWait ? 0 : LOADED_DELAY_MS);
  // A confirmed enquiry loads the tags at once: the flag keeps them from
  // competing with the first paint, and that is long past; the thank-you
  // redirect follows in 2 s and must not take the conversion with it.
  const leads = useLeads(
    Boolean(
      props.gaMeasurementId ||
      (props.googleAdsId && props.googleAdsConversionLabel) ||
      props.metaPixelId,
    ),
  );
  const loaded = flag || leads.length > 0;

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      const target =
        event.target instanceof Element
          ? event.target.closest(`[${ANALYTICS_EVENT_ATTRIBUTE}]`)
          : null;
      const name = target?.getAttribute(ANALYTICS_EVENT_ATTRIBUTE);
      if (name) trackEvent(name as AnalyticsEvent);
    };
    document.addEventListener('click', onClick, { capture: true });
    return () => document.removeEventListener('click', onClick, { capture: true });
  }, []);

  // A tags chunk that never arrives costs the tags, nothing else: the page
  // stays, and so does the thank-you redirect, which stops waiting for them.
  return loaded && anyTag ? (
    <ErrorBoundary name="etiquetas de terceros" fallback={<NoTags leads={leads} />}>
      <Suspense fallback={null}>
        <ThirdPartyTags {...props} leads={leads} />
      </Suspense>
    </ErrorBoundary>
  ) : null;
}

/** Without the tags no lead's events will ever be sent: its redirect need not wait up to 1 s for them. */
function NoTags({ leads }: { leads: readonly ConfirmedLead[] }) {
  useEffect(() => leads.forEach((lead) => lead.sent()), [leads]);
  return null;
}

/**
 * How long ago the page was first shown: its first contentful paint, which a tab opened in the background only makes
 * once it is shown. 0 when the browser does not say (then the wait counts from now).
 */
function shownForMs(): number {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByName !== 'function')
    return 0;
  const [firstPaint] = performance.getEntriesByName('first-contentful-paint');
  return firstPaint ? Math.max(0, performance.now() - firstPaint.startTime) : 0;
}

/**
 * False until `delayMs` after the page is first shown (a tab opened in the background waits); null: never. Counted
 * from the first paint, not from when this script runs: on a slow phone the page is read long before it hydrates.
 */
function useLoadedFlag(delayMs: number | null): boolean {
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (delayMs === null) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      if (timer !== undefined || document.visibilityState === 'hidden') return;
      document.removeEventListener('visibilitychange', start);
      timer = setTimeout(() => setLoaded(true), Math.max(0, delayMs - shownForMs()));
    };
    document.addEventListener('visibilitychange', start);
    start();
    return () => {
      document.removeEventListener('visibilitychange', start);
      clearTimeout(timer);
    };
  }, [delayMs]);

  return loaded;
}
