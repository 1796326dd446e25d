import type { Page } from '@playwright/test';
import { currentSlide, expect, test } from './support/fixtures';

const CLIENTS = 'Logotipos de clientes';
const PARTNERS = 'Certificaciones y socios';

const carousel = (page: Page, name: string) => page.getByRole('region', { name });

const START = new Date('2026-11-23T10:00:00-06:00').getTime();
/** How far the page's clock moves per step while the carousel starts. */
const START_STEP_MS = 50;

/**
 * Opens the page with its clock stopped, and moves the clock in small steps
 * until the carousel has started. From then on only the test moves time
 * (`page.clock.runFor`): a slow or busy machine cannot make the 5 second wait
 * run out behind the test's back.
 */
async function openAt(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 900 });
  await page.clock.install({ time: START });
  // A minute ahead: pauseAt refuses a time the running clock has already passed.
  await page.clock.pauseAt(START + 60_000);
  await page.goto('/');
  const region = carousel(page, name);
  await region.scrollIntoViewIfNeeded();
  await expect
    .poll(
      async () => {
        await page.clock.runFor(START_STEP_MS);
        return region.getAttribute('data-ready');
      },
      { intervals: [0] },
    )
    .toBe('true');
  return region;
}

/** Share of the carousel's visible width that one slide takes. */
async function slideShare(page: Page, name: string) {
  return carousel(page, name).evaluate((root) => {
    const slide = root.querySelector('[aria-roledescription="slide"]');
    const viewport = slide?.parentElement?.parentElement;
    if (!slide || !viewport) return 0;
    return slide.getBoundingClientRect().width / viewport.getBoundingClientRect().width;
  });
}

