import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { PICTURES_DIR, PICTURES_URL } from './support/test-env';

/*
 * The site with the agency's own pictures: a 2,000-px JPEG, a PNG logo and
 * promo, six PNG client logos of every shape (e2e/support/pictures-app.mjs
 * makes them and builds the site with them). What a phone downloads of them,
 * in which format and at which size, and that none of them moves or stretches
 * anything.
 */

/**
 * The image bytes of a full scroll on a phone (390px, DPR 2) with the large
 * pictures: 10,073 B when this was written (their files weigh 2.97 MB). The
 * same scroll with the SVG placeholders is the quality run's image budget.
 * Raised only on purpose, with the reason (docs/testing.md, "Raising a budget").
 */
const PHONE_IMAGE_BYTES_BUDGET = 11_000;

type Fixture = { width: number; height: number; bytes: number };
const fixtures = (): Record<string, Fixture> =>
  JSON.parse(readFileSync(path.join(PICTURES_DIR, 'fixtures.json'), 'utf8'));

/** The fixture a picture's address names (its file's name survives in the optimiser's URL), if it is one. */
function fixtureOf(src: string): [string, Fixture] | undefined {
  const address = decodeURIComponent(src);
  return Object.entries(fixtures()).find(([file]) =>
    address.includes(`/${path.basename(file, path.extname(file))}.`),
  );
}

type Shot = {
  alt: string;
  src: string;
  width: number;
  height: number;
  fileWidth: number;
  complete: boolean;
};
const pictures = (page: Page): Promise<Shot[]> =>
  page.locator('img').evaluateAll((imgs) =>
    Promise.all(
      (imgs as HTMLImageElement[]).map(async (img) => {
        // Its layout box: the header's logo is scaled down by a transform once the page scrolls.
        const rect = img.getBoundingClientRect();
        const scale = img.offsetWidth > 0 ? rect.width / img.offsetWidth : 1;
        // The file's own pixels (naturalWidth of a srcset picture is divided by its density).
        let fileWidth = 0;
        if (img.complete && img.naturalWidth > 0 && !img.currentSrc.startsWith('data:')) {
          const probe = new Image();
          probe.src = img.currentSrc;
          await probe.decode().catch(() => undefined);
          fileWidth = probe.naturalWidth;
        }
        return {
          alt: img.alt,
          src: img.currentSrc,
          width: rect.width / scale,
          height: rect.height / scale,
          fileWidth,
          complete: img.complete,
        };
      }),
    ),
  );

/**
 * Layout shifts once the HTML is parsed, each with what moved (for the failure's message). The tests
 * hold the pictures until then, so none can arrive earlier; before it, a paint between two chunks of
 * parsing can show a centred icon before its text (the send button's, 30px: CLS 0.00001, 1 run in
 * 30 at 1280px), which is the parser's, not a picture's.
 */
async function recordShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: Array<{ value: number; moved: string[]; at: number }> = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    const describe = (node: Node | null) => {
      if (!(node instanceof Element)) return String(node?.nodeName ?? 'gone');
      return `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${node.className && typeof node.className === 'string' ? `.${node.className.trim().split(/\s+/).join('.')}` : ''}`;
    };
    type Source = {
      node: Node | null;
      previousRect: DOMRectReadOnly;
      currentRect: DOMRectReadOnly;
    };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<
        PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Source[] }
      >) {
        if (entry.hadRecentInput) continue;
        const moved = entry.sources.map(
          ({ node, previousRect: a, currentRect: b }) =>
            `${describe(node)} ${a.x},${a.y} ${a.width}x${a.height} -> ${b.x},${b.y} ${b.width}x${b.height} at scrollY ${Math.round(window.scrollY)}`,
        );
        shifts.push({ value: entry.value, moved, at: entry.startTime });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return () =>
    page.evaluate(() => {
      const parsed = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
        .domInteractive;
      return (
        window as unknown as { __shifts: Array<{ value: number; moved: string[]; at: number }> }
      ).__shifts.filter(({ at }) => at >= parsed);
    });
}

const shiftScore = (shifts: Array<{ value: number }>) =>
  shifts.reduce((sum, { value }) => sum + value, 0);
/** The layout shift a person notices (Google calls up to 0.1 good): below it, a sub-pixel move is nobody's concern. */
const NOTICEABLE_SHIFT = 0.01;

/** Holds every picture's response until `release()`: the boxes are measured before any picture arrives. */
async function holdPictures(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) =>
      url.pathname === '/_next/image' ||
      /^\/_next\/static\/media\/.+\.(svg|png|jpe?g|webp|avif)$/.test(url.pathname),
    async (route) => {
      await gate;
      await route.continue();
    },
  );
  return release;
}

/** Scrolls to the bottom as a visitor would, then waits for what that asked for. */
async function scrollThrough(page: Page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y <= height; y += 300) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(60);
  }
  await page.waitForLoadState('networkidle');
}

