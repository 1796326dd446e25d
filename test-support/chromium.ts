// The one place that says which Chromium the browser tests drive, and how.
// This machine and CI cannot download Playwright's browsers: Debian's
// chromium is used when it is there; PLAYWRIGHT_CHROMIUM_PATH picks another
// binary; with neither, Playwright's (or chrome-launcher's) own lookup runs.
import { existsSync } from 'node:fs';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
export const DEBIAN_HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/** The full browser: Lighthouse measures what a visitor's Chrome does. */
export function chromiumPath(): string | undefined {
  return (
    process.env.PLAYWRIGHT_CHROMIUM_PATH ||
    (existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : undefined)
  );
}

/**
 * For Playwright: the same Chromium's headless shell, which is what Playwright itself runs headless (its own
 * download is chromium-headless-shell). The browser tests are bound by two cores, Chromium taking most: with the
 * full browser the chromium project's tests took 1,037 s in all, with the shell 712 s (the same run otherwise).
 */
export function playwrightChromiumPath(): string | undefined {
  return (
    process.env.PLAYWRIGHT_CHROMIUM_PATH ||
    (existsSync(DEBIAN_HEADLESS_SHELL) ? DEBIAN_HEADLESS_SHELL : chromiumPath())
  );
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
