import { defineConfig } from '@playwright/test';
import { DEVICE_PROJECTS, IPHONE_ENGINE } from './e2e/deployment/support/devices';

/**
 * The QA suite for any deployment (`npm run test:deployment`, docs/testing.md):
 * PLAYWRIGHT_BASE_URL is the deployment, VERCEL_AUTOMATION_BYPASS_SECRET its
 * protection bypass if it has one. Three devices (`--project pixel-7`,
 * `iphone-13` or `desktop` picks one); no server is started; the enquiries it
 * sends are QA enquiries, which the deployment never delivers.
 */
export default defineConfig({
  testDir: './e2e/deployment',
  outputDir: './test-results/deployment',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  // A deployment is across a network: one retry, traced.
  retries: 1,
  workers: 2,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ...(process.env.GITHUB_ACTIONS ? [['github'] as const] : []),
    ['list'],
    // Before the HTML report copies the traces: every trace and attachment loses the secret.
    ['./e2e/deployment/support/redact-reporter.ts'],
    ['html', { open: 'never' }],
  ],
  metadata: { 'iPhone 13 engine': IPHONE_ENGINE },
  use: {
    baseURL: process.env.PLAYWRIGHT_BASE_URL,
    locale: 'es-MX',
    timezoneId: 'America/Mexico_City',
    trace: 'on-first-retry',
    screenshot: 'only-on-failure',
  },
  projects: DEVICE_PROJECTS,
  globalSetup: './e2e/deployment/support/preflight.ts',
});
