import { existsSync } from 'node:fs';
import { devices, webkit, type Project } from '@playwright/test';
import { CHROMIUM_ARGS, playwrightChromiumPath } from '../../../test-support/chromium';

/**
 * The three device profiles the deployment suite runs on: a mid-range Android
 * phone, an iPhone and a desktop. The iPhone runs in Playwright's WebKit where
 * it is installed (`npx playwright install webkit`, as the workflow does);
 * elsewhere, such as a machine that cannot download Playwright's browsers, in
 * Chromium with the iPhone's viewport, pixel ratio, touch and user agent.
 */
export const IPHONE_ENGINE: 'webkit' | 'chromium' = existsSync(webkit.executablePath())
  ? 'webkit'
  : 'chromium';

const chromium = {
  browserName: 'chromium' as const,
  launchOptions: { executablePath: playwrightChromiumPath(), args: CHROMIUM_ARGS },
};

/** Phones get the phone specs, the desktop its own; every other spec runs on all three. */
export const DEVICE_PROJECTS: Project[] = [
  { name: 'pixel-7', testIgnore: ['desktop.spec.ts'], use: { ...devices['Pixel 7'], ...chromium } },
  {
    name: 'iphone-13',
    testIgnore: ['desktop.spec.ts'],
    use: {
      ...devices['iPhone 13'],
      ...(IPHONE_ENGINE === 'webkit' ? { browserName: 'webkit' } : chromium),
    },
  },
  {
    name: 'desktop',
    testIgnore: ['phone.spec.ts'],
    use: { ...devices['Desktop Chrome'], ...chromium },
  },
];

export function engineLine(): string {
  return IPHONE_ENGINE === 'webkit'
    ? 'iPhone 13: WebKit'
    : "iPhone 13: Chromium with the iPhone's viewport, pixel ratio, touch and user agent (WebKit is not installed: npx playwright install webkit)";
}
