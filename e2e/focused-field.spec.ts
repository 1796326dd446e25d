import type { Locator, Page } from '@playwright/test';
import { expect, test, waitForFormScript } from './support/fixtures';

/*
 * Nothing fixed on screen covers a field being typed in. On a phone the form's fields run the screen's width, and the
 * floating WhatsApp button sits at the bottom right: as a person scrolls with a field focused, its right end passes
 * under the button. Each field is focused, then brought to each height the button covers, and at each the topmost
 * element at points along the field's width must be the field itself.
 */
const WIDTHS = [360, 390, 430];

/** Which of the points along the field's middle line (left to right) show something else on top: their x. */
function coveredPoints(field: Locator): Promise<number[]> {
  return field.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const y = box.top + box.height / 2;
    const covered: number[] = [];
    for (let step = 0; step <= 10; step++) {
      const x = Math.min(box.right - 1, box.left + (box.width * step) / 10);
      const top = document.elementFromPoint(x, y);
      if (top !== element && !element.contains(top)) covered.push(Math.round(x));
    }
    return covered;
  });
}

/**
 * Scrolls so the field's middle is `fromBottom` px above the screen's bottom edge, at once: the page scrolls smoothly
 * (globals.css), and a field measured mid-scroll was still below the screen, every point "covered" (flaky once).
 */
async function placeAbove(page: Page, field: Locator, fromBottom: number): Promise<void> {
  await field.evaluate((element, offset) => {
    const box = element.getBoundingClientRect();
    const top = box.top + box.height / 2 - (window.innerHeight - offset);
    window.scrollBy({ top, behavior: 'instant' });
  }, fromBottom);
}

for (const width of WIDTHS) {
  test(`at ${width} px, no fixed element covers a focused field as it scrolls past the bottom of the screen`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 780 });
    await page.goto('/#contacto');
    await waitForFormScript(page);
    const chat = page.getByRole('link', { name: 'Llama/escribenos' });
    const form = page.locator('#contacto form');

    const fields = form.getByRole('textbox');
    await expect(fields).toHaveCount(4);
    for (const field of await fields.all()) {
      const name = await field.getAttribute('name');
      // Focused where it is; placeAbove brings it to each height.
      await field.evaluate((element: HTMLElement) => element.focus({ preventScroll: true }));
      // The button's band: 16 px to 112 px above the bottom edge (6rem, 1rem from it).
      for (const fromBottom of [30, 60, 90]) {
        await placeAbove(page, field, fromBottom);
        expect(await coveredPoints(field), `${name}, ${fromBottom} px above the bottom`).toEqual(
          [],
        );
      }
    }

    // Once no field has focus, the button is back.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await expect(chat).toBeVisible();
  });
}

test('with a mouse on a wide screen, the button stays while a field has focus, to be clicked', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/#contacto');
  await waitForFormScript(page);
  await page.locator('#contacto form').getByRole('textbox').first().focus();
  await expect(page.getByRole('link', { name: 'Llama/escribenos' })).toBeVisible();
});
