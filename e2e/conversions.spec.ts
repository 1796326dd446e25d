import type { Page, Request } from '@playwright/test';
import { expect, test, waitForFormScript, recordThanks } from './support/fixtures';
import { standInGtag } from './support/gtag';
import { records, setScenario, uniqueMail, type StubStep } from './support/stub';
import { E2E_CONFIG, E2E_OFF_PORT, NO_TAGS_URL } from './support/test-env';

const FAKE_RECAPTCHA = `
  window.grecaptcha = {
    ready: function (callback) { callback(); },
    execute: function () { return Promise.resolve('e2e-token'); }
  };`;

const SEND_TO = `${E2E_CONFIG.googleAdsId}/${E2E_CONFIG.googleAdsConversionLabel}`;
const VITALS = ['CLS', 'FCP', 'INP', 'LCP', 'TTFB'];

function visitorWith(tag: string) {
  return { name: 'Ana Conversión', mail: uniqueMail(tag), phone: '5512345678', reason: 'Quiero anuncios para mi negocio.' };
}

const form = (page: Page) => page.locator('#contacto form');
const thanks = (page: Page) => page.getByRole('heading', { name: /gracias por contactarnos/i });

/** Opens the home page, with a reCAPTCHA that answers at once unless told not to intercept it. */
async function open(page: Page, { recaptcha = true } = {}) {
  if (recaptcha) {
    await page.route('https://www.google.com/recaptcha/api.js**', (route) =>
      route.fulfill({ contentType: 'application/javascript', body: FAKE_RECAPTCHA }),
    );
  }
  const openedAt = Date.now();
  await page.goto('/');
  await expect(form(page)).toBeVisible();
  await waitForFormScript(page);
  return openedAt;
}

async function send(page: Page, visitor: ReturnType<typeof visitorWith>) {
  for (const [name, value] of Object.entries(visitor)) await form(page).locator(`[name="${name}"]`).fill(value);
  await form(page).getByRole('button', { name: /enviar/i }).click();
}

/** Date.now() when the browser starts leaving for the thank-you page. */
function watchLeaving(page: Page) {
  const left: number[] = [];
  page.on('request', (request: Request) => {
    if (request.isNavigationRequest() && new URL(request.url()).pathname === E2E_CONFIG.thankYouUrl) left.push(Date.now());
  });
  return left;
}

