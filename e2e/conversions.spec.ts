import type { Page, Request } from '@playwright/test';
import {
  expect,
  stayOnThankYouView,
  test,
  waitForFormScript,
  recordThanks,
} from './support/fixtures';
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
  return {
    name: 'Ana Conversión',
    mail: uniqueMail(tag),
    phone: '5512345678',
    reason: 'Quiero anuncios para mi negocio.',
  };
}

const META_PIXEL_SRC = 'https://connect.facebook.net/en_US/fbevents.js';
const META_HITS_URL = 'https://www.facebook.com/tr/';

/** One command the Meta Pixel was given, as the stand-in sent it on. */
type MetaHit = { seq: number; args: unknown[] };

/**
 * A stand-in for Meta's fbevents.js that does what the real one does with
 * the page's fbq stub: takes its queue, then every later call, and sends each
 * (numbered, so their order survives parallel requests) to Meta's address,
 * which the test answers. Hits arrive even when the page has left since.
 */
async function standInMetaPixel(page: Page) {
  const hits: MetaHit[] = [];
  const body = `(function () {
  var fbq = window.fbq;
  if (!fbq || fbq.standIn) return;
  fbq.standIn = true;
  var seq = 0;
  function send(args) {
    fetch(${JSON.stringify(META_HITS_URL)}, {
      method: 'POST', mode: 'no-cors', keepalive: true,
      body: JSON.stringify({ seq: seq++, args: Array.prototype.slice.call(args) })
    }).catch(function () {});
  }
  fbq.callMethod = function () { send(arguments); };
  fbq.queue.splice(0).forEach(send);
})();`;
  await page.route(META_PIXEL_SRC, (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body }),
  );
  await page.route(`${META_HITS_URL}**`, async (route) => {
    hits.push(JSON.parse(route.request().postData() ?? '{}') as MetaHit);
    await route.fulfill({ status: 204 }).catch(() => undefined);
  });
  /** The commands in the order the page gave them (one page: the numbering restarts on the next). */
  const calls = () =>
    hits
      .slice()
      .sort((a, b) => a.seq - b.seq)
      .map((hit) => hit.args);
  return {
    calls,
    tracked: (event: string) =>
      calls().filter(([command, name]) => command === 'track' && name === event),
  };
}

/** The gtag commands the page queued, in order, without their callbacks. */
const gtagCommands = (page: Page) =>
  page.evaluate(() =>
    (window.dataLayer ?? []).map(
      (entry) => JSON.parse(JSON.stringify(Array.from(entry as ArrayLike<unknown>))) as unknown[],
    ),
  );

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
  for (const [name, value] of Object.entries(visitor))
    await form(page).locator(`[name="${name}"]`).fill(value);
  await form(page)
    .getByRole('button', { name: /enviar/i })
    .click();
}

/** Date.now() when the browser starts leaving for the thank-you page. */
function watchLeaving(page: Page) {
  const left: number[] = [];
  page.on('request', (request: Request) => {
    if (request.isNavigationRequest() && new URL(request.url()).pathname === E2E_CONFIG.thankYouUrl)
      left.push(Date.now());
  });
  return left;
}

