/**
 * Response headers for every route (used by next.config.ts). The page is
 * static, so the CSP cannot carry per-request nonces: inline scripts (Next's
 * bootstrap, the GA snippet) need 'unsafe-inline'. Everything else is narrow,
 * and third-party hosts are allowed only when their variable is set.
 */

export type CspInput = {
  gaMeasurementId?: string;
  googleAdsId?: string;
  metaPixelId?: string;
  recaptchaSiteKey?: string;
  chatWidgetSrc?: string;
  /** next dev needs eval and a websocket for fast refresh. */
  development?: boolean;
};

export function contentSecurityPolicy(input: CspInput): string {
  const google = Boolean(input.gaMeasurementId || input.googleAdsId);
  // Ads conversions and remarketing: gtag also loads scripts from, and sends
  // pixels and beacons to, googleadservices.com, doubleclick, googlesyndication,
  // google.com and the visitor's own Google domain (google.com.mx here).
  const adsScripts =
    input.googleAdsId &&
    'https://www.googleadservices.com https://googleads.g.doubleclick.net https://www.google.com';
  // The Meta Pixel: its script, and the pixels and beacons it sends to facebook.com.
  const meta = input.metaPixelId && 'https://connect.facebook.net';
  const metaHits = input.metaPixelId && 'https://www.facebook.com';
  const chat = input.chatWidgetSrc ? new URL(input.chatWidgetSrc).origin : undefined;
  const list = (...sources: Array<string | false | undefined>) => sources.filter(Boolean).join(' ');

  const directives: Record<string, string> = {
    'default-src': "'self'",
    'script-src': list(
      "'self'",
      "'unsafe-inline'",
      input.development && "'unsafe-eval'",
      google && 'https://www.googletagmanager.com',
      adsScripts,
      input.recaptchaSiteKey &&
        'https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/',
      meta,
      chat,
    ),
    'style-src': list("'self'", "'unsafe-inline'", chat),
    'img-src': list(
      "'self'",
      'data:',
      'blob:',
      google &&
        'https://www.googletagmanager.com https://*.google-analytics.com https://*.g.doubleclick.net ' +
          'https://www.google.com https://www.google.com.mx',
      input.googleAdsId && 'https://www.googleadservices.com https://pagead2.googlesyndication.com',
      metaHits,
      chat,
    ),
    'font-src': list("'self'", chat),
    'connect-src': list(
      "'self'",
      input.development && 'ws: wss:',
      google &&
        'https://www.googletagmanager.com https://*.google-analytics.com https://*.analytics.google.com ' +
          'https://*.g.doubleclick.net https://www.google.com',
      input.googleAdsId &&
        'https://www.googleadservices.com https://pagead2.googlesyndication.com https://www.google.com.mx',
      input.recaptchaSiteKey && 'https://www.google.com/recaptcha/',
      meta,
      metaHits,
      chat,
      chat && chat.replace(/^https:/, 'wss:'),
    ),
    'frame-src':
      list(
        input.recaptchaSiteKey &&
          'https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/',
        input.googleAdsId &&
          'https://td.doubleclick.net https://bid.g.doubleclick.net https://www.googletagmanager.com',
        chat,
      ) || "'none'",
    'worker-src': "'self' blob:",
    'manifest-src': "'self'",
    'media-src': "'self'",
    'object-src': "'none'",
    'base-uri': "'self'",
    'form-action': "'self'",
    'frame-ancestors': "'none'",
  };
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join('; ');
}

/** Features the page never uses, switched off. */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'usb=()',
  'browsing-topics=()',
].join(', ');

export function securityHeaders(input: CspInput): Array<{ key: string; value: string }> {
  return [
    { key: 'Content-Security-Policy', value: contentSecurityPolicy(input) },
    { key: 'Strict-Transport-Security', value: 'max-age=63072000; includeSubDomains; preload' },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    { key: 'Permissions-Policy', value: PERMISSIONS_POLICY },
    { key: 'X-Frame-Options', value: 'DENY' },
  ];
}