for (const name of [CLIENTS, PARTNERS]) {
  test.describe(`carousel "${name}"`, () => {
    test('has 6 labelled slides, 6 dots, chevrons and a pause button first', async ({ page }) => {
      const region = await openAt(page, 1280, name);
      await expect(region).toHaveAttribute('aria-roledescription', 'carousel');
      const slides = region.locator('[role="group"][aria-roledescription="slide"]');
      await expect(slides).toHaveCount(6);
      await expect(slides.nth(2)).toHaveAttribute('aria-label', '3 de 6');
      await expect(region.getByRole('button', { name: /^Ir al logotipo/ })).toHaveCount(6);
      await expect(region.getByRole('button', { name: 'Logotipo anterior' })).toBeVisible();
      await expect(region.getByRole('button', { name: 'Logotipo siguiente' })).toBeVisible();
      await expect(region.getByRole('button').first()).toHaveAccessibleName('Pausar el carrusel');
      await expect(region.getByRole('button').first()).toBeVisible();
      for (let index = 0; index < 6; index++) {
        await expect(slides.nth(index).getByRole('img')).toHaveAttribute('alt', /\w{3,}/);
      }
    });

    test('chevrons and dots step it', async ({ page }) => {
      const region = await openAt(page, 1280, name);
      expect(await currentSlide(page, name)).toBe(0);
      await region.getByRole('button', { name: 'Logotipo siguiente' }).click();
      await expect.poll(() => currentSlide(page, name)).toBe(1);
      await region.getByRole('button', { name: 'Logotipo anterior' }).click();
      await region.getByRole('button', { name: 'Logotipo anterior' }).click();
      await expect.poll(() => currentSlide(page, name)).toBe(5);
      await region.getByRole('button', { name: 'Ir al logotipo 3 de 6' }).click();
      await expect.poll(() => currentSlide(page, name)).toBe(2);
    });

    test('advances by itself after 5 seconds, and not before', async ({ page }) => {
      await openAt(page, 1280, name);
      // Only the test moves the clock: the margins are the start-up step, not machine speed.
      await page.clock.runFor(5000 - 2 * START_STEP_MS);
      expect(await currentSlide(page, name)).toBe(0);
      await page.clock.runFor(3 * START_STEP_MS);
      await expect.poll(() => currentSlide(page, name)).toBe(1);
    });

    test('a chevron click restarts the 5 second wait', async ({ page }) => {
      const region = await openAt(page, 1280, name);
      await page.clock.runFor(4000);
      await region.getByRole('button', { name: 'Logotipo siguiente' }).click();
      await expect.poll(() => currentSlide(page, name)).toBe(1);
      await page.clock.runFor(5000 - 2 * START_STEP_MS);
      expect(await currentSlide(page, name)).toBe(1);
      await page.clock.runFor(3 * START_STEP_MS);
      await expect.poll(() => currentSlide(page, name)).toBe(2);
    });

    test('does not move while hovered, and resumes after', async ({ page }) => {
      const region = await openAt(page, 1280, name);
      await region.locator('[aria-roledescription="slide"]').first().hover();
      await page.clock.runFor(12_000);
      expect(await currentSlide(page, name)).toBe(0);
      await page.mouse.move(5, 5);
      await page.clock.runFor(5100);
      await expect.poll(() => currentSlide(page, name)).toBe(1);
    });

    test('the pause button stops it for good until play is pressed', async ({ page }) => {
      const region = await openAt(page, 1280, name);
      await region.getByRole('button', { name: 'Pausar el carrusel' }).click();
      // Hovering and leaving must not restart a carousel the visitor paused.
      await region.locator('[aria-roledescription="slide"]').first().hover();
      await page.mouse.move(5, 5);
      await page.clock.runFor(15_000);
      expect(await currentSlide(page, name)).toBe(0);
      await region.getByRole('button', { name: 'Reproducir el carrusel' }).click();
      await page.clock.runFor(5100);
      await expect.poll(() => currentSlide(page, name)).toBe(1);
    });

    test('pauses while keyboard focus is inside it', async ({ page }) => {
      const region = await openAt(page, 1280, name);
      await region.getByRole('button', { name: 'Pausar el carrusel' }).focus();
      await page.keyboard.press('Tab');
      await expect(region.getByRole('button', { name: 'Logotipo anterior' })).toBeFocused();
      await page.clock.runFor(12_000);
      expect(await currentSlide(page, name)).toBe(0);
      // Leaving by keyboard lets it play again. The control before it may be
      // far above, the carousel then off screen (and held): look at it again,
      // and wait for it to play (the track stops announcing) before moving the clock.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await region.scrollIntoViewIfNeeded();
      await expect(region.locator('[aria-live]')).toHaveAttribute('aria-live', 'off');
      await page.clock.runFor(5100);
      await expect.poll(() => currentSlide(page, name)).toBe(1);
    });

    test('keeps playing after a drag', async ({ page }) => {
      const region = await openAt(page, 1280, name);
      const box = await region.locator('[aria-roledescription="slide"]').first().boundingBox();
      if (!box) throw new Error('no slide box');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x - 150, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
      await page.mouse.move(5, 5);
      await page.clock.runFor(1000);
      const afterDrag = await currentSlide(page, name);
      await page.clock.runFor(5100);
      await expect.poll(() => currentSlide(page, name)).toBe((afterDrag + 1) % 6);
    });

    test('never starts by itself under reduced motion', async ({ page }) => {
      await page.emulateMedia({ reducedMotion: 'reduce' });
      const region = await openAt(page, 1280, name);
      await expect(region.getByRole('button', { name: 'Reproducir el carrusel' })).toBeVisible();
      await page.clock.runFor(15_000);
      expect(await currentSlide(page, name)).toBe(0);
    });
  });
}

