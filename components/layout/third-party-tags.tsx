'use client';

import { GoogleAnalytics } from '@next/third-parties/google';
import Script from 'next/script';
import { useEffect } from 'react';
import { gtag } from '@/lib/analytics';

export type ThirdPartyTagsProps = {
  gaMeasurementId?: string;
  googleAdsId?: string;
  chatWidgetSrc?: string;
};

/** Analytics pageview, the Ads tag and the chat widget. Loaded only once the 'loaded' flag is true. */
export default function ThirdPartyTags({ gaMeasurementId, googleAdsId, chatWidgetSrc }: ThirdPartyTagsProps) {
  useEffect(() => {
    if (!googleAdsId) return;
    gtag('js', new Date());
    gtag('config', googleAdsId);
  }, [googleAdsId]);

  return (
    <>
      {gaMeasurementId ? <GoogleAnalytics gaId={gaMeasurementId} /> : null}
      {googleAdsId ? (
        <Script id="google-ads-tag" src={`https://www.googletagmanager.com/gtag/js?id=${googleAdsId}`} />
      ) : null}
      {chatWidgetSrc ? <Script id="chat-widget" src={chatWidgetSrc} /> : null}
    </>
  );
}
