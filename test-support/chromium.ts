// The one place that says which Chromium the browser tests drive, and how.
// This machine and CI cannot download Playwright's browsers: Debian's
// chromium is used when it is there; PLAYWRIGHT_CHROMIUM_PATH picks another
// binary; with neither, Playwright's (or chrome-launcher's) own lookup runs.
import { existsSync } from 'node:fs';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

export function chromiumPath(): string | undefined {
  return process.env.PLAYWRIGHT_CHROMIUM_PATH || (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined);
}

// Root in a container, no GPU, and no background calls to hosts this network cannot reach.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
