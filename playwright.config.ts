import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, chromiumPath } from './scripts/chromium.mjs';
import {
  E2E_BUILD_ENV,
  E2E_PORT,
  NO_TAGS_BUILD_ENV,
  NO_TAGS_PORT,
  NO_TAGS_URL,
  SERVER_LOG,
  STUB_PORT,
  STUB_URL,
} from './e2e/support/test-env';

/*
 * End-to-end tests run against the production build (next build + next start),
 * started here. With PLAYWRIGHT_BASE_URL set (a Vercel preview, say) no server
 * is started and the same flows run against that address.
 */
const externalBaseUrl = process.env.PLAYWRIGHT_BASE_URL;
const baseURL = externalBaseUrl ?? `http://127.0.0.1:${E2E_PORT}`;


export default defineConfig({
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
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
      },
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
          // The server's output goes to e2e/.server.log: a test reads it to check
          // that no visitor's personal data is ever logged.
          command: `npm run build && npm run start -- --port ${E2E_PORT} --hostname 127.0.0.1 > ${SERVER_LOG} 2>&1`,
          url: `${baseURL}/`,
          env: E2E_BUILD_ENV,
          timeout: 300_000,
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
      ],
});
