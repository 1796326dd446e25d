import { expect, test } from './support/fixtures';

test.describe('findable', () => {
  test('title, description, canonical, Open Graph and Twitter card', async ({
    page,
    request,
    baseURL,
  }) => {
    await page.goto('/');
    const meta = (selector: string) => page.locator(selector).first().getAttribute('content');
    expect(await page.title()).toMatch(/Impulso Digital/);
    expect(await meta('meta[name="description"]')).toMatch(/clientes/);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(canonical).toMatch(/^https?:\/\/[^/]+\/?$/);
    expect(await meta('meta[property="og:locale"]')).toBe('es_MX');
    expect(await meta('meta[property="og:type"]')).toBe('website');
    expect(await meta('meta[name="twitter:card"]')).toBe('summary_large_image');
    expect(await meta('meta[name="theme-color"]')).toBe('#0b3b60');
    expect(await meta('meta[property="og:image:width"]')).toBe('1200');
    expect(await meta('meta[property="og:image:height"]')).toBe('630');

    const ogImage = new URL((await meta('meta[property="og:image"]')) ?? '');
    const image = await request.get(`${baseURL}${ogImage.pathname}${ogImage.search}`);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');
    const twitterImage = new URL((await meta('meta[name="twitter:image"]')) ?? '');
    expect(
      (await request.get(`${baseURL}${twitterImage.pathname}${twitterImage.search}`)).status(),
    ).toBe(200);

    await expect(page.locator('link[rel="icon"]').first()).toHaveAttribute('href', /icon/);
    await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute(
      'href',
      /apple-icon/,
    );
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', /manifest/);
  });

  test('robots.txt and sitemap.xml', async ({ request }) => {
    const robots = await request.get('/robots.txt', { maxRedirects: 0 });
    expect(robots.status()).toBe(200);
    expect(await robots.text()).toMatch(/Sitemap: https?:\/\/.+\/sitemap\.xml/);
    const sitemap = await request.get('/sitemap.xml', { maxRedirects: 0 });
    expect(sitemap.status()).toBe(200);
    expect(await sitemap.text()).toMatch(/<loc>https?:\/\/[^<]+\/<\/loc>/);
  });

  test('JSON-LD describes the agency in Polanco', async ({ page }) => {
    await page.goto('/');
    const json = await page.locator('script[type="application/ld+json"]').textContent();
    const data = JSON.parse(json ?? '{}');
    expect(data['@type']).toBe('ProfessionalService');
    expect(data.address.postalCode).toBe('11550');
    expect(data.address.addressLocality).toMatch(/Polanco/);
    expect(data.telephone).toMatch(/^\+52/);
    expect(data.email).toMatch(/@/);
    expect(data.hasOfferCatalog.itemListElement).toHaveLength(3);
  });

  test('the JSON-LD is written once: in the HTML, not again in the RSC payload, nor in the scripts', async ({
    page,
    request,
  }) => {
    const html = await (await request.get('/')).text();
    expect(html.split('ProfessionalService').length - 1).toBe(1);
    const scripts: string[] = [];
    page.on('response', async (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push(await response.text().catch(() => ''));
    });
    await page.goto('/', { waitUntil: 'networkidle' });
    // Still there after hydration: the client component leaves the server's text alone.
    await expect(page.locator('form:has(#contacto-name) button[type="submit"]')).toBeDisabled(); // hydrated
    expect(await page.locator('script[type="application/ld+json"]').textContent()).toContain(
      '"@type":"ProfessionalService"',
    );
    expect(scripts.filter((script) => script.includes('OfferCatalog'))).toEqual([]);
  });

  test('one h1 and no skipped heading levels', async ({ page }) => {
    await page.goto('/');
    const levels = await page
      .locator('h1, h2, h3, h4, h5, h6')
      .evaluateAll((els) => els.map((el) => Number(el.tagName[1])));
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    expect(levels[0]).toBe(1);
    levels
      .slice(1)
      .forEach((level, index) => expect(level - (levels[index] ?? 1)).toBeLessThanOrEqual(1));
  });

  test('every image has its size; images below the fold load lazily', async ({ page }) => {
    await page.goto('/');
    const images = await page.locator('img').evaluateAll((imgs) =>
      imgs.map((img) => ({
        src: img.getAttribute('src'),
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
        loading: img.getAttribute('loading'),
        top: img.getBoundingClientRect().top + window.scrollY,
      })),
    );
    for (const image of images) {
      expect([image.src, Number(image.width) > 0, Number(image.height) > 0]).toEqual([
        image.src,
        true,
        true,
      ]);
      if (image.top > 1200) expect([image.src, image.loading]).toEqual([image.src, 'lazy']);
    }
  });
});