const sizes = (shots: Shot[]) =>
  shots.map(({ alt, width, height }) => ({
    alt,
    width: Math.round(width * 2) / 2,
    height: Math.round(height * 2) / 2,
  }));

test.describe('the agency’s own pictures on a phone (390px, DPR 2)', () => {
  // Reduced motion: no autoplay bringing in more logos while the test scrolls, so the bytes are the same on any machine.
  test.use({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    reducedMotion: 'reduce',
  });

  test('each is served in AVIF at no more than twice its drawn width, nothing moves, and a full scroll stays within its image budget', async ({
    page,
  }) => {
    const images: Array<{ url: string; type: string; bytes: number }> = [];
    page.on('requestfinished', async (request) => {
      if (request.resourceType() !== 'image' || request.url().startsWith('data:')) return;
      const response = await request.response();
      images.push({
        url: request.url(),
        type: response?.headers()['content-type'] ?? '',
        bytes: (await request.sizes()).responseBodySize,
      });
    });
    const shifts = await recordShifts(page);
    const release = await holdPictures(page);

    await page.goto(PICTURES_URL, { waitUntil: 'domcontentloaded' });
    // The CSS below the fold comes after the first paint (scripts/build/css-later.ts), and it sizes the client logos'
    // boxes: they are measured once it is in, as a visitor who scrolls down finds them. The pictures stay held.
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[data-css-later]')].every(
        (link) => link.media === 'all',
      ),
    );
    const before = await pictures(page);
    // The headings' web font in before the scroll: arriving during it, it rewraps the benefits heading at
    // 390px (2 lines in the fallback, 3 in Montserrat) and moves the list under it, which is font-display:
    // swap's trade-off (docs/architecture.md, "Fonts"), not a picture's. It came late here only because
    // this server's optimiser was encoding the held pictures (1 run in 10; the list moved 31px).
    await page.evaluate(() =>
      Promise.all([...document.fonts].map((face) => face.load().catch(() => undefined))),
    );
    release();
    await scrollThrough(page);
    const after = await pictures(page);

    // Every box was reserved before its picture arrived: same sizes once they are all in, and no shift.
    expect(sizes(after)).toEqual(sizes(before));
    const moved = await shifts();
    expect(shiftScore(moved), JSON.stringify(moved, null, 2)).toBeLessThanOrEqual(NOTICEABLE_SHIFT);

    const served = after.filter((shot) => shot.fileWidth > 0 && shot.src.includes('/_next/image'));
    // The logo, the benefits picture and the first client logo at least.
    expect(served.length).toBeGreaterThanOrEqual(3);
    expect(served.map(({ alt }) => alt)).toEqual(
      expect.arrayContaining([
        'Impulso Digital, agencia de marketing digital',
        'Una misma página web mostrada en computadora, tableta y celular',
        'Café La Esquina',
      ]),
    );
    const report = served.map(
      (shot) => `${shot.alt}: drawn ${shot.width}px wide, file ${shot.fileWidth}px`,
    );
    console.log(`  pictures at 390px DPR 2:\n    ${report.join('\n    ')}`);
    for (const shot of served) {
      expect(shot.fileWidth, `${shot.alt}: ${report.join('; ')}`).toBeLessThanOrEqual(
        2 * shot.width + 1,
      );
      // Sharp on a 2x screen: no less than 1.5x (the file itself is the limit for a small one).
      const fixture = fixtureOf(shot.src)?.[1];
      expect(shot.fileWidth, shot.alt).toBeGreaterThanOrEqual(
        Math.min(1.5 * shot.width, fixture?.width ?? Infinity) - 1,
      );
      // Not stretched: the box has the file's shape.
      if (fixture)
        expect(
          Math.abs(shot.width / shot.height - fixture.width / fixture.height) /
            (fixture.width / fixture.height),
          shot.alt,
        ).toBeLessThan(0.02);
    }

    const optimised = images.filter(({ url }) => url.includes('/_next/image'));
    expect(optimised.length).toBeGreaterThanOrEqual(3);
    for (const { url, type } of optimised) expect([url, type]).toEqual([url, 'image/avif']);
    // The promo is hidden on a phone, and never downloaded.
    expect(images.filter(({ url }) => url.includes('promo'))).toEqual([]);

    const total = images.reduce((sum, { bytes }) => sum + bytes, 0);
    const largest = Object.values(fixtures()).reduce((sum, { bytes }) => sum + bytes, 0);
    console.log(
      `  image bytes of a full scroll at 390px DPR 2: ${total} B in ${images.length} files (budget ${PHONE_IMAGE_BYTES_BUDGET} B; the pictures' own files: ${largest} B)`,
    );
    expect(total).toBeLessThanOrEqual(PHONE_IMAGE_BYTES_BUDGET);
  });
});

