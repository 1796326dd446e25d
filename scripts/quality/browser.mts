// The headless Chromium the quality scripts drive through puppeteer (user
// flows, image bytes): the same binary and flags as every other browser test.
import puppeteer, { type Browser, type Viewport } from 'puppeteer-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../test-support/chromium';

/** A fresh headless Chromium whose pages open at `viewport`; the caller closes it. */
export function launchBrowser(viewport: Viewport): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    args: ['--headless=new', '--disable-dev-shm-usage', ...CHROMIUM_ARGS],
    defaultViewport: viewport,
  });
}
