import { E2E_CONFIG } from './support/test-env';
import { expect, test } from './support/fixtures';

test.describe('third-party scripts', () => {
  test('are added 6 seconds after the page is shown, not before', async ({ page, thirdParty }) => {
    // Real time, not a fake clock: this is about when requests leave the browser.
    const navigationStart = Date.now();
    await page.goto('/');
    await page.waitForFunction(() => performance.now() > 5500);
    expect(thirdParty.hosts()).toEqual([]);
    expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(0);

    await expect
      .poll(() => thirdParty.urls.slice().sort(), { timeout: 5000 })
      .toEqual(
        [
          `https://www.googletagmanager.com/gtag/js?id=${E2E_CONFIG.gaMeasurementId}`,
          `https://www.googletagmanager.com/gtag/js?id=${E2E_CONFIG.googleAdsId}`,
          E2E_CONFIG.chatWidgetSrc,
        ].sort(),
      );
    expect(Math.min(...thirdParty.times) - navigationStart).toBeGreaterThanOrEqual(6000);
    // next/script preloads a tag's src while rendering and runs the inline
    // config in an effect just after: the requests can be seen a moment before.
    const commands = () =>
      page.evaluate(() => (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>).slice(0, 2)));
    await expect.poll(commands, { timeout: 2000 }).toContainEqual(['config', E2E_CONFIG.gaMeasurementId]);
    await expect.poll(commands, { timeout: 2000 }).toContainEqual(['config', E2E_CONFIG.googleAdsId]);
  });

  test('the page is readable at once: nothing waits for the 6 second flag', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Llama/escribenos' })).toBeVisible();
  });
});
