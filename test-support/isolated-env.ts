// The environment of every server the tests start (Playwright's, the load
// test's, the quality run's, and every `next build` they run).
//
// `next build` and `next start` read .env.local and the other .env* files
// (what `vercel env pull` writes: production's REDIS_URL, CRON_SECRET, SMTP),
// but never override a variable that is already in process.env, even an empty
// one (@next/env's processEnv). So every variable the site reads is set here,
// empty where the test wants the feature off, and nothing a test server does
// can reach a real store, contact API or mail server. A launcher spreads
// isolatedEnv({...its own values}); test-support/isolated-env.test.ts fails
// when lib/env/ reads a variable this list does not name.

/** Every variable lib/env/ reads, plus Vercel's own, with the test default. */
const ISOLATED: Record<string, string> = {
  NEXT_TELEMETRY_DISABLED: '1',
  // `vercel env pull` writes VERCEL=1 too: the server would believe it runs on Vercel.
  VERCEL: '',
  VERCEL_ENV: '',
  // VERCEL_URL is left unset, not empty: the Workflow SDK takes any VERCEL_URL, even an empty one, for its own address on Vercel.
  VERCEL_PROJECT_PRODUCTION_URL: '',
  NEXT_PUBLIC_SITE_URL: '',
  NEXT_PUBLIC_WHATSAPP_URL: '',
  NEXT_PUBLIC_PRIVACY_NOTICE_URL: '',
  NEXT_PUBLIC_THANK_YOU_URL: '',
  NEXT_PUBLIC_GA_MEASUREMENT_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: '',
  NEXT_PUBLIC_CHAT_WIDGET_SRC: '',
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: '',
  NEXT_PUBLIC_META_PIXEL_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: '',
  CONTACT_API_BASE_URL: '',
  CONTACT_SITE_KEY: '',
  // Never the developer's own .inbox: launchers give each server its own folder.
  CONTACT_INBOX_DIR: 'e2e/.data/isolated',
  CONTACT_OUTBOX_BACKOFF_SECONDS: '',
  CONTACT_KEEP_DAYS: '',
  REDIS_URL: '',
  STAFF_EMAILS: '',
  STAFF_SESSION_SECRET: '',
  ALERT_SMTP_URL: '',
  ALERT_EMAIL_TO: '',
  ALERT_EMAIL_FROM: '',
  CONTACT_RATE_LIMIT_MAX: '',
  CONTACT_RATE_LIMIT_WINDOW_SECONDS: '',
  TRUST_PROXY_HEADERS: '',
  CONTACT_FORM_SECRET: '',
  NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: '',
  // A developer's real webhook and Meta's real Conversions API never get a test's leads.
  LEAD_WEBHOOK_URL: '',
  LEAD_WEBHOOK_SECRET: '',
  META_CAPI_ACCESS_TOKEN: '',
  META_GRAPH_API_URL: '',
  META_TEST_EVENT_CODE: '',
  // The Workflow SDK's own: the local world, in the launcher's CONTACT_INBOX_DIR, unless a test sets a Postgres world.
  WORKFLOW_TARGET_WORLD: '',
  WORKFLOW_LOCAL_DATA_DIR: '',
  WORKFLOW_LOCAL_BASE_URL: '',
  WORKFLOW_POSTGRES_URL: '',
  // Set by lib/engine/choose-world.ts from the two above in the server's own process (the sealed world, the site's own address).
  ENGINE_WORLD: '',
  ENGINE_SITE_URL: '',
  // Where the world's queue reaches this server's /.well-known/workflow/ routes: startNext() sets it to the server's port.
  PORT: '',
};

export const ISOLATED_KEYS = Object.keys(ISOLATED);
/**
 * Read by the site but left unset, never empty: the Workflow SDK's builder takes an empty VERCEL_DEPLOYMENT_ID for a
 * Vercel build (@workflow/next's builder-eager checks `=== undefined`). Only Vercel sets it; no .env file should.
 */
export const LEFT_UNSET = ['VERCEL_DEPLOYMENT_ID'];

/** The complete isolated set, with the launcher's own values on top. */
export function isolatedEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const unknown = Object.keys(overrides).filter(
    (key) => !(key in ISOLATED) && !key.startsWith('NEXT_PUBLIC_'),
  );
  if (unknown.length)
    throw new Error(
      `isolatedEnv: ${unknown.join(', ')} is not a variable the site reads (add it to ISOLATED)`,
    );
  return { ...ISOLATED, ...overrides };
}

// What a server process needs from the shell; nothing else (a developer's
// cloud tokens, say) is handed to the servers that launchers spawn themselves.
const SYSTEM_KEYS = [
  'PATH',
  'HOME',
  'USER',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
  'TERM',
  'CI',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'TEST_PORT_OFFSET',
];

/** A child's whole environment: the shell's system variables, then isolatedEnv(overrides). */
export function isolatedProcessEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const system: Record<string, string> = {};
  for (const key of SYSTEM_KEYS) {
    const value = process.env[key];
    if (value !== undefined) system[key] = value;
  }
  // NODE_ENV stays unset: next sets it for each command.
  return { ...system, ...isolatedEnv(overrides) } as NodeJS.ProcessEnv;
}
