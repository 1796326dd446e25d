import { carouselSlideShare, expect, test } from './support/fixtures';

test.describe('on a desktop', () => {
  test('the header shows the promo beside the logo, and shrinks from 100 to 75 px on scroll', async ({
    page,
  }) => {
    await page.goto('/');
    const header = page.locator('header');
    await expect(header.getByRole('img', { name: /Impulso Digital/ })).toBeVisible();
    await expect(header.getByRole('img', { name: /asesoría gratis/i })).toBeVisible();
    const height = () => header.evaluate((el) => el.getBoundingClientRect().height);
    expect(await height()).toBe(100);
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(height).toBe(75);
  });

  test('the carousels show four logos per view', async ({ page }) => {
    await page.goto('/');
    for (const name of ['Logotipos de clientes', 'Certificaciones y socios']) {
      expect([name, await carouselSlideShare(page, name)]).toEqual([name, 0.25]);
    }
  });
});
