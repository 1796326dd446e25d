import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

/*
 * The rules for the sections under the fold, but the first, leave the page's inlined CSS after the build
 * (scripts/build/css-later.ts) for a stylesheet loaded without blocking the first paint. Whatever its delay, nothing
 * on screen moves when it arrives, and every section is styled once it has, with and without JavaScript.
 */

const LATER = 'link[data-css-later]';

/** The layout shifts the page has had so far, added up as CLS adds them (all of them: the page is never left). */
const shifts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        new PerformanceObserver((list) =>
          resolve(
            list
              .getEntries()
              .reduce((sum, entry) => sum + (entry as unknown as { value: number }).value, 0),
          ),
        ).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(0), 500);
      }),
  );

/**
 * Holds the later stylesheet back until `release()`, however long the page takes to paint meanwhile; `answered`
 * resolves once the browser has it.
 */
async function holdLaterSheet(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let answered = () => {};
  const done = new Promise<void>((resolve) => (answered = resolve));
  await page.route(/\/_next\/static\/chunks\/[0-9a-f]{16}\.css$/, async (route) => {
    const response = await route.fetch();
    await released;
    await route.fulfill({ response });
    answered();
  });
  // In an object: an async function that returned `done` itself would wait for it.
  return { release, answered: done };
}

const radiusOfAServiceCard = (page: Page) =>
  page
    .locator('section[aria-labelledby="services-title"] li')
    .first()
    .evaluate((node) => getComputedStyle(node).borderTopLeftRadius);

test('the home page loads the CSS below its fold apart, after its first paint', async ({
  request,
}) => {
  const html = await (await request.get('/')).text();
  const href =
    /<link rel="stylesheet" href="([^"]+)" media="print" onload="this\.media='all'" data-css-later=""\/>/.exec(
      html,
    )?.[1];
  expect(href, 'the later stylesheet, not blocking the first paint').toMatch(
    /^\/_next\/static\/chunks\/[0-9a-f]{16}\.css$/,
  );
  expect(html, 'and for a browser without scripts').toContain(
    `<noscript><link rel="stylesheet" href="${href}"/></noscript></head>`,
  );
  const sheet = await request.get(href!);
  expect(sheet.status()).toBe(200);
  expect(sheet.headers()['content-type']).toContain('text/css');
  const css = await sheet.text();
  expect(css.length).toBeGreaterThan(2_000);
  // Moved, not copied: no rule of the later stylesheet is still in the page.
  for (const rule of css
    .split('}')
    .filter((text) => text.includes('{') && !text.startsWith('@'))
    .slice(0, 20))
    expect(html).not.toContain(`${rule}}`);
});

for (const [width, height] of [
  [390, 844],
  [1920, 1080],
  [2560, 1440],
] as const)
  test(`at ${width} x ${height} nothing moves while the CSS below the fold is late, and all is styled once it comes`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height });
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    page.on('pageerror', (error) => errors.push(error.message));
    const { release, answered } = await holdLaterSheet(page);
    await page.goto('/', { waitUntil: 'commit' });
    await expect(page.locator('h1')).toBeVisible();
    // Painted while the stylesheet is held: the first section under the fold has its own rules already.
    const benefits = page.locator('section[aria-labelledby="benefits-title"]');
    expect(await benefits.evaluate((node) => getComputedStyle(node).paddingTop)).toBe('64px');
    expect(await radiusOfAServiceCard(page)).toBe('0px');

    release();
    await answered;
    await expect
      .poll(() => page.locator(LATER).evaluate((link: HTMLLinkElement) => link.media))
      .toBe('all');
    expect(await radiusOfAServiceCard(page)).toBe('16px');
    expect(await shifts(page)).toBe(0);
    // Hydrated, and the stylesheet still there: React leaves it in the head.
    await expect(page.locator('form:has(#contacto-name) button[type="submit"]')).toBeDisabled();
    await expect(page.locator(LATER)).toHaveCount(1);
    expect(errors).toEqual([]);
  });

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the sections below the fold are styled all the same', async ({ page }) => {
    await page.goto('/');
    expect(await radiusOfAServiceCard(page)).toBe('16px');
    const footer = page.locator('footer');
    expect(await footer.evaluate((node) => getComputedStyle(node).backgroundColor)).toBe(
      'rgb(11, 31, 51)',
    );
  });
});
