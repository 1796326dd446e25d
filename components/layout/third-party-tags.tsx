'use client';

import { GoogleAnalytics } from '@next/third-parties/google';
import Script from 'next/script';
import { useEffect, useRef } from 'react';
import { gtag } from '@/lib/browser/analytics';
import { queueConsentDefaults } from '@/lib/browser/consent';
import { sendLeadEvents } from '@/lib/browser/conversion';
import type { ConfirmedLead } from '@/lib/browser/confirmed-lead';
import { startMetaPixel } from '@/lib/browser/meta-pixel';
import { reportWebVitals } from '@/lib/browser/web-vitals';

// Consent Mode's defaults come before every other command gtag.js reads:
// queued as this chunk is evaluated, before any of it renders (GoogleAnalytics
// queues its config from an effect of its own, which runs before this
// component's effects).
queueConsentDefaults();

export type ThirdPartyTagsProps = {
  gaMeasurementId?: string;
  googleAdsId?: string;
  googleAdsConversionLabel?: string;
  /** The confirmed lead's e-mail and phone go with its Ads conversion (lib/browser/conversion.ts). */
  googleAdsEnhancedConversions?: boolean;
  metaPixelId?: string;
  chatWidgetSrc?: string;
};

type Props = ThirdPartyTagsProps & {
  /** Enquiries confirmed on this page: each sends its conversion events once. */
  leads?: readonly ConfirmedLead[];
};

/**
 * Analytics pageview, the Ads tag, the Meta Pixel, the chat widget, the
 * conversion events of confirmed enquiries and the field Core Web Vitals.
 * Loaded only once the 'loaded' flag is true, or at once when an enquiry is
 * confirmed.
 */
export default function ThirdPartyTags({
  gaMeasurementId,
  googleAdsId,
  googleAdsConversionLabel,
  googleAdsEnhancedConversions,
  metaPixelId,
  chatWidgetSrc,
  leads = [],
}: Props) {
  const handled = useRef(new WeakSet<ConfirmedLead>());

  // Effects run in order: the Ads config is queued before any lead's events.
  useEffect(() => {
    if (!googleAdsId) return;
    gtag('js', new Date());
    gtag('config', googleAdsId);
  }, [googleAdsId]);

  // Its PageView, then any lead's Lead.
  useEffect(() => {
    if (metaPixelId) startMetaPixel(metaPixelId);
  }, [metaPixelId]);

  useEffect(() => {
    for (const lead of leads) {
      if (handled.current.has(lead)) continue;
      handled.current.add(lead);
      sendLeadEvents(
        {
          gaMeasurementId,
          googleAdsId,
          googleAdsConversionLabel,
          googleAdsEnhancedConversions,
          metaPixelId,
        },
        lead,
      );
    }
  }, [
    leads,
    gaMeasurementId,
    googleAdsId,
    googleAdsConversionLabel,
    googleAdsEnhancedConversions,
    metaPixelId,
  ]);

  useEffect(() => {
    // Measuring is best effort: a chunk that fails to load changes nothing for the visitor.
    if (gaMeasurementId) reportWebVitals(gaMeasurementId).catch(() => undefined);
  }, [gaMeasurementId]);

  return (
    <>
      {gaMeasurementId ? <GoogleAnalytics gaId={gaMeasurementId} /> : null}
      {googleAdsId ? (
        <Script
          id="google-ads-tag"
          src={`https://www.googletagmanager.com/gtag/js?id=${googleAdsId}`}
        />
      ) : null}
      {chatWidgetSrc ? <Script id="chat-widget" src={chatWidgetSrc} /> : null}
    </>
  );
}