test.describe('carousel breakpoints', () => {
  test('clients: 1 slide below 700px, 4 from 700px', async ({ page }) => {
    await openAt(page, 699, CLIENTS);
    expect(await slideShare(page, CLIENTS)).toBeCloseTo(1, 2);
    await page.setViewportSize({ width: 700, height: 900 });
    await expect.poll(() => slideShare(page, CLIENTS)).toBeCloseTo(0.25, 2);
  });

  test('partners: 1 slide below 400px, 4 from 400px', async ({ page }) => {
    await openAt(page, 399, PARTNERS);
    expect(await slideShare(page, PARTNERS)).toBeCloseTo(1, 2);
    await page.setViewportSize({ width: 400, height: 900 });
    await expect.poll(() => slideShare(page, PARTNERS)).toBeCloseTo(0.25, 2);
  });

  test('keeps autoplaying after a resize across the breakpoint', async ({ page }) => {
    await openAt(page, 1280, CLIENTS);
    await page.setViewportSize({ width: 500, height: 900 });
    await expect.poll(() => slideShare(page, CLIENTS)).toBeCloseTo(1, 2);
    // Embla takes the new breakpoint on its own schedule (a frame, which the stopped clock holds too), and its
    // autoplay's 5 s start over then. One long step could begin before that and end before them (CI run 22, once):
    // the clock moves in small steps until the carousel advances, by itself.
    await expect
      .poll(
        async () => {
          await page.clock.runFor(START_STEP_MS);
          return currentSlide(page, CLIENTS);
        },
        { intervals: [0], timeout: 30_000 },
      )
      .toBe(1);
  });
});

test.describe('carousel layout before and after the script starts', () => {
  for (const width of [375, 550, 1280]) {
    test(`the slides do not move when Embla starts, at ${width}px`, async ({
      page,
      browser,
      baseURL,
    }) => {
      const positions = async (target: Page) =>
        target.evaluate(() =>
          Array.from(document.querySelectorAll('[aria-roledescription="carousel"]')).map((root) => {
            const viewport = root.querySelector('[aria-roledescription="slide"]')?.parentElement
              ?.parentElement;
            const bounds = viewport?.getBoundingClientRect();
            return {
              height: Math.round(root.getBoundingClientRect().height),
              visible: Array.from(root.querySelectorAll('[aria-roledescription="slide"]'))
                .map((slide) => ({
                  label: slide.getAttribute('aria-label'),
                  rect: slide.getBoundingClientRect(),
                }))
                .filter(
                  ({ rect }) =>
                    bounds && rect.right > bounds.left + 1 && rect.left < bounds.right - 1,
                )
                .map(({ label, rect }) => ({ label, left: rect.left - (bounds?.left ?? 0) }))
                .sort((a, b) => a.left - b.left),
            };
          }),
        );

      const staticContext = await browser.newContext({
        javaScriptEnabled: false,
        viewport: { width, height: 900 },
      });
      const staticPage = await staticContext.newPage();
      await staticPage.goto(`${baseURL}/`);
      const before = await positions(staticPage);
      await staticContext.close();

      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      // Each starts when it comes near the viewport (positions are measured against its own viewport).
      for (const region of await page.locator('[aria-roledescription="carousel"]').all()) {
        await region.scrollIntoViewIfNeeded();
        await expect(region).toHaveAttribute('data-ready', 'true');
      }
      const after = await positions(page);
      expect(before.every(({ visible }) => visible.length > 0)).toBe(true);
      // Same slides in view, same heights, and no slide off by more than the
      // rounding of Embla's whole-pixel measurements (offsetWidth) of
      // fractional slide widths: at most a pixel or two.
      expect(
        after.map(({ height, visible }) => [height, visible.map(({ label }) => label)]),
      ).toEqual(before.map(({ height, visible }) => [height, visible.map(({ label }) => label)]));
      after.forEach(({ visible }, carouselIndex) =>
        visible.forEach(({ label, left }, slideIndex) => {
          const expected = before[carouselIndex]?.visible[slideIndex]?.left ?? NaN;
          expect([label, left, Math.abs(left - expected) <= 2]).toEqual([label, left, true]);
        }),
      );
    });
  }
});
