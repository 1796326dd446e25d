import { expect, test } from './support/fixtures';
import { AGAINST_DEPLOYMENT, NO_TAGS_URL } from './support/test-env';

/*
 * Nothing runs on the main thread that the visitor did not ask for (issue
 * #15): a visitor who stays at the top of the page, not scrolling, not
 * typing, sees no long task once the page has settled, on a CPU four times
 * slower than the test machine's.
 *
 * Against the build without third-party IDs: in the main test build the
 * spec's 6 s 'loaded' flag adds the tags (empty stand-ins here, which still
 * cost long tasks of 50-160 ms at 4x), and this test is about the site's own
 * code.
 */
test.skip(AGAINST_DEPLOYMENT, 'A deployment has its own third-party tags, which the 6 s flag adds.');
test.use({ baseURL: NO_TAGS_URL });

/** From the load event: long enough for hydration and its effects, short enough to catch anything started "when idle". */
const SETTLE_MS = 1000;
const WATCH_MS = 15_000;

type LongTask = { start: number; duration: number };

declare global {
  interface Window {
    __longTasks?: LongTask[];
  }
}

for (const width of [390, 1280]) {
  test(`no long task for 15 s at the top of the page once it has settled, at ${width}px and 4x CPU`, async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    // Every long task from the start, so the report can show what came before the settle too.
    await page.addInitScript(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
          window.__longTasks?.push({ start: Math.round(entry.startTime), duration: Math.round(entry.duration) });
        }
      }).observe({ type: 'longtask' });
    });
    await page.setViewportSize({ width, height: width < 700 ? 844 : 900 });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

    await page.goto('/', { waitUntil: 'load' });
    const loadedAt = await page.evaluate(() => performance.getEntriesByType('navigation')[0]?.duration ?? performance.now());
    const settledAt = loadedAt + SETTLE_MS;
    await page.waitForFunction((until) => performance.now() >= until, settledAt + WATCH_MS, { polling: 250, timeout: 40_000 });

    const tasks = await page.evaluate(() => window.__longTasks ?? []);
    // What the page fetched after its load event, to tell what the long tasks were.
    const fetched = await page.evaluate((after) =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime > after)
        .map((entry) => `${Math.round(entry.startTime)} ${entry.name.replace(location.origin, '')}`),
    loadedAt);
    const watched = tasks.filter((task) => task.start >= settledAt && task.start < settledAt + WATCH_MS);
    await testInfo.attach('long tasks', {
      body: JSON.stringify({ loadedAt: Math.round(loadedAt), settledAt: Math.round(settledAt), tasks, fetched }, null, 2),
      contentType: 'application/json',
    });
    console.log(`${width}px: load at ${Math.round(loadedAt)} ms; long tasks (start ms: duration ms): ${JSON.stringify(tasks)}; fetched after load: ${JSON.stringify(fetched)}`);
    expect(await page.evaluate(() => window.scrollY), 'the visitor never left the top of the page').toBe(0);
    expect(watched, `long tasks between ${Math.round(settledAt)} and ${Math.round(settledAt + WATCH_MS)} ms`).toEqual([]);
  });
}
