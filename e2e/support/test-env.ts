/**
 * The configuration the end-to-end build is made with. Every third-party
 * address is fake and intercepted in the browser: the test machine has no
 * internet, and the tests must see exactly what the page asks for.
 */
// TEST_PORT_OFFSET moves every port, so two checkouts can run their tests at once.
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const E2E_PORT = 3100 + OFFSET;
export const STUB_PORT = 3199 + OFFSET;
export const STUB_URL = `http://127.0.0.1:${STUB_PORT}`;
/** A second build with every third-party variable empty (see NO_TAGS_BUILD_ENV). */
export const NO_TAGS_PORT = 3101 + OFFSET;
export const NO_TAGS_URL = `http://127.0.0.1:${NO_TAGS_PORT}`;
/** Where the e2e server's stdout and stderr go (relative to the project). */
export const SERVER_LOG = 'e2e/.server.log';

export const E2E_CONFIG = {
  gaMeasurementId: 'G-E2ETEST1',
  googleAdsId: 'AW-123456789',
  googleAdsConversionLabel: 'e2eLead-Label_1',
  chatWidgetSrc: 'https://chat.e2e.test/widget.js',
  whatsappUrl: 'https://wa.me/5215500001111',
  privacyNoticeUrl: '/aviso-de-privacidad',
  thankYouUrl: '/gracias',
  recaptchaSiteKey: 'e2e-recaptcha-key',
  // Server-only: must never reach the browser (see contact-form.spec.ts).
  contactSiteKey: 'e2e-site-key-7f3a9c51d2',
};

export const E2E_BUILD_ENV: Record<string, string> = {
  NEXT_TELEMETRY_DISABLED: '1',
  NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${E2E_PORT}`,
  NEXT_PUBLIC_GA_MEASUREMENT_ID: E2E_CONFIG.gaMeasurementId,
  NEXT_PUBLIC_GOOGLE_ADS_ID: E2E_CONFIG.googleAdsId,
  NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: E2E_CONFIG.googleAdsConversionLabel,
  NEXT_PUBLIC_CHAT_WIDGET_SRC: E2E_CONFIG.chatWidgetSrc,
  NEXT_PUBLIC_WHATSAPP_URL: E2E_CONFIG.whatsappUrl,
  NEXT_PUBLIC_PRIVACY_NOTICE_URL: E2E_CONFIG.privacyNoticeUrl,
  NEXT_PUBLIC_THANK_YOU_URL: E2E_CONFIG.thankYouUrl,
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: E2E_CONFIG.recaptchaSiteKey,
  CONTACT_API_BASE_URL: `${STUB_URL}/api/`,
  CONTACT_SITE_KEY: E2E_CONFIG.contactSiteKey,
};

/** True when the suite runs against a deployment it did not build. */
export const AGAINST_DEPLOYMENT = Boolean(process.env.PLAYWRIGHT_BASE_URL);

/**
 * The same site with the third-party variables empty, as the quality budgets
 * build it: nothing may be requested from Google or anyone else. Built into
 * .next/no-tags so it can run beside the main test build.
 */
export const NO_TAGS_BUILD_ENV: Record<string, string> = {
  ...E2E_BUILD_ENV,
  NEXT_DIST_DIR: '.next/no-tags',
  NEXT_PUBLIC_SITE_URL: NO_TAGS_URL,
  NEXT_PUBLIC_GA_MEASUREMENT_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: '',
  NEXT_PUBLIC_CHAT_WIDGET_SRC: '',
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: '',
};
