import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isolatedEnv } from '../../test-support/isolated-env';
import type { AppSpec } from '../../test-support/harness';
import { PRODUCTION_ENV_LOCAL } from '../../test-support/production-env';

/**
 * The configuration the end-to-end build is made with. Every third-party
 * address is fake and intercepted in the browser: the test machine has no
 * internet, and the tests must see exactly what the page asks for. Built on
 * isolatedEnv(): nothing comes from a developer's .env.local.
 */
// TEST_PORT_OFFSET moves every port, so two checkouts can run their tests at once.
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const E2E_PORT = 3100 + OFFSET;
export const STUB_PORT = 3199 + OFFSET;
export const STUB_URL = `http://127.0.0.1:${STUB_PORT}`;
/** The same build, with an engine that cannot hold anything (Playwright project `outbox-off`). */
export const E2E_OFF_PORT = 3101 + OFFSET;
/** The crash test starts and kills its own server here. */
export const CRASH_PORT = 3102 + OFFSET;
/** A second build with every third-party variable empty (see NO_TAGS_BUILD_ENV). */
export const NO_TAGS_PORT = 3103 + OFFSET;
export const NO_TAGS_URL = `http://127.0.0.1:${NO_TAGS_PORT}`;
/** The same build with the privacy notice's periods cut to seconds (CONTACT_KEEP_DAYS), started by retention.spec.ts. */
export const RETENTION_PORT = 3106 + OFFSET;
/** The same build behind one proxy of ours (TRUST_PROXY_HEADERS=1), started by spam.spec.ts. */
export const PROXY_PORT = 3105 + OFFSET;
/** The same build sending each lead on to a webhook and Meta's Conversions API (stand-ins of its own), started by forward.spec.ts. */
export const FORWARD_PORT = 3107 + OFFSET;
/** The same build with no contact API, so enquiries go to the local inbox, started by inbox-retention.spec.ts. */
export const INBOX_PORT = 3108 + OFFSET;
/** The site with the agency's own large PNG and JPEG pictures (e2e/support/pictures-app.ts). */
export const PICTURES_PORT = 3104 + OFFSET;
export const PICTURES_URL = `http://127.0.0.1:${PICTURES_PORT}`;
export const PICTURES_DIR = '.cache/test-apps/pictures';
/** The agency's mail server (test-support/smtp-sink.ts), and where the tests read what it received. */
export const SMTP_PORT = 3196 + OFFSET;
export const SMTP_HTTP_PORT = 3195 + OFFSET;
export const SMTP_URL = `http://127.0.0.1:${SMTP_HTTP_PORT}`;
/** Where the e2e server's stdout and stderr go (relative to the project). */
export const SERVER_LOG = 'e2e/.server.log';
export const OFF_SERVER_LOG = 'e2e/.server-off.log';
/** The servers' CONTACT_INBOX_DIR (the local world's files are in workflow/ inside it); emptied before each run. */
export const DATA_DIR = 'e2e/.data';

export const E2E_CONFIG = {
  gaMeasurementId: 'G-E2ETEST1',
  googleAdsId: 'AW-123456789',
  googleAdsConversionLabel: 'e2eLead-Label_1',
  googleAdsEnhancedConversions: '1',
  metaPixelId: '123456789012345',
  chatWidgetSrc: 'https://chat.e2e.test/widget.js',
  whatsappUrl: 'https://wa.me/5215500001111',
  privacyNoticeUrl: '/aviso-de-privacidad',
  thankYouUrl: '/gracias',
  recaptchaSiteKey: 'e2e-recaptcha-key',
  // Server-only: must never reach the browser (see contact-form.spec.ts).
  contactSiteKey: 'e2e-site-key-7f3a9c51d2',
  alertTo: 'ventas@agencia.e2e.test',
};