test.describe('conversions', () => {
  test("a confirmed lead: one Ads conversion with the enquiry's key, one generate_lead, one Meta Lead with the same key; no event carries anything personal", async ({
    page,
  }) => {
    const gtag = await standInGtag(page);
    const meta = await standInMetaPixel(page);
    const visitor = visitorWith('lead');
    await setScenario(visitor.mail, [{ success: true }]);
    await open(page);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible();

    // On the thank-you page: its own tags load at once, and must count nothing more. Not its load event, which a busy
    // machine delays past 5 s (seen once in a fresh-clone run): the tags are what is waited for.
    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, {
      timeout: 5000,
      waitUntil: 'commit',
    });
    await expect.poll(gtag.loaded, { timeout: 10_000 }).toBe(true);
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
    // The key the form got is the one the server sends Meta's Conversions API: Meta counts the two as one.
    expect(meta.tracked('Lead')).toEqual([['track', 'Lead', {}, { eventID: key }]]);
    const everything = JSON.stringify([gtag.hits, meta.calls()]);
    for (const value of Object.values(visitor)) expect(everything).not.toContain(value);
  });

  test("with enhanced conversions, the visitor's e-mail and phone, normalised, are set before the Ads conversion, and the pixel's PageView comes before its Lead", async ({
    page,
  }) => {
    await standInGtag(page);
    const meta = await standInMetaPixel(page);
    // The thanks stays, so the page's own queue can be read after the conversion.
    await stayOnThankYouView(page);
    const mail = uniqueMail('mejoradas');
    // As autofill writes a Mexican mobile, with the old "1" and spaces.
    const visitor = {
      ...visitorWith('mejoradas'),
      mail: mail.replace('qa-', 'QA-'),
      phone: '+52 1 55 1234 5678',
    };
    await setScenario(visitor.mail, [{ success: true }]);
    await open(page);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible();
    await expect
      .poll(async () =>
        (await gtagCommands(page)).some(
          ([command, name]) => command === 'event' && name === 'conversion',
        ),
      )
      .toBe(true);

    const commands = await gtagCommands(page);
    const userData = commands.findIndex(
      ([command, name]) => command === 'set' && name === 'user_data',
    );
    const conversion = commands.findIndex(
      ([command, name]) => command === 'event' && name === 'conversion',
    );
    expect(commands[userData]).toEqual([
      'set',
      'user_data',
      { email: visitor.mail.toLowerCase(), phone_number: '+525512345678' },
    ]);
    expect(userData).toBeLessThan(conversion);
    expect(commands.filter(([command]) => command === 'set')).toHaveLength(1);

    const key = (await records(visitor.mail)).attempts[0]?.idempotencyKey;
    await expect
      .poll(() => meta.tracked('Lead'))
      .toEqual([['track', 'Lead', {}, { eventID: key }]]);
    expect(meta.calls().map((call) => call[1])).toEqual([
      E2E_CONFIG.metaPixelId,
      'PageView',
      'Lead',
    ]);
  });

  test('an enquiry the engine holds while the API is down is a lead too, counted once', async ({
    page,
  }) => {
    const gtag = await standInGtag(page);
    const visitor = visitorWith('kept-lead');
    await setScenario(visitor.mail, [{ status: 503 }]);
    await open(page);
    await send(page, visitor);
    await expect(thanks(page)).toBeVisible({ timeout: 8000 });
    // Its navigation, not its load: /gracias loads the tags at once, and a busy machine slows that (the load took
    // over 6 s once under the whole suite). What this test counts is the conversion, sent before the page leaves.
    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, {
      timeout: 8000,
      waitUntil: 'commit',
    });
    await page.waitForTimeout(500);
    const { attempts } = await records(visitor.mail);
    const key = attempts[0]?.idempotencyKey;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(gtag.named('conversion').map((hit) => hit.params)).toEqual([
      { send_to: SEND_TO, transaction_id: key, transport_type: 'beacon' },
    ]);
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
    const loadMs = await page.evaluate(
      () => performance.getEntriesByType('navigation')[0]?.domContentLoadedEventEnd ?? 0,
    );
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
    expect(conversion.map((hit) => hit.params.transaction_id)).toEqual([
      (await records(visitor.mail)).attempts[0]?.idempotencyKey,
    ]);
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
    // Its navigation, not its load: /gracias loads the tags at once, and this gtag.js never calls back.
    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, {
      timeout: 6000,
      waitUntil: 'commit',
    });
    // From the thanks to the browser asking for the next page (not its load, which a busy machine slows).
    const elapsed = (left[0] ?? 0) - thanksAt;
    // 3 s (the spec's 2 s and the 1 s hold); without the hold it would be 2 s, and without its cap, never (this
    // gtag.js never calls back). The upper bound tells the cap from no cap, with room for a busy machine's timers.
    expect(elapsed).toBeGreaterThanOrEqual(2400);
    expect(elapsed).toBeLessThan(5000);
  });

  // A failed send exists only when the engine cannot hold it (else the enquiry is kept
  // and the visitor thanked): that case runs on the server whose engine cannot.
  // Spam and QA enquiries are thanked like anyone, with no key: nothing to count.
  const notLeads: Array<{
    name: string;
    steps: StubStep[];
    sees: RegExp;
    baseURL?: string;
    visitor?: Partial<ReturnType<typeof visitorWith>>;
  }> = [
    {
      name: 'a refusal with a mes',
      steps: [{ success: false, mes: 'Ya tenemos una solicitud tuya de hoy.' }],
      sees: /ya tenemos una solicitud/i,
    },
    {
      name: 'a failed send',
      steps: [{ status: 503 }],
      sees: /no pudimos enviar/i,
      baseURL: `http://127.0.0.1:${E2E_OFF_PORT}`,
    },
    {
      name: 'a suspected spam',
      steps: [{ success: true }],
      sees: /gracias por contactarnos/i,
      visitor: { name: 'Gana dinero en www.premios-spam.example' },
    },
    {
      name: 'a QA enquiry',
      steps: [{ success: true }],
      sees: /gracias por contactarnos/i,
      visitor: { mail: uniqueMail('qa-lead').replace(/@.*$/, '@agencia.invalid') },
    },
  ];
  for (const { name, steps, sees, baseURL, visitor: overrides } of notLeads) {
    test.describe(name, () => {
      if (baseURL) test.use({ baseURL });
      test(`${name} sends no conversion, no generate_lead, no user data and no Meta Lead`, async ({
        page,
      }) => {
        const gtag = await standInGtag(page);
        const meta = await standInMetaPixel(page);
        // A thanked visitor stays on the thanks, so the page's own queue can be read once the tags have come.
        await stayOnThankYouView(page);
        const visitor = { ...visitorWith('no-lead'), ...overrides };
        await setScenario(visitor.mail, steps);
        const openedAt = await open(page);
        await send(page, visitor);
        // The form's status region, or the thanks that takes the form's place.
        await expect(page.locator('#contacto [role="status"]')).toContainText(sees, {
          timeout: 15_000,
        });
        // Nothing to hurry for: the tags wait for the 6 s flag, then get the queue. (The answer itself may come
        // after the flag: a send waits until the form was 3 s on screen, and a failed one tries 4 times.)
        expect(gtag.scriptRequests.filter((at) => at - openedAt < 6000)).toEqual([]);
        await expect.poll(() => gtag.named('formulario').length, { timeout: 10_000 }).toBe(1);
        // The pixel came with the tags, so a Lead would have come too.
        await expect.poll(() => meta.tracked('PageView').length).toBe(1);
        await page.waitForTimeout(500);
        expect(gtag.named('conversion')).toEqual([]);
        expect(gtag.named('generate_lead')).toEqual([]);
        expect(meta.tracked('Lead')).toEqual([]);
        expect((await gtagCommands(page)).filter(([command]) => command === 'set')).toEqual([]);
      });
    });
  }

  test('the default thank-you page loads its tags without the 6 second wait', async ({ page }) => {
    const gtag = await standInGtag(page);
    await page.goto(E2E_CONFIG.thankYouUrl);
    await expect.poll(() => gtag.scriptRequests.length, { timeout: 10_000 }).toBe(2);
    // By the page's own clock, from its first paint (where the 6 s flag counts from) to each tag's request: with
    // the wait, 6 s or more, however fast or slow the machine.
    const sinceFirstPaint = await page.evaluate(() => {
      const painted = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.includes('googletagmanager.com/gtag/js'))
        .map((entry) => entry.startTime - painted);
    });
    expect(sinceFirstPaint).toHaveLength(2);
    for (const ms of sinceFirstPaint) expect(ms).toBeLessThan(6000);
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
      expect(code.includes('largest-contentful-paint'), `${url} has the web-vitals code`).toBe(
        false,
      );
    }

    // The tags come with the 6 s 'loaded' flag; a busy machine's page (and the script checks above) can take seconds more.
    await expect.poll(gtag.loaded, { timeout: 15_000 }).toBe(true);
    await expect.poll(() => gtag.named('TTFB').length, { timeout: 5000 }).toBe(1);
    // An interaction, for INP. The browser hands it to performance observers
    // a moment later (a real visitor hides the page much later still).
    await page.getByRole('heading', { level: 1 }).click();
    await page.waitForTimeout(1000);
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', {
        configurable: true,
        get: () => 'hidden',
      });
      document.dispatchEvent(new Event('visibilitychange'));
    });

    await expect
      .poll(() =>
        [...new Set(gtag.hits.map((hit) => hit.name))]
          .filter((name) => VITALS.includes(name))
          .sort(),
      )
      .toEqual(VITALS);
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
    await page.waitForURL((url) => url.pathname === E2E_CONFIG.thankYouUrl, {
      timeout: 5000,
      waitUntil: 'commit',
    });
    // 2 s less the lag in seeing the thanks; held, it would be 3 s less that lag.
    expect((left[0] ?? Infinity) - thanksAt).toBeLessThan(2500);
    expect((await records(visitor.mail)).stored).toHaveLength(1);
    await page.waitForTimeout(1000);
    expect(thirdParty.urls).toEqual([]);
  });
});
