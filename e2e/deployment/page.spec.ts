import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';

const SECTIONS = [
  { level: 1, name: /nuevos clientes para tu negocio/i },
  { level: 2, name: /atrae clientes potenciales/i },
  { level: 2, name: /clientes que ya disfrutan los beneficios/i },
  { level: 2, name: /nuestros servicios/i },
  { level: 2, name: /marketing digital contra marketing tradicional/i },
];

async function expectSectionsInOrder(page: Page) {
  const tops: number[] = [];
  for (const { level, name } of SECTIONS) {
    const heading = page.getByRole('heading', { level, name });
    await expect(heading).toBeVisible();
    tops.push((await heading.boundingBox())?.y ?? -1);
  }
  expect([...tops].sort((a, b) => a - b)).toEqual(tops);
  await expect(page.locator('#contacto form')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Logotipos de clientes' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Certificaciones y socios' })).toBeVisible();
  await expect(page.locator('footer')).toBeVisible();
}

test.describe('the page', () => {
  test('is in Spanish, with every section in order', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es-MX');
    await expect(page).toHaveTitle(/clientes|páginas web|publicidad/i);
    await expectSectionsInOrder(page);
    await expect(page.getByRole('link', { name: 'Llama/escribenos' })).toBeVisible();
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('every section and the form are there', async ({ page }) => {
      await page.goto('/');
      await expectSectionsInOrder(page);
      for (const name of ['name', 'mail', 'phone', 'reason'])
        await expect(page.locator(`#contacto [name="${name}"]`)).toBeVisible();
    });
  });

  test('the privacy notice and the thank-you page answer', async ({ page }) => {
    for (const [path, heading] of [
      ['/aviso-de-privacidad', /aviso de privacidad/i],
      ['/gracias', /gracias/i],
    ] as const) {
      const response = await page.goto(path);
      expect([path, response?.status()]).toEqual([path, 200]);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    }
  });
});

test.describe('routes', () => {
  test('/home is a permanent redirect to /, keeping the query string', async ({ page }) => {
    const response = await page.goto('/home?gclid=qa');
    const redirect = await response?.request().redirectedFrom()?.response();
    expect(redirect?.status()).toBe(308);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/?gclid=qa');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('an unknown path redirects to /', async ({ page }) => {
    const response = await page.goto('/servicios/diseno?utm_source=qa');
    const redirect = await response?.request().redirectedFrom()?.response();
    expect(redirect?.status()).toBe(307);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/?utm_source=qa');
  });
});

test.describe('the carousels', () => {
  for (const name of ['Logotipos de clientes', 'Certificaciones y socios']) {
    test(`"${name}": six logos, the chevrons and dots move it, the pause button stops it`, async ({
      page,
    }) => {
      await page.goto('/');
      const region = page.getByRole('region', { name });
      await region.scrollIntoViewIfNeeded();
      await expect(region).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
      await expect(region.locator('[aria-roledescription="slide"]')).toHaveCount(6);

      const pause = region.getByRole('button', { name: 'Pausar el carrusel' });
      await pause.click();
      await expect(region.getByRole('button', { name: 'Reproducir el carrusel' })).toBeVisible();

      const dots = region.getByRole('button', { name: /^Ir al logotipo/ });
      await dots.nth(2).click();
      await expect(dots.nth(2)).toHaveAttribute('aria-current', 'true');
      await region.getByRole('button', { name: 'Logotipo siguiente' }).click();
      await expect(dots.nth(3)).toHaveAttribute('aria-current', 'true');
      await region.getByRole('button', { name: 'Logotipo anterior' }).click();
      await expect(dots.nth(2)).toHaveAttribute('aria-current', 'true');
    });
  }
});
