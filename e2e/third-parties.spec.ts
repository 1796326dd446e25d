import type { Page } from '@playwright/test';
import { E2E_CONFIG } from './support/test-env';
import { expect, test, waitForFormScript } from './support/fixtures';

const META_PIXEL_SRC = 'https://connect.facebook.net/en_US/fbevents.js';

/** The gtag commands the page queued, in order, without their callbacks. */
const gtagCommands = (page: Page) =>
  page.evaluate(() =>
    (window.dataLayer ?? []).map(
      (entry) => JSON.parse(JSON.stringify(Array.from(entry as ArrayLike<unknown>))) as unknown[],
    ),
  );

/**
 * What the page gave the Meta Pixel, in order. The fixture answers fbevents.js
 * with an empty script, so every command stays in the queue of the page's fbq
 * stub, as the real script would find it.
 */
const pixelCommands = (page: Page) =>
  page.evaluate(() => {
    const stub = window.fbq as unknown as { queue?: ArrayLike<unknown>[] } | undefined;
    return (stub?.queue ?? []).map((entry) => Array.from(entry));
  });

/** A person taps the floating WhatsApp button; WhatsApp opens in a new tab, which they close. */
async function chatOnWhatsApp(page: Page) {
  const opened = page.context().waitForEvent('page');
  await page.getByRole('link', { name: 'Llama/escribenos' }).click();
  await (await opened).close();
}

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
          META_PIXEL_SRC,
          E2E_CONFIG.chatWidgetSrc,
        ].sort(),
      );
    expect(Math.min(...thirdParty.times) - navigationStart).toBeGreaterThanOrEqual(6000);
    // next/script preloads a tag's src while rendering and runs the inline
    // config in an effect just after: the requests can be seen a moment before.
    const commands = async () => (await gtagCommands(page)).map((command) => command.slice(0, 2));
    await expect
      .poll(commands, { timeout: 2000 })
      .toContainEqual(['config', E2E_CONFIG.gaMeasurementId]);
    await expect
      .poll(commands, { timeout: 2000 })
      .toContainEqual(['config', E2E_CONFIG.googleAdsId]);
  });

  test("Consent Mode's defaults are the first commands gtag.js reads: denied in the EEA, the UK and Switzerland, granted elsewhere", async ({
    page,
  }) => {
    await page.goto('/');
    await waitForFormScript(page);
    // Before the tags: this click's event waits in the queue.
    await chatOnWhatsApp(page);
    await expect
      .poll(async () => (await gtagCommands(page)).map((command) => command[1]), {
        timeout: 15_000,
      })
      .toContain(E2E_CONFIG.googleAdsId);

    const commands = await gtagCommands(page);
    const denied = {
      ad_storage: 'denied',
      ad_user_data: 'denied',
      ad_personalization: 'denied',
      analytics_storage: 'denied',
    };
    const granted = {
      ad_storage: 'granted',
      ad_user_data: 'granted',
      ad_personalization: 'granted',
      analytics_storage: 'granted',
    };
    expect(commands[0]).toEqual([
      'consent',
      'default',
      { ...denied, region: expect.arrayContaining(['DE', 'ES', 'FR', 'IE', 'NO', 'GB', 'CH']) },
    ]);
    expect((commands[0]?.[2] as { region: string[] }).region).not.toContain('MX');
    expect(commands[1]).toEqual(['consent', 'default', granted]);
    // Everything else comes after: the configs, and the click made before the tags.
    expect(commands.slice(2).map((command) => command[0])).not.toContain('consent');
    expect(commands.slice(2).map((command) => command.slice(0, 2))).toEqual(
      expect.arrayContaining([
        ['event', 'whatsapp'],
        ['config', E2E_CONFIG.gaMeasurementId],
        ['config', E2E_CONFIG.googleAdsId],
      ]),
    );
  });

  test('the Meta Pixel comes with the tags: init and PageView, then each WhatsApp click as Contact, one made before it too', async ({
    page,
  }) => {
    await page.goto('/');
    await waitForFormScript(page);
    await chatOnWhatsApp(page);
    // Nothing of Meta's before the 6 s flag: the click waits in the page.
    expect(await page.evaluate(() => typeof window.fbq)).toBe('undefined');

    await expect
      .poll(() => pixelCommands(page), { timeout: 15_000 })
      .toEqual([
        ['init', E2E_CONFIG.metaPixelId],
        ['track', 'PageView'],
        ['track', 'Contact'],
      ]);
    await chatOnWhatsApp(page);
    await expect
      .poll(() => pixelCommands(page))
      .toEqual([
        ['init', E2E_CONFIG.metaPixelId],
        ['track', 'PageView'],
        ['track', 'Contact'],
        ['track', 'Contact'],
      ]);
  });

  test('the page is readable at once: nothing waits for the 6 second flag', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Llama/escribenos' })).toBeVisible();
  });
});
