import type { Locator, Page } from '@playwright/test';
import { currentSlide, expect, test } from './support/fixtures';

/*
 * Autoplay runs only while somebody can see it: a carousel scrolled off
 * screen, or in a hidden tab, stays on the slide it showed, and steps again
 * 5 s (the spec's delay) after it is seen again. Real time, not a fake clock:
 * this is about what happens while the page is left alone.
 */

const CAROUSELS = ['Logotipos de clientes', 'Certificaciones y socios'];
const AWAY_MS = 12_000;

/** Where the carousel's slides are: the selected dot, the track's transform and each slide's left edge. */
async function position(page: Page, region: Locator, name: string) {
  const layout = await region.evaluate((root) => {
    const slides = Array.from(root.querySelectorAll('[aria-roledescription="slide"]'));
    const viewport = slides[0]?.parentElement?.parentElement;
    const left = viewport?.getBoundingClientRect().left ?? 0;
    return {
      transform: slides[0]?.parentElement?.style.transform ?? '',
      lefts: slides.map((slide) => Math.round(slide.getBoundingClientRect().left - left)),
    };
  });
  return { slide: await currentSlide(page, name), ...layout };
}

/** Brings the carousel on screen and waits for its engine. */
async function showCarousel(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  const region = page.getByRole('region', { name });
  await region.scrollIntoViewIfNeeded();
  await expect(region).toHaveAttribute('data-ready', 'true');
  return region;
}

/**
 * Waits until the carousel leaves `before`, and returns how long that took
 * from `since`. Polls every 100 ms.
 */
/** Back in view: the slide it left on, and the next one 5 s later (4 to 7 s, for a busy machine). */
async function expectSameSlideThenStep(
  page: Page,
  region: Locator,
  name: string,
  shown: Awaited<ReturnType<typeof position>>,
) {
  const back = Date.now();
  expect(await position(page, region, name)).toEqual(shown);
  const stepAfter = await timeToStep(page, region, name, back, shown.slide);
  expect(stepAfter).toBeGreaterThanOrEqual(4000);
  expect(stepAfter).toBeLessThanOrEqual(7000);
  expect(await currentSlide(page, name)).toBe((shown.slide + 1) % 6);
}

async function timeToStep(
  page: Page,
  region: Locator,
  name: string,
  since: number,
  before: number,
) {
  await expect
    .poll(() => currentSlide(page, name), { timeout: 10_000, intervals: [100] })
    .not.toBe(before);
  return Date.now() - since;
}

/** Waits for Embla's scroll animation to end: the track's transform stops changing. */
async function atRest(region: Locator) {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = await region.evaluate(
          (root) =>
            root.querySelector('[aria-roledescription="slide"]')?.parentElement?.style.transform ??
            '',
        );
        const still = now === last;
        last = now;
        return still;
      },
      { intervals: [150] },
    )
    .toBe(true);
}

/**
 * Hides and shows the tab. A real mechanism was tried first: another page of
 * the same context brought to front (context.newPage() + bringToFront()) does
 * not change document.visibilityState in headless Chromium (it stays
 * 'visible'), so the page's own visibilityState and hidden are overridden and
 * a visibilitychange dispatched, as the browser does when the tab is hidden.
 */
async function setTabHidden(page: Page, hidden: boolean) {
  await page.evaluate((isHidden) => {
    Object.defineProperty(document, 'visibilityState', {
      value: isHidden ? 'hidden' : 'visible',
      configurable: true,
    });
    Object.defineProperty(document, 'hidden', { value: isHidden, configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }, hidden);
}

for (const name of CAROUSELS) {
  test.describe(`carousel "${name}" while nobody can see it`, () => {
    test('scrolled off screen for 12 s: the same slide when back, and the next one 5 s later', async ({
      page,
    }) => {
      const region = await showCarousel(page, name);
      const shown = await position(page, region, name);

      // The top of the page: the carousel is wholly below the viewport.
      await page.evaluate(() => window.scrollTo(0, 0));
      const box = await region.boundingBox();
      expect(box && box.y > 900, 'the carousel is wholly off screen').toBe(true);
      await page.waitForTimeout(AWAY_MS);

      await region.scrollIntoViewIfNeeded();
      await expectSameSlideThenStep(page, region, name, shown);
    });

    test('in a hidden tab for 12 s: the same slide when shown, and the next one 5 s later', async ({
      page,
    }) => {
      const region = await showCarousel(page, name);
      // Let it take one step first, so the test also sees a carousel that has moved.
      await timeToStep(page, region, name, Date.now(), 0);
      await atRest(region);
      const shown = await position(page, region, name);

      await setTabHidden(page, true);
      await page.waitForTimeout(AWAY_MS);
      await setTabHidden(page, false);

      await expectSameSlideThenStep(page, region, name, shown);
    });
  });
}
