import { expectCssOnce } from './support/css-once';
import { expect, test } from './support/fixtures';

/*
 * The home page's CSS is inlined (the first paint needs no other request) and sent once: Next writes it again into
 * React's flight data, and scripts/build/css-once.ts empties that copy after the build. React must still adopt the
 * head's <style>, not add an empty one or drop it, as it hydrates.
 */

test('the home page carries its CSS once, and keeps it through hydration', async ({
  page,
  request,
}) => {
  const html = await (await request.get('/')).text();
  expectCssOnce(html);
  const served = /<style data-precedence="next"[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';

  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto('/');
  // Hydrated: the form's island has taken over (it disables the empty form's button; the server's HTML does not).
  await expect(page.locator('form:has(#contacto-name) button[type="submit"]')).toBeDisabled();
  const styles = await page.evaluate(() =>
    [...document.querySelectorAll('style[data-precedence]')].map(
      (style) => style.textContent ?? '',
    ),
  );
  expect(styles).toEqual([served]);
  // Styled: the hero's background is the stylesheet's gradient.
  const hero = page.locator('section[aria-labelledby="hero-title"]');
  expect(await hero.evaluate((node) => getComputedStyle(node).backgroundImage)).toContain(
    'linear-gradient',
  );
  expect(errors).toEqual([]);
});
