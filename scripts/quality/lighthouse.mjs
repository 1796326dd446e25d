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
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, chromiumPath } from '../chromium.mjs';

const SCORE_METRICS = ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index'];

export async function lighthouseRun(url, throttlingMethod) {
  const started = Date.now();
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: ['--headless=new', '--disable-dev-shm-usage', ...CHROMIUM_ARGS],
  });
  try {
    const { lhr } = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      throttlingMethod,
      // The applied-throttling runs measure speed only (the five metrics the
      // performance score is made of); the categories come from the simulated runs.
      ...(throttlingMethod === 'devtools' ? { onlyCategories: ['performance'], onlyAudits: SCORE_METRICS } : {}),
    });
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id) => lhr.audits[id];
    const score = (id) => lhr.categories[id]?.score ?? null;
    const seconds = Math.round((Date.now() - started) / 100) / 10;
    const blocking = (audit('render-blocking-insight') ?? audit('render-blocking-resources'))?.details?.items ?? [];
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(audit('largest-contentful-paint').numericValue),
      fcpMs: Math.round(audit('first-contentful-paint').numericValue),
      tbtMs: Math.round(audit('total-blocking-time').numericValue),
      cls: Number(audit('cumulative-layout-shift').numericValue.toFixed(4)),
      seconds,
      renderBlocking: blocking.map((item) => item.url).filter(Boolean),
      failedAudits: Object.values(lhr.categories)
        .flatMap((category) => category.auditRefs.map((ref) => ref.id))
        .filter((id) => audit(id)?.scoreDisplayMode === 'binary' && audit(id)?.score === 0),
    };
  } finally {
    await chrome.kill();
  }
}

export function median(values) {
  const sorted = values.filter((value) => typeof value === 'number').sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
