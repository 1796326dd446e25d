import { expect, test } from './support/fixtures';

test.describe('routes', () => {
  test('/ is the home page', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('/home redirects to /', async ({ page }) => {
    await page.goto('/home');
    expect(new URL(page.url()).pathname).toBe('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('an unknown path redirects to / and keeps the query string', async ({ page }) => {
    await page.goto('/x/y?utm_source=a');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/');
    expect(url.search).toBe('?utm_source=a');
  });

  test('answers redirects without following them, with the right status', async ({ request }) => {
    const home = await request.get('/home?gclid=abc', { maxRedirects: 0 });
    expect(home.status()).toBe(308);
    expect(home.headers().location).toBe('/?gclid=abc');
    const unknown = await request.get('/servicios/diseno', { maxRedirects: 0 });
    expect(unknown.status()).toBe(307);
    expect(unknown.headers().location).toBe('/');
  });

  test('static files are served, not redirected', async ({ request }) => {
    for (const path of ['/images/logo.svg', '/images/clients/cafe-la-esquina.svg', '/icon.svg']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect([path, response.status()]).toEqual([path, 200]);
    }
  });

  test('a missing file is a 404, not a redirect to the page', async ({ request }) => {
    const response = await request.get('/images/no-existe.svg', { maxRedirects: 0 });
    expect(response.status()).toBe(404);
  });

  test('an address no route serves is a 404 in Spanish, with the way home', async ({ page }) => {
    // The proxy sends unknown pages to `/`; these it leaves alone (an API path, a file name), so Next answers them.
    for (const path of ['/api/nada', '/nada.txt']) {
      const response = await page.goto(path);
      expect([path, response?.status()]).toEqual([path, 404]);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es-MX');
      await expect(page).toHaveTitle('Página no encontrada | Impulso Digital');
      await expect(
        page.getByRole('heading', { level: 1, name: 'No encontramos esta página' }),
      ).toBeVisible();
      await expect(page.getByRole('link', { name: 'Ir a la página de inicio' })).toHaveAttribute(
        'href',
        '/',
      );
      await expect(page.getByText('could not be found')).toHaveCount(0);
    }
  });

  test("the home page carries Spanish not-found copy, not Next's English default", async ({
    request,
  }) => {
    // Next sends the root not-found page's tree in the flight data of every page: app/not-found.tsx keeps it small.
    const html = await (await request.get('/')).text();
    expect(html).not.toContain('This page could not be found');
    expect(html).toContain('No encontramos esta página');
  });

  test('only GET and HEAD are redirected', async ({ request }) => {
    const head = await request.head('/home', { maxRedirects: 0 });
    expect(head.status()).toBe(308);
    const post = await request.post('/home', { maxRedirects: 0, data: {} });
    expect(post.status()).not.toBe(307);
    expect(post.status()).not.toBe(308);
  });
});
