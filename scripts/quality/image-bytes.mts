// The bytes of images a phone downloads for the whole page: 390 px wide at
// DPR 2, scrolled slowly to the bottom (so every lazy image loads) and back.
// Counted as transferred (encodedDataLength: headers and body as they came
// over the wire), so images served through Next's optimiser count at the
// size it chose for this screen. Images are the responses Chromium types as
// Image, plus every SVG (the /icons.svg sprite is fetched by <use>, typed Other).
import type { Viewport } from 'puppeteer-core';
import { launchBrowser } from './browser.mjs';

const PHONE: Viewport = {
  width: 390,
  height: 844,
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};
const STEP_PX = 300;
const STEP_MS = 150;

export type ImageBytes = { bytes: number; images: Array<{ url: string; bytes: number }> };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every image `url` makes a phone download, largest first, and their sum. */
export async function imageBytes(url: string): Promise<ImageBytes> {
  const browser = await launchBrowser(PHONE);
  try {
    const page = await browser.newPage();
    const cdp = await page.createCDPSession();
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const responses = new Map<string, string>();
    const images: ImageBytes['images'] = [];
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      const svg = /svg/i.test(response.mimeType) || /\.svg(\?|#|$)/i.test(response.url);
      if ((type === 'Image' || svg) && !response.url.startsWith('data:'))
        responses.set(requestId, response.url);
    });
    cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
      const responseUrl = responses.get(requestId);
      if (responseUrl) images.push({ url: responseUrl, bytes: encodedDataLength });
    });
    await page.goto(url, { waitUntil: 'networkidle0' });
    // Slowly, as a thumb does: lazy images start loading as each screen nears.
    for (let atBottom = false; !atBottom;) {
      atBottom = await page.evaluate((step) => {
        window.scrollBy(0, step);
        return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
      }, STEP_PX);
      await sleep(STEP_MS);
    }
    await page.waitForNetworkIdle({ idleTime: 500 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForNetworkIdle({ idleTime: 500 });
    images.sort((a, b) => b.bytes - a.bytes);
    return { bytes: images.reduce((sum, image) => sum + image.bytes, 0), images };
  } finally {
    await browser.close();
  }
}
