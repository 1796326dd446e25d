import { test as base, expect, type Page } from '@playwright/test';
import { dataLayerReader } from './gtag';

/**
 * Every request that leaves the site under test is intercepted: answered with
 * an empty script, or for gtag.js one that only calls event callbacks (so the
 * page behaves as if the third party loaded), and
 * recorded, so tests can tell which third parties were asked for and when.
 */
export type ThirdPartyLog = {
  urls: string[];
  /** Date.now() of each request, in the order of `urls`. */
  times: number[];
  hosts: () => string[];
};

/**
 * What the empty stand-in for gtag.js must still do: call each event's
 * event_callback, as gtag.js does once it has sent the event, or the page
 * would hold its thank-you redirect the full extra second waiting for it.
 * (e2e/support/gtag.ts has a stand-in that also records the events.)
 */
const GTAG_CALLS_BACK = dataLayerReader(
  '__gtagCallsBack',
  `function handle(entry) {
    var params = entry && entry[0] === 'event' ? entry[2] : undefined;
    if (params && typeof params.event_callback === 'function') setTimeout(params.event_callback);
  }`,
);

type Fixtures = { thirdParty: ThirdPartyLog; cspGuard: void; clientIp: string };
/** Set per Playwright project: whether the server under test can hold what the API does not take live (off: its engine cannot). */
export type Options = { outbox: 'auto' | 'off' };

let ipCounter = 0;

export const test = base.extend<Fixtures & Options>({
  outbox: ['auto', { option: true }],
  thirdParty: [
    async ({ page, baseURL }, use) => {
      const origin = new URL(baseURL ?? 'http://127.0.0.1').origin;
      const urls: string[] = [];
      const times: number[] = [];
      await page.context().route(
        (url) => url.origin !== origin,
        async (route) => {
          urls.push(route.request().url());
          times.push(Date.now());
          const gtag = route.request().url().startsWith('https://www.googletagmanager.com/gtag/js');
          await route.fulfill({
            status: 200,
            contentType: 'application/javascript',
            body: gtag ? GTAG_CALLS_BACK : '/* intercepted */',
          });
        },
      );
      await use({ urls, times, hosts: () => [...new Set(urls.map((url) => new URL(url).host))] });
    },
    { auto: true },
  ],
  // Each test is its own visitor for the abuse limit (5 enquiries per IP):
  // the server, not on Vercel, takes the last X-Forwarded-For entry.
  clientIp: [
    async ({ page }, use, testInfo) => {
      ipCounter += 1;
      const ip = `198.18.${testInfo.workerIndex % 250}.${ipCounter % 250}`;
      await page.setExtraHTTPHeaders({ 'x-forwarded-for': ip });
      await use(ip);
    },
    { auto: true },
  ],
  // The suite runs with the production CSP on: any violation fails the test.
  cspGuard: [
    async ({ page }, use) => {
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content[ -]Security[ -]Policy/i.test(message.text())) violations.push(message.text());
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`,
          );
        });
      });
      await use();
      expect(violations, 'CSP violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/**
 * Lets the page reach every server of ours on 127.0.0.1, whatever its port: a test on servers of its own (other ports
 * than its baseURL) would otherwise have them answered as third parties by the fixture above.
 */
export async function reachOurServers(page: Page): Promise<void> {
  await page.context().route(
    (url) => url.hostname === '127.0.0.1',
    (route) => route.continue(),
  );
}

/**
 * A person reads before writing: by then the form's script runs (its button is
 * disabled while the form is empty). A test that fills and sends the moment the
 * page appears plays a script, and the form, unsigned, would ask it to confirm.
 */
export async function waitForFormScript(page: Page): Promise<void> {
  await expect(
    page.locator('#contacto form').getByRole('button', { name: /enviar/i }),
  ).toBeDisabled({
    timeout: 20_000,
  });
}

/**
 * When the thanks entered the page, as the page saw it (Date.now() in the page,
 * the same clock as the test's): a busy machine's test steps can see it a
 * second or more later. Call before the page opens; `seenAt()` waits for it.
 */
export async function recordThanks(page: Page): Promise<{ seenAt: () => Promise<number> }> {
  // Told to the test the moment it is seen: a page that has left for the thank-you page by the time the test asks
  // (a busy machine) can no longer be read.
  let thanksAt = 0;
  await page.exposeBinding('__thanksSeen', (_source, at: number) => {
    thanksAt ||= at;
  });
  await page.addInitScript(() => {
    const page = window as { thanksAt?: number; __thanksSeen?: (at: number) => void };
    new MutationObserver(() => {
      if (
        !page.thanksAt &&
        /gracias por contactarnos/i.test(document.querySelector('#contacto h3')?.textContent ?? '')
      ) {
        page.thanksAt = Date.now();
        page.__thanksSeen?.(page.thanksAt);
      }
    }).observe(document, { subtree: true, childList: true });
  });
  return {
    seenAt: async () => {
      await expect.poll(() => thanksAt).toBeGreaterThan(0);
      return thanksAt;
    },
  };
}

/** Index of the dot marked current in a carousel. */
export async function currentSlide(page: Page, carouselName: string): Promise<number> {
  const dots = page
    .getByRole('region', { name: carouselName })
    .getByRole('button', { name: /^Ir al logotipo/ });
  const states = await dots.evaluateAll((buttons) =>
    buttons.map((b) => b.getAttribute('aria-current')),
  );
  return states.indexOf('true');
}

/**
 * Keeps the page on the thank-you view: the redirect to /gracias is answered
 * 204 No Content, so the browser stays where it is with no navigation pending.
 * (A held request leaves the page half-navigated and stalls evaluate; an
 * aborted one swaps the view for Chromium's error page.)
 */
export async function stayOnThankYouView(page: Page): Promise<void> {
  await page.route('**/gracias', (route) => route.fulfill({ status: 204 }));
}

/**
 * How long the visitor waits for the contact action: from its request
 * leaving the browser to its answer arriving (the server sends it once the
 * action has finished, and the form shows it at once). Taken from the
 * browser's own request events: timing the expect() that waits for the
 * answer on screen would add up to a second of its polling.
 */
export function timeContactAction(page: Page): Promise<number> {
  return page
    .waitForEvent('request', {
      predicate: (request) =>
        request.method() === 'POST' && Boolean(request.headers()['next-action']),
    })
    .then(async (request) => {
      const sentAt = Date.now();
      await request.response();
      return Date.now() - sentAt;
    });
}
