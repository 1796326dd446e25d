import { E2E_CONFIG } from './support/test-env';
import { expect, test } from './support/fixtures';

test.describe('the landing page', () => {
  test('is in Spanish with real metadata', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es-MX');
    await expect(page).toHaveTitle(/clientes|páginas web|publicidad/i);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length).toBeGreaterThan(80);
    await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'es_MX');
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /.+/);
  });

  test('shows every section in order', async ({ page }) => {
    await page.goto('/');
    const headings = [
      page.getByRole('heading', { level: 1, name: /nuevos clientes para tu negocio/i }),
      page.getByRole('heading', { level: 2, name: /atrae clientes potenciales/i }),
      page.getByRole('heading', { level: 2, name: /clientes que ya disfrutan los beneficios/i }),
      page.getByRole('heading', { level: 2, name: /nuestros servicios/i }),
      page.getByRole('heading', {
        level: 2,
        name: /marketing digital contra marketing tradicional/i,
      }),
    ];
    const tops: number[] = [];
    for (const heading of headings) {
      await expect(heading).toBeVisible();
      tops.push((await heading.boundingBox())?.y ?? -1);
    }
    expect([...tops].sort((a, b) => a - b)).toEqual(tops);

    // The carousels sit under their headings: clients first, partners last.
    const clients = page.getByRole('region', { name: 'Logotipos de clientes' });
    const partners = page.getByRole('region', { name: 'Certificaciones y socios' });
    const clientsTop = (await clients.boundingBox())?.y ?? 0;
    const partnersTop = (await partners.boundingBox())?.y ?? 0;
    expect(clientsTop).toBeGreaterThan(tops[2] ?? 0);
    expect(clientsTop).toBeLessThan(tops[3] ?? 0);
    expect(partnersTop).toBeGreaterThan(tops[4] ?? 0);
  });

  test('is whole in the server HTML: every section shows without JavaScript', async ({
    browser,
    baseURL,
    request,
  }) => {
    // React moves a large Suspense boundary to the end of the document and
    // reveals it with a script; none of the page may depend on that.
    const html = await (await request.get('/')).text();
    expect(html).not.toContain('<!--$?-->');
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${baseURL}/`);
    for (const name of [
      /nuevos clientes/i,
      /atrae clientes/i,
      /disfrutan los beneficios/i,
      /nuestros servicios/i,
      /marketing digital contra/i,
    ]) {
      await expect(page.getByRole('heading', { name })).toBeVisible();
    }
    await expect(page.getByRole('region', { name: 'Certificaciones y socios' })).toBeVisible();
    await expect(page.locator('footer')).toBeVisible();
    await context.close();
  });

  test('hero has the contact details and the form slot', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('section').filter({ has: page.getByRole('heading', { level: 1 }) });
    const details = hero.getByRole('list');
    await expect(details.locator('a[href^="mailto:"]')).toHaveText(/@/);
    await expect(details.locator('a[href^="tel:"]')).toBeVisible();
    await expect(hero.locator('address')).toContainText('Polanco');
    await expect(hero.locator('address')).toContainText('Ciudad de México');
    await expect(hero.locator('address')).toContainText('11550');
    await expect(hero.locator('#contacto')).toBeVisible();
  });

  test('states the claims of the spec', async ({ page }) => {
    await page.goto('/');
    const body = page.locator('body');
    await expect(body).toContainText(/más de 14 años de experiencia/i);
    await expect(body).toContainText(/asesoría gratis/i);
    await expect(body).toContainText(/asesor se pondrá en contacto/i);
  });

  test('benefits come with the responsive-web image', async ({ page }) => {
    await page.goto('/');
    const image = page.getByRole('img', { name: /computadora, tableta y celular/i });
    await image.scrollIntoViewIfNeeded();
    await expect(image).toBeVisible();
    expect(
      await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
  });

  test('three service blocks whose icons flip on hover', async ({ page }) => {
    await page.goto('/');
    const services = page.getByRole('heading', { level: 3 });
    await expect(services.filter({ hasText: 'Diseño de páginas web' })).toBeVisible();
    await expect(services.filter({ hasText: 'Publicidad en buscadores' })).toBeVisible();
    await expect(services.filter({ hasText: 'Publicidad en Facebook' })).toBeVisible();
    await expect(page.locator('body')).toContainText(/computadora, celular y tableta/);

    const card = page
      .locator('li')
      .filter({ has: page.getByRole('heading', { name: 'Publicidad en buscadores' }) });
    const icon = card.locator('[data-icon]');
    const transform = () => icon.evaluate((el) => getComputedStyle(el).transform);
    expect(await transform()).toBe('none');
    await card.hover();
    // rotateY(180deg) as a matrix3d: the x axis flips to -1.
    await expect.poll(transform).toMatch(/^matrix3d\(-1, 0, /);
  });

  test('shows the icons as server-rendered SVG drawn from the icon sprite', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    for (const name of [/twitter/i, /facebook/i]) {
      await expect(page.getByRole('link', { name }).locator('svg')).toHaveCount(1);
    }
    await expect(page.locator('a[href^="mailto:"]').locator('..').locator('svg')).toHaveCount(1);

    const sprite = await request.get('/icons.svg');
    expect(sprite.headers()['content-type']).toContain('image/svg+xml');
    const symbols = new Set(
      [...(await sprite.text()).matchAll(/<symbol id="([^"]+)"/g)].map((match) => match[1]),
    );
    const uses = await page
      .locator('svg use')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('href') ?? ''));
    expect(uses.length).toBeGreaterThanOrEqual(12);
    for (const href of uses) expect([href, symbols.has(href.split('#')[1])]).toEqual([href, true]);
    // Drawn for real: the phone icon's <use> has content once the sprite has arrived.
    const phone = page.locator('a[href^="tel:"]').locator('..').locator('svg use');
    await expect
      .poll(() => phone.evaluate((use) => (use as SVGUseElement).getBBox().width))
      .toBeGreaterThan(0);
  });

  test('footer: dark, with the brand and a teal privacy link opening in a new tab', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    const footer = page.locator('footer');
    const background = await footer.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r = 255, g = 255, b = 255] = background.match(/\d+/g)?.map(Number) ?? [];
    expect(0.2126 * r + 0.7152 * g + 0.0722 * b).toBeLessThan(60);
    await expect(footer).toContainText('Impulso Digital');

    const privacy = footer.getByRole('link', { name: 'AVISO DE PRIVACIDAD' });
    await expect(privacy).toHaveAttribute('target', '_blank');
    await expect(privacy).toHaveAttribute('rel', /noopener/);
    await expect(privacy).toHaveAttribute('rel', /noreferrer/);
    const color = await privacy.evaluate((el) => getComputedStyle(el).color);
    const [cr = 0, cg = 0, cb = 0] = color.match(/\d+/g)?.map(Number) ?? [];
    expect(cg).toBeGreaterThan(cr + 80); // teal: green and blue well above red
    expect(cb).toBeGreaterThan(cr + 80);

    const [notice] = await Promise.all([context.waitForEvent('page'), privacy.click()]);
    await notice.waitForLoadState();
    expect(new URL(notice.url()).pathname).toBe(E2E_CONFIG.privacyNoticeUrl);
    await expect(notice.getByRole('heading', { level: 1 })).toHaveText('Aviso de privacidad');
  });

  test('floating chat button opens WhatsApp in a new tab and records the event', async ({
    page,
    context,
  }) => {
    await page.goto('/');
    const chat = page.getByRole('link', { name: 'Llama/escribenos' });
    await expect(chat).toBeVisible();
    await expect(chat).toHaveAttribute('href', E2E_CONFIG.whatsappUrl);
    await expect(chat).toHaveAttribute('target', '_blank');
    await expect(chat).toHaveAttribute('rel', /noopener/);

    const box = await chat.boundingBox();
    const viewport = page.viewportSize();
    expect(box && viewport && box.x + box.width > viewport.width - 40).toBeTruthy();
    expect(box && viewport && box.y + box.height > viewport.height - 40).toBeTruthy();
    expect(await chat.evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(await chat.evaluate((el) => getComputedStyle(el).borderRadius)).toBe('50%');

    const [popup] = await Promise.all([context.waitForEvent('page'), chat.click()]);
    expect(popup.url()).toContain('wa.me');
    // Sent before analytics has loaded (6 s): queued in gtag's dataLayer, not lost.
    const events = await page.evaluate(() =>
      (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>)),
    );
    expect(events).toContainEqual(['event', 'whatsapp', {}]);
  });

  test("the floating chat's icon and label keep their place whatever part of the label the first paint has", async ({
    page,
  }) => {
    // It comes last in the HTML: a first paint can have only "Llama/" of its label (a shift seen at 1280px).
    await page.goto('/');
    // A handle: the locator's name would no longer match once the label is cut.
    const chat = await page.getByRole('link', { name: 'Llama/escribenos' }).elementHandle();
    if (!chat) throw new Error('no floating chat');
    const boxes = () =>
      chat.evaluate((link) =>
        [link.querySelector('svg'), link.querySelector('span')].map((el) =>
          JSON.stringify(el?.getBoundingClientRect()),
        ),
      );
    const whole = await boxes();
    const label = await chat.evaluate(
      (link) => (link.querySelector('span') as HTMLElement).outerHTML,
    );
    // The icon alone (the label not parsed yet), then half the label, then all of it.
    await chat.evaluate((link) => link.querySelector('span')?.remove());
    expect((await boxes())[0]).toEqual(whole[0]);
    await chat.evaluate((link) => link.insertAdjacentHTML('beforeend', '<span></span>'));
    await chat.evaluate(
      (link, html) =>
        ((link.querySelector('span') as HTMLElement).outerHTML = html.replace(
          /<wbr>.*<\/span>$/,
          '</span>',
        )),
      label,
    );
    expect(await chat.evaluate((link) => link.textContent)).toBe('Llama/');
    expect(await boxes()).toEqual(whole);
    await chat.evaluate(
      (link, html) => ((link.querySelector('span') as HTMLElement).outerHTML = html),
      label,
    );
    expect(await boxes()).toEqual(whole);
  });
});

test.describe('the sticky header', () => {
  test('is 100px, shrinks to 75px past 120px of scroll and grows back', async ({ page }) => {
    await page.goto('/');
    const header = page.locator('header');
    const height = () => header.evaluate((el) => el.getBoundingClientRect().height);
    expect(await header.evaluate((el) => getComputedStyle(el).position)).toBe('sticky');
    expect(await header.evaluate((el) => getComputedStyle(el).transitionDuration)).toContain(
      '0.5s',
    );
    expect(await height()).toBe(100);

    await page.evaluate(() => window.scrollTo(0, 120));
    await page.waitForTimeout(700);
    expect(await height()).toBe(100);

    await page.evaluate(() => window.scrollTo(0, 400));
    await expect.poll(height).toBe(75);
    // Still at the top of the viewport, above the content.
    expect(await header.evaluate((el) => el.getBoundingClientRect().top)).toBe(0);
    const topElement = await page.evaluate(
      () => document.elementFromPoint(200, 30)?.closest('header') !== null,
    );
    expect(topElement).toBe(true);

    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(height).toBe(100);
  });

  test('does not move the content while it shrinks', async ({ page }) => {
    await page.goto('/');
    const services = page.getByRole('heading', { name: 'Nuestros servicios' });
    const docTop = () => services.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    const before = await docTop();
    await page.evaluate(() => window.scrollTo(0, 300));
    await expect
      .poll(() => page.locator('header').evaluate((el) => el.getBoundingClientRect().height))
      .toBe(75);
    expect(await docTop()).toBe(before);
  });

  test('shows the promo image on wide screens only', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    const promo = page.locator('header').getByRole('img', { name: /asesoría gratis/i });
    await expect(promo).toBeVisible();
    await expect(
      page.locator('header').getByRole('img', { name: /Impulso Digital/ }),
    ).toBeVisible();
    await page.setViewportSize({ width: 375, height: 740 });
    await expect(promo).toBeHidden();
    await expect(
      page.locator('header').getByRole('img', { name: /Impulso Digital/ }),
    ).toBeVisible();
  });
});
