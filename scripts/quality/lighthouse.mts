// One Lighthouse run, mobile preset, in a fresh headless Chromium, reduced to
// the figures the quality budgets read.
//
// Two throttling methods, for two purposes:
// - 'devtools' (applied throttling): Chromium itself slows the network to the
//   mobile preset's slow 4G (562.5 ms request latency, 1.4 Mbps down) and the
//   CPU 4x while the page really loads. Its LCP, FCP and TBT are what a phone
//   gets, so the timing budgets read these.
// - 'simulate' (Lantern, what PageSpeed Insights shows): loads unthrottled and
//   simulates the slow phone afterwards. From 127.0.0.1 its LCP depends on
//   whether the scripts happen to finish before the first paint (a race of a
//   few ms), so only its category scores, CLS and render-blocking list gate.
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Flags } from 'lighthouse';
import { CHROMIUM_ARGS, chromiumPath } from '../../test-support/chromium';

export type ThrottlingMethod = 'devtools' | 'simulate';

export type LighthouseRun = {
  /** Category scores, 0-1; null when the category was not run (the applied runs measure performance only). */
  performance: number | null;
  accessibility: number | null;
  bestPractices: number | null;
  seo: number | null;
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  seconds: number;
  renderBlocking: string[];
  failedAudits: string[];
};

const SCORE_METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/** The `url` of each item of an audit's details, where it has one. */
function itemUrls(details: unknown): string[] {
  const items = isRecord(details) && Array.isArray(details.items) ? details.items : [];
  return items.flatMap((item: unknown) =>
    isRecord(item) && typeof item.url === 'string' && item.url ? [item.url] : [],
  );
}

export async function lighthouseRun(
  url: string,
  throttlingMethod: ThrottlingMethod,
): Promise<LighthouseRun> {
  const started = Date.now();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ['--headless=new', '--disable-dev-shm-usage', ...CHROMIUM_ARGS],
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      throttlingMethod,
      // The applied-throttling runs measure speed only (the five metrics the
      // performance score is made of); the categories come from the simulated runs.
      ...(throttlingMethod === 'devtools'
        ? { onlyCategories: ['performance'], onlyAudits: SCORE_METRICS }
        : {}),
    };
    const result = await lighthouse(url, flags);
    if (!result) throw new Error(`Lighthouse returned no result for ${url}`);
    const { lhr } = result;
    if (lhr.runtimeError)
      throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id];
    const score = (id: string) => lhr.categories[id]?.score ?? null;
    // NaN where an audit gave no value: it fails every budget it meets.
    const metric = (id: string) => audit(id)?.numericValue ?? NaN;
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(metric('largest-contentful-paint')),
      fcpMs: Math.round(metric('first-contentful-paint')),
      tbtMs: Math.round(metric('total-blocking-time')),
      cls: Number(metric('cumulative-layout-shift').toFixed(4)),
      seconds,
      renderBlocking: itemUrls(
        (audit('render-blocking-insight') ?? audit('render-blocking-resources'))?.details,
      ),
      failedAudits: Object.values(lhr.categories)
        .flatMap((category) => category.auditRefs.map((ref) => ref.id))
        .filter((id) => audit(id)?.scoreDisplayMode === 'binary' && audit(id)?.score === 0),
    };
  } finally {
    chrome.kill();
  }
}

/** The median of the numbers among `values`; null when there are none. */
export function median(values: ReadonlyArray<number | null | undefined>): number | null {
  const sorted = values
    .filter((value): value is number => typeof value === 'number')
    .sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle];
  if (upper === undefined) return null;
  return sorted.length % 2 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}