test.describe('conversions', () => {
  test("a confirmed lead: one Ads conversion with the enquiry's key, one generate_lead, nothing personal", async ({ page }) => {
    const gtag = await standInGtag(page);
    const visitor = visitorWith('lead');
    await setScenario(visitor.mail, [{ success: true }]);
    await open(page);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible();

    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, { timeout: 5000 });
    // The thank-you page loads its own tags at once: they must count nothing more.
    await expect.poll(gtag.loaded, { timeout: 5000 }).toBe(true);
    await page.waitForTimeout(500);

    const { attempts } = await records(visitor.mail);
    const key = attempts[0]?.idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(gtag.named('conversion').map((hit) => hit.params)).toEqual([
      { send_to: SEND_TO, transaction_id: key, transport_type: 'beacon' },
    ]);
    expect(gtag.named('generate_lead').map((hit) => hit.params)).toEqual([
      { send_to: E2E_CONFIG.gaMeasurementId, transport_type: 'beacon' },
    ]);
    const everything = JSON.stringify(gtag.hits);
    for (const value of Object.values(visitor)) expect(everything).not.toContain(value);
  });

  test('an enquiry the engine holds while the API is down is a lead too, counted once', async ({ page }) => {
    const gtag = await standInGtag(page);
    const visitor = visitorWith('kept-lead');
    await setScenario(visitor.mail, [{ status: 503 }]);
    await open(page);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible({ timeout: 8000 });
    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, { timeout: 6000 });
    await page.waitForTimeout(500);
    const { attempts } = await records(visitor.mail);
    const key = attempts[0]?.idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(gtag.named('conversion').map((hit) => hit.params)).toEqual([{ send_to: SEND_TO, transaction_id: key, transport_type: 'beacon' }]);
    expect(gtag.named('generate_lead')).toHaveLength(1);
  });

  test('a visitor who submits 1 s after load: gtag.js loads at once and the conversion goes out before the page leaves', async ({
    page,
  }) => {
    // Each hit is answered 2.3 s after the thanks shows, so gtag calls back after
    // the 2 s redirect is due: the redirect must wait for it (but not past 3 s).
    // (Counted from the thanks, not from the hit: on a slow machine gtag.js and
    // its hits come later, and the 3 s cap would be what the test measured.)
    let thanksShown!: (at: number) => void;
    const thanksAtPromise = new Promise<number>((resolve) => (thanksShown = resolve));
    const gtag = await standInGtag(page, { answerAt: async () => (await thanksAtPromise) + 2300 });
    const left = watchLeaving(page);
    // When the page showed the thanks, by its own clock: expect().toBeVisible() polls up to a second apart,
    // and a Node-side time that late let the page's 3 s cap fall before the stand-in's answer (flaky once).
    const seen = await recordThanks(page);
    const visitor = visitorWith('quick');
    await setScenario(visitor.mail, [{ success: true }]);
    await open(page);
    await page.waitForFunction(() => performance.now() > 1000);
    // How long this machine took to load the page: the yardstick for "at once" below.
    const loadMs = await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? 0);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible();
    const thanksAt = await seen.seenAt();
    thanksShown(thanksAt);

    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, { timeout: 6000 });
    // At once after the lead, not at the 6 s flag: counted from the thanks, within 2.5 s
    // or twice the page's own load time on a slower machine (the lead's tags chunk is
    // fetched like the page's; the flag would come about 4 s after the thanks here).
    const firstScript = Math.min(...gtag.scriptRequests);
    expect(firstScript - thanksAt).toBeLessThan(Math.max(2500, 2 * loadMs));
    const conversion = gtag.named('conversion');
    expect(conversion.map((hit) => hit.params.transaction_id)).toEqual([(await records(visitor.mail)).attempts[0]?.idempotencyKey]);
    expect(gtag.named('generate_lead')).toHaveLength(1);
    // The page left only once the hit was answered, and still within about 3 s.
    const leftAt = left[0] ?? 0;
    expect(leftAt).toBeGreaterThanOrEqual(conversion[0]?.answeredAt ?? Infinity);
    expect(leftAt - thanksAt).toBeLessThan(3500);
  });

  test('a blocked gtag.js holds the redirect at most about 1 s', async ({ page }) => {
    await standInGtag(page, { callBack: false });
    const left = watchLeaving(page);
    const seen = await recordThanks(page);
    const visitor = visitorWith('blocked');
    await setScenario(visitor.mail, [{ success: true }]);
    await open(page);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible();
    const thanksAt = await seen.seenAt();
    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, { timeout: 6000 });
    // From the thanks to the browser asking for the next page (not its load, which a busy machine slows).
    const elapsed = (left[0] ?? 0) - thanksAt;
    // 3 s (the spec's 2 s and the 1 s hold); without the hold it would be 2 s.
    expect(elapsed).toBeGreaterThanOrEqual(2400);
    expect(elapsed).toBeLessThan(3600);
  });

  // A failed send exists only when the engine cannot hold it (else the enquiry is kept
  // and the visitor thanked): that case runs on the server whose engine cannot.
  const notLeads: Array<{ name: string; steps: StubStep[]; sees: RegExp; baseURL?: string }> = [
    { name: 'a refusal with a mes', steps: [{ success: false, mes: 'Ya tenemos una solicitud tuya de hoy.' }], sees: /ya tenemos una solicitud/i },
    { name: 'a failed send', steps: [{ status: 503 }], sees: /no pudimos enviar/i, baseURL: `http://127.0.0.1:${E2E_OFF_PORT}` },
  ];
  for (const { name, steps, sees, baseURL } of notLeads) {
    test.describe(name, () => {
      if (baseURL) test.use({ baseURL });
      test(`${name} sends no conversion and no generate_lead`, async ({ page }) => {
        const gtag = await standInGtag(page);
        const visitor = visitorWith('no-lead');
        await setScenario(visitor.mail, steps);
        const openedAt = await open(page);
        await send(page, visitor);
        await expect(form(page).getByRole('status')).toContainText(sees, { timeout: 15_000 });
        // Nothing to hurry for: the tags wait for the 6 s flag, then get the queue. (The answer itself may come
        // after the flag: a send waits until the form was 3 s on screen, and a failed one tries 4 times.)
        expect(gtag.scriptRequests.filter((at) => at - openedAt < 6000)).toEqual([]);
        await expect.poll(() => gtag.named('formulario').length, { timeout: 10_000 }).toBe(1);
        await page.waitForTimeout(500);
        expect(gtag.named('conversion')).toEqual([]);
        expect(gtag.named('generate_lead')).toEqual([]);
      });
    });
  }

  test('the default thank-you page loads its tags without the 6 second wait', async ({ page }) => {
    const gtag = await standInGtag(page);
    const openedAt = Date.now();
    await page.goto(E2E_CONFIG.thankYouUrl);
    await expect.poll(() => gtag.scriptRequests.length, { timeout: 4000 }).toBe(2);
    expect(Math.max(...gtag.scriptRequests) - openedAt).toBeLessThan(4000);
  });

  test('after the page is hidden, the Core Web Vitals arrive with numeric values; the library is not in the first visit', async ({
    page,
    baseURL,
  }) => {
    const gtag = await standInGtag(page);
    await page.goto('/');
    await page.waitForFunction(() => performance.now() > 5000);
    // Before the flag: no script the page has fetched measures vitals.
    const scripts = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((url) => url.endsWith('.js')),
    );
    for (const url of scripts.filter((script) => script.startsWith(baseURL ?? ''))) {
      const code = await (await page.request.get(url)).text();
      expect(code.includes('largest-contentful-paint'), `${url} has the web-vitals code`).toBe(false);
    }

    // The tags come with the 6 s 'loaded' flag; a busy machine's page (and the script checks above) can take seconds more.
    await expect.poll(gtag.loaded, { timeout: 15_000 }).toBe(true);
    await expect.poll(() => gtag.named('TTFB').length, { timeout: 5000 }).toBe(1);
    // An interaction, for INP. The browser hands it to performance observers
    // a moment later (a real visitor hides the page much later still).
    await page.getByRole('heading', { level: 1 }).click();
    await page.waitForTimeout(1000);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      document.dispatchEvent(new Event('visibilitychange'));
    });

    await expect.poll(() => [...new Set(gtag.hits.map((hit) => hit.name))].filter((name) => VITALS.includes(name)).sort()).toEqual(VITALS);
    for (const name of VITALS) {
      for (const { params } of gtag.named(name)) {
        expect(params, name).toEqual({
          value: expect.any(Number),
          metric_id: expect.any(String),
          metric_value: expect.any(Number),
          metric_delta: expect.any(Number),
          metric_rating: expect.stringMatching(/^(good|needs-improvement|poor)$/),
          non_interaction: true,
          send_to: E2E_CONFIG.gaMeasurementId,
        });
      }
    }
  });
});

test.describe('with every third-party ID empty', () => {
  test.use({ baseURL: NO_TAGS_URL });

  test('a confirmed lead requests nothing from Google or any third party, and the redirect is not held', async ({
    page,
    thirdParty,
  }) => {
    const left = watchLeaving(page);
    const visitor = visitorWith('no-tags');
    await setScenario(visitor.mail, [{ success: true }]);
    // Nothing intercepted here but by the fixture, which records every third-party request.
    await open(page, { recaptcha: false });
    await page.waitForFunction(() => performance.now() > 6500);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible();
    const thanksAt = Date.now();
    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, { timeout: 5000 });
    // 2 s less the lag in seeing the thanks; held, it would be 3 s less that lag.
    expect((left[0] ?? Infinity) - thanksAt).toBeLessThan(2500);
    expect((await records(visitor.mail)).stored).toHaveLength(1);
    await page.waitForTimeout(1000);
    expect(thirdParty.urls).toEqual([]);
  });
});
