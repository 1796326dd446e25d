import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, playwrightChromiumPath } from './test-support/chromium';
import type { Options } from './e2e/support/fixtures';
import { E2E_OFF_PORT, E2E_PORT } from './e2e/support/test-env';
import deploymentConfig from './playwright.deployment.config';

/*
 * End-to-end tests run against production builds (next build + next start)
 * that e2e/support/global-setup.ts builds and starts, with the local build's
 * own settings (the stub contact API, the test SMTP server, the server's log).
 * With PLAYWRIGHT_BASE_URL set (a Vercel preview, say) this is the deployment
 * suite instead (playwright.deployment.config.ts, e2e/deployment/).
 */
const baseURL = `http://127.0.0.1:${E2E_PORT}`;
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: playwrightChromiumPath(), args: CHROMIUM_ARGS },
};

const WAITING_SPECS = [
  'forward.spec.ts',
  'engine-seal.spec.ts',
  'retention.spec.ts',
  'inbox-retention.spec.ts',
  'carousel-offscreen.spec.ts',
  'crash.spec.ts',
  'delivery.spec.ts',
  'staff-totals.spec.ts',
];

const localConfig = defineConfig<Options>({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  // Four flows at a time on 2 cores (project chromium), beside two that mostly sleep (projects waits, then
  // outbox-off): more busy flows at once than four starve their timed steps (a 1.5 s sending mask, a
  // conversion held 2.3 s).
  workers: 6,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The HTML report always (npx playwright show-report), failures as annotations on GitHub, and last of all why each
  // failed attempt failed (e2e/support/failure-summary.ts), for a log read from its tail.
  reporter: [
    ...(process.env.GITHUB_ACTIONS ? [['github'] as const] : []),
    ['list'],
    ['html', { open: 'never' }],
    ['./e2e/support/failure-summary.ts'],
  ],
  use: {
    baseURL,
    locale: 'es-MX',
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: [
    // The specs that spend most of their time asleep (a period to pass, an outage, a tab hidden for 12 s), two at a time.
    { name: 'waits', testMatch: WAITING_SPECS, workers: 2, use: { ...chromium, outbox: 'auto' } },
    // Every other spec but the pictures', four at a time; the deployment suite
    // (e2e/deployment/) runs on its own three devices: npm run test:deployment, test:stand-in.
    {
      name: 'chromium',
      testIgnore: [...WAITING_SPECS, 'pictures.spec.ts', 'content-check.spec.ts', 'deployment/**'],
      workers: 4,
      use: { ...chromium, outbox: 'auto' },
    },
    {
      // The large pictures' build: its first visits make the optimiser encode AVIF with sharp on
      // every core, and the content check spawns `next build`; that would starve the timed flows
      // of the other projects (a 1.5 s sending mask, a conversion held 2.3 s), so these run last, alone.
      name: 'pictures',
      testMatch: ['pictures.spec.ts', 'content-check.spec.ts'],
      dependencies: ['chromium', 'waits', 'outbox-off'],
      use: { ...chromium },
    },
    {
      // The flows whose outcome depends on the engine holding a lead (tagged @engine), again with an engine that cannot.
      // Two at a time, in the slots project waits leaves (it is listed first, chromium takes up to four before
      // these): their flows mostly wait for the API's retries.
      name: 'outbox-off',
      testMatch: ['faults.spec.ts', 'contact-form.spec.ts'],
      grep: /@engine/,
      workers: 2,
      use: { ...chromium, outbox: 'off', baseURL: `http://127.0.0.1:${E2E_OFF_PORT}` },
    },
  ],
  // Builds once and starts every server the local run needs.
  globalSetup: './e2e/support/global-setup.ts',
});

export default process.env.PLAYWRIGHT_BASE_URL ? deploymentConfig : localConfig;
