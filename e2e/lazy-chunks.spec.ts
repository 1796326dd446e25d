import type { Page, Route } from '@playwright/test';
import { expect, test, waitForFormScript } from './support/fixtures';
import { records, setScenario, uniqueMail } from './support/stub';
import { E2E_CONFIG } from './support/test-env';

/*
 * A lazily loaded chunk that never arrives (a flaky network, or a deployment
 * that removed the old chunks) costs that piece only: never the page, never
 * the enquiry, never the redirect after it.
 */

const FAKE_RECAPTCHA = `
  window.grecaptcha = {
    ready: function (callback) { callback(); },
    execute: function () { return Promise.resolve('e2e-token'); }
  };`;

const SECTIONS = [
  'hero-title',
  'benefits-title',
  'clients-title',
  'services-title',
  'digital-title',
];
const CAROUSELS = ['Logotipos de clientes', 'Certificaciones y socios'];
/** Long enough for the 6 s 'loaded' flag (the tags chunk) and the start of both carousels once near. */
const WAIT_MS = 8000;

const form = (page: Page) => page.locator('#contacto form');
const thanks = (page: Page) => page.getByRole('heading', { name: /gracias por contactarnos/i });

function visitorWith(tag: string) {
  return {
    name: 'Ana Sin Red',
    mail: uniqueMail(tag),
    phone: '5512345678',
    reason: 'Quiero una página web para mi negocio.',
  };
}

/** The script addresses the home page's HTML names: everything else is fetched later, on demand. */
async function scriptsInHtml(page: Page): Promise<Set<string>> {
  const response = await page.request.get('/');
  const html = await response.text();
  return new Set(
    [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map(
      (match) => new URL(match[1] ?? '', response.url()).pathname,
    ),
  );
}

/** Refuses every chunk (as a network error) that passes `refuse`; returns the refused paths. */
async function refuseChunks(
  page: Page,
  refuse: (path: string, route: Route) => Promise<boolean> | boolean,
): Promise<string[]> {
  const refused: string[] = [];
  await page.route('**/_next/static/chunks/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    // The page may have gone on (the thank-you redirect) while a chunk asked
    // for late was being looked at (now that the carousel engine waits for a
    // carousel to come near, it can be one): that route went with its page.
    const gone = () => undefined;
    if (await refuse(path, route)) {
      refused.push(path);
      await route.abort('connectionfailed').catch(gone);
    } else {
      await route.continue().catch(gone);
    }
  });
  return refused;
}

async function open(page: Page) {
  await page.route('https://www.google.com/recaptcha/api.js**', (route) =>
    route.fulfill({ contentType: 'application/javascript', body: FAKE_RECAPTCHA }),
  );
  await page.goto('/');
  await expect(form(page)).toBeVisible();
  await waitForFormScript(page);
}

async function send(page: Page, visitor: ReturnType<typeof visitorWith>) {
  for (const [name, value] of Object.entries(visitor))
    await form(page).locator(`[name="${name}"]`).fill(value);
  await form(page)
    .getByRole('button', { name: /enviar/i })
    .click();
}

test.describe('lazily loaded chunks that never arrive', () => {
  test('every chunk not in the HTML refused: after 8 s every section, the footer and both carousels are still there', async ({
    page,
  }) => {
    const inHtml = await scriptsInHtml(page);
    const refused = await refuseChunks(page, (path) => !inHtml.has(path));
    await open(page);
    // The carousels start when near the viewport: bring both near it.
    for (const name of CAROUSELS) await page.getByRole('region', { name }).scrollIntoViewIfNeeded();
    await page.waitForTimeout(WAIT_MS);
    expect(
      refused.length,
      'the tags and carousel chunks were asked for, and refused',
    ).toBeGreaterThan(0);

    for (const id of SECTIONS) {
      const section = page.locator(`section[aria-labelledby="${id}"]`);
      await section.scrollIntoViewIfNeeded();
      await expect(section).toBeVisible();
      await expect(page.locator(`#${id}`)).toBeVisible();
    }
    await expect(page.locator('footer')).toBeVisible();
    for (const name of CAROUSELS) {
      const carousel = page.getByRole('region', { name });
      await carousel.scrollIntoViewIfNeeded();
      const logos = carousel.getByRole('img');
      await expect(logos).toHaveCount(6);
      await expect(logos.first()).toBeVisible();
    }
  });

  // Depends on the form's rewrite (a real HTML form, rules retried on submit):
  // today the submit button waits for the rules chunk, which never arrives.
  test('every chunk not in the HTML refused: the form still sends the enquiry once', async ({
    page,
  }) => {
    const visitor = visitorWith('no-chunks');
    await setScenario(visitor.mail, [{ success: true }]);
    const inHtml = await scriptsInHtml(page);
    await refuseChunks(page, (path) => !inHtml.has(path));
    await open(page);
    await page.waitForTimeout(WAIT_MS);

    await send(page, visitor);
    await expect(thanks(page).first()).toBeVisible();
    await expect.poll(async () => (await records(visitor.mail)).attempts.length).toBe(1);
    expect((await records(visitor.mail)).attempts[0]?.body).toMatchObject(visitor);
  });

  test('the tags chunk refused after a confirmed lead: the browser still reaches the thank-you page', async ({
    page,
  }) => {
    const visitor = visitorWith('no-tags');
    await setScenario(visitor.mail, [{ success: true }]);
    // The tags chunk is the one that adds the Ads tag's <script id="google-ads-tag">.
    const refused = await refuseChunks(page, async (path, route) => {
      const body = await route
        .fetch()
        .then((response) => response.text())
        .catch(() => '');
      return body.includes('google-ads-tag');
    });
    await open(page);

    await send(page, visitor);
    await expect(thanks(page)).toBeVisible();
    const thankedAt = Date.now();
    await page.waitForURL(`**${E2E_CONFIG.thankYouUrl}`, { timeout: 4000, waitUntil: 'commit' });
    expect(Date.now() - thankedAt).toBeLessThan(4000);
    expect(refused.length, 'the tags chunk was asked for, and refused').toBeGreaterThan(0);
    expect((await records(visitor.mail)).attempts).toHaveLength(1);
  });
});
