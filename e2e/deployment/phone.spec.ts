import { carouselSlideShare, expect, openLikeAPerson, sendButton, test } from './support/fixtures';

/** WCAG 2.2, 2.5.8 Target Size (Minimum). */
const MIN_TARGET = 24;
/** The targets a thumb uses most get the size Apple and Google ask for. */
const THUMB_TARGET = 44;

const chat = 'Llama/escribenos';

test.describe('on a phone', () => {
  test('the header shows the logo without the promo', async ({ page }) => {
    await page.goto('/');
    await expect(
      page.locator('header').getByRole('img', { name: /Impulso Digital/ }),
    ).toBeVisible();
    await expect(
      page.locator('header').getByRole('img', { name: /asesoría gratis/i }),
    ).toBeHidden();
  });

  test('the carousels show one logo per view below their breakpoints', async ({ page }) => {
    await page.goto('/');
    const width = page.viewportSize()?.width ?? 0;
    // Clients: one logo below 700 px; partners: one below 400 px (the Pixel 7 is 412 px wide: four).
    for (const [name, onePerViewBelow] of [
      ['Logotipos de clientes', 700],
      ['Certificaciones y socios', 400],
    ] as const) {
      expect([name, await carouselSlideShare(page, name)]).toEqual([
        name,
        width < onePerViewBelow ? 1 : 0.25,
      ]);
    }
  });

  test('the floating chat button sits where a thumb reaches, above everything, wherever the page is scrolled', async ({
    page,
  }) => {
    await page.goto('/');
    const viewport = page.viewportSize() ?? { width: 0, height: 0 };
    const button = page.getByRole('link', { name: chat });
    for (const y of [0, 1500, 4000]) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      const box = await button.boundingBox();
      if (!box) throw new Error('the chat button has no box');
      // Wholly on screen, in the lower third and the right half: the thumb's natural arc for a right hand.
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      expect(box.x + box.width / 2).toBeGreaterThan(viewport.width / 2);
      expect(box.y + box.height / 2).toBeGreaterThan((viewport.height * 2) / 3);
      const onTop = await button.evaluate(
        (link, point) => {
          const hit = document.elementFromPoint(point.x, point.y);
          return hit !== null && link.contains(hit);
        },
        { x: box.x + box.width / 2, y: box.y + box.height / 2 },
      );
      expect(onTop).toBe(true);
    }
    await button.tap();
  });

  test('every touch target is at least 24 px (WCAG 2.2); the send button and the chat at least 44 px', async ({
    page,
  }) => {
    await openLikeAPerson(page);
    const small = await page.evaluate((min) => {
      const selector =
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])';
      return (
        [...document.querySelectorAll<HTMLElement>(selector)]
          .filter(
            (el) =>
              !el.closest('[aria-hidden="true"], [inert]') &&
              el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }),
          )
          .map((el) => ({ el, rect: el.getBoundingClientRect() }))
          // A visually hidden control (the skip link before it has focus) is 1 px: it is not a target until it shows.
          .filter(({ rect }) => rect.width > 1 && rect.height > 1)
          // WCAG's exception: a link inside a sentence is sized by the text's line.
          .filter(
            ({ el }) =>
              !(
                getComputedStyle(el).display === 'inline' &&
                /\S/.test((el.parentElement?.textContent ?? '').replace(el.textContent ?? '', ''))
              ),
          )
          .filter(({ rect }) => rect.width < min || rect.height < min)
          .map(
            ({ el, rect }) =>
              `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" ${Math.round(rect.width)}x${Math.round(rect.height)}`,
          )
      );
    }, MIN_TARGET);
    expect(small, 'touch targets under 24 px').toEqual([]);

    for (const target of [sendButton(page), page.getByRole('link', { name: chat })]) {
      const box = await target.boundingBox();
      expect(box?.width).toBeGreaterThanOrEqual(THUMB_TARGET);
      expect(box?.height).toBeGreaterThanOrEqual(THUMB_TARGET);
    }
  });
});
