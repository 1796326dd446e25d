import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.mjs';
import type { Options } from './e2e/support/fixtures';
import {
  DATA_DIR,
  E2E_BUILD_ENV,
  E2E_OFF_ENV,
  E2E_OFF_PORT,
  E2E_PORT,
  NO_TAGS_BUILD_ENV,
  NO_TAGS_PORT,
  NO_TAGS_URL,
  OFF_SERVER_LOG,
  PICTURES_DIR,
  PICTURES_PORT,
  PICTURES_URL,
  SERVER_LOG,
  SMTP_HTTP_PORT,
  SMTP_PORT,
  STUB_PORT,
  STUB_URL,
} from './e2e/support/test-env';

/*
 * End-to-end tests run against the production build (next build + next start),
 * started here. With PLAYWRIGHT_BASE_URL set (a Vercel preview, say) no server
 * is started and the same flows run against that address.
 *
 * Two servers of the same build: the main one with the outbox (files under
 * e2e/.data/main, alerts to the SMTP sink), and one with CONTACT_OUTBOX=off
 * for today's failure path. Server-only variables are read at start, so one
 * build serves both. A second build, with every third-party ID empty, serves
 * the conversion tests that must see nothing requested from Google.
 */
const externalBaseUrl = process.env.PLAYWRIGHT_BASE_URL;
const baseURL = externalBaseUrl ?? `http://127.0.0.1:${E2E_PORT}`;
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
};

export default defineConfig<Options>({
  testDir: './e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL,
    locale: 'es-MX',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Every spec but the outbox's and the pictures', two at a time.
    { name: 'chromium', testIgnore: ['outbox.spec.ts', 'pictures.spec.ts', 'content-check.spec.ts'], use: { ...chromium, outbox: 'auto' } },
    {
      // The outbox's flows count every attempt the stub sees, while any other
      // enquiry redelivers due entries after its answer (lib/contact/deliver.ts):
      // they run alone, once every other project has finished.
      name: 'outbox',
      testMatch: ['outbox.spec.ts'],
      dependencies: ['chromium', 'outbox-off'],
      use: { ...chromium, outbox: 'auto' },
    },
    {
      // The large pictures' build: its first visits make the optimiser encode AVIF with sharp on
      // every core, and the content check spawns `next build`; that would starve the timed flows
      // of the other projects (a 1.5 s sending mask, a conversion held 2.3 s), so these run last, alone.
      name: 'pictures',
      testMatch: ['pictures.spec.ts', 'content-check.spec.ts'],
      dependencies: ['chromium', 'outbox-off', 'outbox'],
      use: { ...chromium },
    },
    {
      // The flows whose outcome depends on the outbox, again without one.
      name: 'outbox-off',
      testMatch: ['faults.spec.ts', 'contact-form.spec.ts'],
      use: { ...chromium, outbox: 'off', baseURL: externalBaseUrl ?? `http://127.0.0.1:${E2E_OFF_PORT}` },
    },
  ],
  webServer: externalBaseUrl
    ? undefined
    : [
        {
          // The stub contact API the server action talks to (127.0.0.1 only).
          command: 'node e2e/stub-contact-api.mjs',
          url: `${STUB_URL}/__health`,
          env: { STUB_PORT: String(STUB_PORT) },
          reuseExistingServer: false,
          stdout: 'ignore',
        },
        {
          // The agency's mail server, receiving the alert e-mails.
          command: 'node e2e/smtp-sink.mjs',
          url: `http://127.0.0.1:${SMTP_HTTP_PORT}/__health`,
          env: { SMTP_PORT: String(SMTP_PORT), SMTP_HTTP_PORT: String(SMTP_HTTP_PORT) },
          reuseExistingServer: false,
          stdout: 'ignore',
        },
        {
          // The server's output goes to e2e/.server.log: a test reads it to check
          // that no visitor's personal data is ever logged.
          command: `rm -rf ${DATA_DIR} && npm run build && npm run start -- --port ${E2E_PORT} --hostname 127.0.0.1 > ${SERVER_LOG} 2>&1`,
          url: `${baseURL}/`,
          env: E2E_BUILD_ENV,
          timeout: 300_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        {
          // Started after the build above (web servers start in order).
          command: `npm run start -- --port ${E2E_OFF_PORT} --hostname 127.0.0.1 > ${OFF_SERVER_LOG} 2>&1`,
          url: `http://127.0.0.1:${E2E_OFF_PORT}/`,
          env: E2E_OFF_ENV,
          timeout: 60_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        {
          // The same site with every third-party ID empty (conversions.spec.ts):
          // built after the one above (web servers start in order), into .next/no-tags.
          command: `npm run build && npm run start -- --port ${NO_TAGS_PORT} --hostname 127.0.0.1`,
          url: `${NO_TAGS_URL}/`,
          env: NO_TAGS_BUILD_ENV,
          timeout: 300_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
        },
        {
          // The site with large PNG and JPEG pictures in place of the SVGs (pictures.spec.ts):
          // a copy of the project in PICTURES_DIR, its pictures generated, built and started there.
          command: `node e2e/support/pictures-app.mjs ${PICTURES_PORT} ${PICTURES_DIR}`,
          url: `${PICTURES_URL}/`,
          timeout: 300_000,
          reuseExistingServer: false,
          stdout: 'ignore',
          stderr: 'pipe',
        },
      ],
});