export const E2E_BUILD_ENV: Record<string, string> = isolatedEnv({
  NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${E2E_PORT}`,
  NEXT_PUBLIC_GA_MEASUREMENT_ID: E2E_CONFIG.gaMeasurementId,
  NEXT_PUBLIC_GOOGLE_ADS_ID: E2E_CONFIG.googleAdsId,
  NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: E2E_CONFIG.googleAdsConversionLabel,
  NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: E2E_CONFIG.googleAdsEnhancedConversions,
  NEXT_PUBLIC_META_PIXEL_ID: E2E_CONFIG.metaPixelId,
  NEXT_PUBLIC_CHAT_WIDGET_SRC: E2E_CONFIG.chatWidgetSrc,
  NEXT_PUBLIC_WHATSAPP_URL: E2E_CONFIG.whatsappUrl,
  NEXT_PUBLIC_PRIVACY_NOTICE_URL: E2E_CONFIG.privacyNoticeUrl,
  NEXT_PUBLIC_THANK_YOU_URL: E2E_CONFIG.thankYouUrl,
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: E2E_CONFIG.recaptchaSiteKey,
  CONTACT_API_BASE_URL: `${STUB_URL}/api/`,
  CONTACT_SITE_KEY: E2E_CONFIG.contactSiteKey,
  // Server-only values are read when the server starts: the same build serves every configuration below.
  CONTACT_INBOX_DIR: `${DATA_DIR}/main`,
  // Rounds 3 s apart: a lead is delivered within seconds of the API coming back, and no test's attempt count moves while it reads it.
  CONTACT_OUTBOX_BACKOFF_SECONDS: '3',
  ALERT_SMTP_URL: `smtp://avisos:secreto-e2e@127.0.0.1:${SMTP_PORT}`,
  ALERT_EMAIL_TO: E2E_CONFIG.alertTo,
  ALERT_EMAIL_FROM: 'Formulario e2e <avisos@agencia.e2e.test>',
});

/**
 * An engine that cannot hold anything (its folder cannot be made: /dev/null is no folder), as with a
 * full or broken disk: what the API does not take live gets the retry message, with every value kept.
 */
export const E2E_OFF_ENV: Record<string, string> = {
  ...E2E_BUILD_ENV,
  CONTACT_INBOX_DIR: `${DATA_DIR}/off`,
  WORKFLOW_LOCAL_DATA_DIR: '/dev/null/workflow',
};

/**
 * The same site with the third-party variables empty, as the quality budgets
 * build it: nothing may be requested from Google or anyone else.
 */
export const NO_TAGS_BUILD_ENV: Record<string, string> = {
  ...E2E_BUILD_ENV,
  NEXT_PUBLIC_SITE_URL: NO_TAGS_URL,
  NEXT_PUBLIC_GA_MEASUREMENT_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: '',
  NEXT_PUBLIC_CHAT_WIDGET_SRC: '',
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: '',
  NEXT_PUBLIC_META_PIXEL_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: '',
};

const publicPart = (env: Record<string, string>) =>
  Object.fromEntries(Object.entries(env).filter(([key]) => key.startsWith('NEXT_PUBLIC_')));

/** The builds (test-support/harness.ts): the end-to-end one, in the project's .next, and the one without tags. */
export const MAIN_APP: AppSpec = { name: 'main', publicEnv: publicPart(E2E_BUILD_ENV) };
/** Built with a production-like .env.local in its copy, which the isolated environment must keep out (npm run test:isolation). */
export const NO_TAGS_APP: AppSpec = {
  name: 'no-tags',
  publicEnv: publicPart(NO_TAGS_BUILD_ENV),
  prepare: {
    id: PRODUCTION_ENV_LOCAL,
    run: (copy) => writeFileSync(path.join(copy, '.env.local'), PRODUCTION_ENV_LOCAL),
  },
};
/**
 * e2e/engine-seal.spec.ts: a server on the local world, two sharing one PostgreSQL, one handed VERCEL=1, one
 * VERCEL_DEPLOYMENT_ID, and one that must refuse to start.
 */
export const SEAL_PORTS = [
  3109 + OFFSET,
  3110 + OFFSET,
  3111 + OFFSET,
  3115 + OFFSET,
  3116 + OFFSET,
  3117 + OFFSET,
] as const;
/** e2e/staff.spec.ts: the staff area on the local world, then on two servers sharing one PostgreSQL. */
export const STAFF_PORTS = [3112 + OFFSET, 3113 + OFFSET, 3114 + OFFSET] as const;
/** e2e/staff-totals.spec.ts: a server of its own, so its totals count only the leads it sends. */
export const TOTALS_PORT = 3119 + OFFSET;
/** e2e/bad-input.spec.ts: the staff area configured, tried with generated bad input. */
export const BAD_INPUT_PORT = 3118 + OFFSET;