test.describe('the agency’s own pictures on a desktop (1280px)', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('the header stays 100px, the promo shows, nothing moves as the pictures arrive and nothing is stretched', async ({
    page,
  }) => {
    const shifts = await recordShifts(page);
    const release = await holdPictures(page);
    await page.goto(PICTURES_URL, { waitUntil: 'domcontentloaded' });
    release();
    await expect(page.locator('header')).toHaveJSProperty('offsetHeight', 100);
    const promo = page.locator('header').getByRole('img', { name: /asesoría gratis/i });
    await expect(promo).toBeVisible();
    await expect
      .poll(() => promo.evaluate((img: HTMLImageElement) => img.currentSrc))
      .toContain('/_next/image');
    await expect
      .poll(() => promo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
      .toBe(true);
    // The header's pictures fit in it: 56px at most.
    for (const box of [
      await promo.boundingBox(),
      await page.locator('header img').first().boundingBox(),
    ])
      expect(box?.height).toBeLessThanOrEqual(56);
    // Nothing moved while the first screen's pictures arrived. (Scrolling then shrinks the header, which
    // moves its own pictures up by design: that is the spec's 100 -> 75px, not a picture arriving.)
    await page.waitForLoadState('networkidle');
    const moved = await shifts();
    expect(shiftScore(moved), JSON.stringify(moved, null, 2)).toBeLessThanOrEqual(NOTICEABLE_SHIFT);

    await scrollThrough(page);
    const served = (await pictures(page)).filter((shot) => shot.fileWidth > 0);
    let checked = 0;
    for (const shot of served) {
      const fixture = fixtureOf(shot.src)?.[1];
      if (!fixture) continue;
      checked++;
      const ratio = fixture.width / fixture.height;
      expect(
        Math.abs(shot.width / shot.height - ratio) / ratio,
        `${shot.alt}: ${shot.width}x${shot.height}, file ${fixture.width}x${fixture.height}`,
      ).toBeLessThan(0.02);
      expect(shot.fileWidth, shot.alt).toBeLessThanOrEqual(2 * shot.width + 1);
    }
    // The logo, the promo, the benefits picture and the four client logos in view.
    expect(checked).toBeGreaterThanOrEqual(7);
  });

  test('the client logos are where they were before the carousel starts, each slide the same size', async ({
    page,
    browser,
  }) => {
    const slides = (target: Page) =>
      target
        .locator('[aria-roledescription="carousel"]')
        .first()
        .evaluate((root) => {
          const viewport = root.querySelector('[aria-roledescription="slide"]')?.parentElement
            ?.parentElement;
          const bounds = viewport!.getBoundingClientRect();
          return Array.from(root.querySelectorAll('[aria-roledescription="slide"]'))
            .map((slide) => ({
              label: slide.getAttribute('aria-label'),
              rect: slide.getBoundingClientRect(),
              img: slide.querySelector('img')!.getBoundingClientRect(),
            }))
            .filter(({ rect }) => rect.right > bounds.left + 1 && rect.left < bounds.right - 1)
            .map(({ label, rect, img }) => ({
              label,
              left: rect.left - bounds.left,
              width: rect.width,
              height: rect.height,
              imgLeft: img.left - bounds.left,
              imgTop: img.top - rect.top,
            }))
            .sort((a, b) => a.left - b.left);
        });

    const withoutScripts = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1280, height: 900 },
    });
    const staticPage = await withoutScripts.newPage();
    await staticPage.goto(PICTURES_URL);
    const before = await slides(staticPage);
    await withoutScripts.close();

    await page.goto(PICTURES_URL);
    const region = page.locator('[aria-roledescription="carousel"]').first();
    await region.scrollIntoViewIfNeeded();
    await expect(region).toHaveAttribute('data-ready', 'true');
    const after = await slides(page);

    expect(before.length).toBeGreaterThanOrEqual(4);
    // Every slide the same size whatever its logo's shape.
    expect(
      new Set(before.map(({ width, height }) => `${Math.round(width)}x${Math.round(height)}`)).size,
    ).toBe(1);
    // Each logo in a 3:1 box, the 8:1 one included: flexbox alone gives the slides one height, but
    // the tallest logo's, so the carousel's height would follow whichever logos the agency drops in.
    const frames = await page
      .locator('[aria-roledescription="carousel"]')
      .first()
      .locator('img')
      .evaluateAll((imgs) =>
        imgs.map((img) => ({
          alt: (img as HTMLImageElement).alt,
          ratio: img.parentElement!.offsetWidth / img.parentElement!.offsetHeight,
        })),
      );
    expect(frames).toHaveLength(6);
    for (const { alt, ratio } of frames)
      expect([alt, Math.abs(ratio - 3) < 0.05]).toEqual([alt, true]);
    expect(after.map(({ label }) => label)).toEqual(before.map(({ label }) => label));
    after.forEach((slide, index) => {
      const was = before[index]!;
      // Embla measures whole pixels (offsetWidth) of fractional slides: a pixel or two.
      for (const key of ['left', 'imgLeft', 'imgTop'] as const)
        expect([slide.label, key, Math.abs(slide[key] - was[key]) <= 2]).toEqual([
          slide.label,
          key,
          true,
        ]);
    });
  });
});
