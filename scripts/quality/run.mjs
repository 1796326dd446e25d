#!/usr/bin/env node
// The quality budgets of the production build. Every speed figure is compared
// with a bare Next.js page (one <h1>, same Next and React) built and measured
// in the same run, interleaved, so the gate measures the page and not the
// machine: the machines this runs on differ up to 4x in speed.
//
// Interactions are compared with a floor: the form's four fields on a page
// with no JavaScript, served by the bare app.
//
// Prints one table (figure, project, bare or floor, ratio or difference,
// budget, headroom, verdict), the goals, and the closing line
// `N passed, M failed`; exits 1 on a failure.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isolatedProcessEnv } from '../../test-support/isolated-env.mjs';
import { makeBareApp } from './bare-app.mjs';
import { interactionFlow } from './flows.mjs';
import { imageBytes } from './image-bytes.mjs';
import { lighthouseRun, median } from './lighthouse.mjs';
import { pageWeight } from './page-weight.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// Applied-throttling runs per page (median); 5 is the least that a single
// disturbed run cannot move. Simulated runs only feed scores that barely vary.
const RUNS = Math.max(5, Number(process.env.QUALITY_RUNS ?? 5));
const SIMULATED_RUNS = Math.max(1, Number(process.env.QUALITY_SIMULATED_RUNS ?? 3));
// User flows per page (median per step); each takes about a minute on the app.
const FLOW_RUNS = Math.max(3, Number(process.env.QUALITY_FLOW_RUNS ?? 3));
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const APP_PORT = 3401 + OFFSET;
const BARE_PORT = 3402 + OFFSET;

/*
 * The budgets. Deterministic figures (bytes) are absolute and sit just above
 * today's: they ratchet, and are raised only on purpose (docs/testing.md, "Raising a
 * budget"). Timing figures are read under applied throttling and budgeted
 * against the bare page or the no-JavaScript floor of the same run: a ratio
 * for the paints and TBT, a difference for INP and the score. The margins
 * were calibrated on this page (docs/testing.md, "Quality budgets").
 */
const BUDGET = {
  jsOverBare: 15_000, // +12.8 kB at issue #15
  htmlGzip: 16_300, // 15.5 kB after issue #15; 16.0 kB at issue #16: hashed picture addresses (cached a year), written twice
  imageBytes: 13_000, // 12.6 kB at issue #15 and 12.7 kB at #16: SVG placeholders
  // Busy core: x1.11-1.30 measured; a 500 ms blocking script: x1.90.
  lcpRatio: 1.45,
  fcpRatio: 1.45,
  // x1.44 on an idle machine, x1.8 on a slow one. A bare TBT near 0 would make
  // any ratio explode: the denominator is at least tbtFloorMs.
  tbtRatio: 1.8,
  tbtFloorMs: 50,
  performanceUnderBare: 0.1,
  lcpMs: 2500, // Google's "good" LCP: a backstop whatever the bare page does.
  cls: 0.02,
  // Each step's INP at most this much above the floor's (the same keystrokes and clicks on a page with no JavaScript).
  inpOverFloorMs: 100,
};
// Printed, never failing: where issue #15 wants the page to end up.
const GOAL = { tbtRatio: 1.25, inpOverFloorMs: 30 };

const children = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGTERM')));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

// Each project runs its own next, so it loads its own single copy of React.
// Builds and servers get the isolated environment (test-support/isolated-env.mjs):
// nothing from .env.local, no Redis, contact API or mail server but the test's.
const nextBin = (dir) => path.join(dir, 'node_modules', '.bin', 'next');

function build(dir, env) {
  console.log(`> next build (${path.relative(root, dir) || '.'})`);
  const result = spawnSync(nextBin(dir), ['build'], {
    cwd: dir,
    env: isolatedProcessEnv(env),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`next build failed in ${dir}`);
}

async function start(dir, port, env) {
  const taken = await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false);
  if (taken) throw new Error(`Port ${port} is already in use: stop what listens there (or set TEST_PORT_OFFSET).`);
  const child = spawn(nextBin(dir), ['start', '--port', String(port), '--hostname', '127.0.0.1'], {
    cwd: dir,
    env: isolatedProcessEnv(env),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  // A server left over on the port would answer instead: measure nothing rather than the wrong build.
  let exited = null;
  child.on('exit', (code) => (exited = code));
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 150; i++) {
    if (exited !== null) throw new Error(`next start on ${port} exited (${exited}): is the port taken?`);
    try {
      if ((await fetch(url)).ok) return url;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`next start on ${port} did not answer`);
}

function validateHtml(urls) {
  const jar = path.join(root, 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');
  const result = spawnSync('java', ['-jar', jar, '--errors-only', '--format', 'json', ...urls], { encoding: 'utf8' });
  if (result.error) throw new Error(`Could not run the Nu HTML checker (java): ${result.error.message}`);
  const messages = JSON.parse(result.stderr || result.stdout || '{"messages":[]}').messages ?? [];
  return messages.filter((message) => message.type === 'error');
}

/** Runs the user flow on the app and on the floor, interleaved (app, floor, app, ...); the median per step. */
async function interleavedFlows(urls, runs) {
  const results = { app: [], floor: [] };
  const show = (step) => (step ? `INP ${step.inpMs ?? 'n/a'} ms, TBT ${step.tbtMs} ms${step.worst ? ` (${step.worst})` : ''}` : '—');
  for (let i = 0; i < runs; i++) {
    for (const name of ['app', 'floor']) {
      const run = await interactionFlow(urls[name], { carousel: name === 'app' });
      results[name].push(run);
      console.log(`  flow ${name} #${i + 1} (${run.seconds} s): typing ${show(run.typing)}; carousel ${show(run.carousel)}; sending ${show(run.sending)}, thanks after ${run.thanksMs} ms`);
    }
  }
  const medians = (list) =>
    Object.fromEntries(['typing', 'carousel', 'sending'].map((step) => [step, { inpMs: median(list.map((r) => r[step]?.inpMs)), tbtMs: median(list.map((r) => r[step]?.tbtMs)) }]));
  return { app: medians(results.app), floor: medians(results.floor) };
}

/** Runs Lighthouse on both pages, interleaved (project, bare, project, ...), so a busy spell hits both. */
async function interleaved(urls, runs, method) {
  const results = { app: [], bare: [] };
  for (let i = 0; i < runs; i++) {
    for (const [name, url] of Object.entries(urls)) {
      const run = await lighthouseRun(url, method);
      results[name].push(run);
      console.log(
        `  ${method} ${name} #${i + 1}: LCP ${run.lcpMs} ms, FCP ${run.fcpMs} ms, TBT ${run.tbtMs} ms, CLS ${run.cls}, performance ${run.performance} (${run.seconds} s)` +
          (run.failedAudits.length ? `, failed audits: ${run.failedAudits.join(' ')}` : ''),
      );
    }
  }
  const medians = (list) => Object.fromEntries(['performance', 'accessibility', 'bestPractices', 'seo', 'lcpMs', 'fcpMs', 'tbtMs', 'cls'].map((key) => [key, median(list.map((r) => r[key]))]));
  return { runs: results, app: medians(results.app), bare: medians(results.bare) };
}

const rows = [];
const goals = [];
/** One budget: `ok` decides the verdict; the rest is what the table shows (headroom: how far the figure is from the budget). */
const row = (figure, project, bare, versus, budget, headroom, ok) => rows.push({ figure, project, bare, versus, budget, headroom, ok });
const EXACT = '0 (exact)';
const ratio = (a, b) => (b > 0 ? a / b : Infinity);
const signed = (n, digits = 0) => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`;

const appEnv = {
  NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${APP_PORT}`,
  NEXT_PUBLIC_GA_MEASUREMENT_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_ID: '',
  NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: '',
  NEXT_PUBLIC_CHAT_WIDGET_SRC: '',
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: '',
  // The flows send the form: to a local inbox of this run's own, never the repository's.
  CONTACT_INBOX_DIR: mkdtempSync(path.join(tmpdir(), 'quality-inbox-')),
  // One send per flow, all from 127.0.0.1: the default 5 per 10 minutes would refuse QUALITY_FLOW_RUNS above 5.
  CONTACT_RATE_LIMIT_MAX: '1000',
};

const started = Date.now();
build(root, appEnv);
const bareDir = makeBareApp(root);
let applied;
let simulated;
try {
  build(bareDir, {});
  const urls = { app: await start(root, APP_PORT, appEnv), bare: await start(bareDir, BARE_PORT, {}) };

  const app = await pageWeight(urls.app);
  const bare = await pageWeight(urls.bare);
  console.log(`\nPage weight, bytes: ${JSON.stringify({ app, bare })}`);
  const jsOver = app.js.gzip - bare.js.gzip;
  row('JS a first visit downloads, gzip B', app.js.gzip, bare.js.gzip, signed(jsOver), `<= +${BUDGET.jsOverBare}`, `${BUDGET.jsOverBare - jsOver} B`, jsOver <= BUDGET.jsOverBare);
  const sharedTool = path.resolve(root, '..', 'shared', 'tools', 'page-weight.mjs');
  if (existsSync(sharedTool)) {
    const shared = JSON.parse(spawnSync('node', [sharedTool, urls.app], { encoding: 'utf8' }).stdout);
    row('  same by shared/tools/page-weight.mjs', shared.js.gzip, '', '', `= ${app.js.gzip}`, EXACT, shared.js.gzip === app.js.gzip);
  }
  row('HTML of /, gzip B', app.html.gzip, bare.html.gzip, signed(app.html.gzip - bare.html.gzip), `<= ${BUDGET.htmlGzip}`, `${BUDGET.htmlGzip - app.html.gzip} B`, app.html.gzip <= BUDGET.htmlGzip);

  const images = await imageBytes(urls.app);
  console.log(`\nImages a phone downloads (390 px, DPR 2, scrolled to the bottom and back), ${images.bytes} B transferred:`);
  for (const image of images.images) console.log(`  ${image.bytes} B  ${image.url}`);
  row('Images on a phone, whole page, B transferred', images.bytes, '', '', `<= ${BUDGET.imageBytes}`, `${BUDGET.imageBytes - images.bytes} B`, images.bytes <= BUDGET.imageBytes);

  console.log(`\nLighthouse, mobile preset, applied throttling (devtools), ${RUNS} runs each, interleaved:`);
  applied = await interleaved(urls, RUNS, 'devtools');
  console.log(`\nLighthouse, mobile preset, simulated throttling (what PageSpeed Insights shows), ${SIMULATED_RUNS} runs each:`);
  simulated = await interleaved(urls, SIMULATED_RUNS, 'simulate');

  const a = applied.app;
  const b = applied.bare;
  const ratioRow = (figure, project, base, budget) => {
    const r = ratio(project, base);
    row(figure, project, base, `x${r.toFixed(2)}`, `<= x${budget}`, `${(budget - r).toFixed(2)}x`, r <= budget);
  };
  ratioRow('LCP ms, applied (median)', a.lcpMs, b.lcpMs, BUDGET.lcpRatio);
  row('LCP ms, applied (median), backstop', a.lcpMs, '', '', `<= ${BUDGET.lcpMs}`, `${BUDGET.lcpMs - a.lcpMs} ms`, a.lcpMs <= BUDGET.lcpMs);
  ratioRow('FCP ms, applied (median)', a.fcpMs, b.fcpMs, BUDGET.fcpRatio);
  const tbtBase = Math.max(b.tbtMs, BUDGET.tbtFloorMs);
  const tbtRatio = ratio(a.tbtMs, tbtBase);
  row(
    `TBT ms, applied (median), vs max(bare, ${BUDGET.tbtFloorMs})`,
    a.tbtMs,
    b.tbtMs,
    `x${tbtRatio.toFixed(2)}`,
    `<= x${BUDGET.tbtRatio}`,
    `${(BUDGET.tbtRatio - tbtRatio).toFixed(2)}x`,
    tbtRatio <= BUDGET.tbtRatio,
  );
  goals.push(`TBT x${tbtRatio.toFixed(2)} of max(bare, ${BUDGET.tbtFloorMs} ms); goal <= x${GOAL.tbtRatio} (on an idle machine): ${tbtRatio <= GOAL.tbtRatio ? 'met' : 'not yet'}`);
  const performanceOver = a.performance - b.performance + BUDGET.performanceUnderBare;
  row('Performance score, applied (median)', a.performance, b.performance, signed(a.performance - b.performance, 2), `>= -${BUDGET.performanceUnderBare}`, performanceOver.toFixed(2), performanceOver >= -1e-9);
  const cls = Math.max(a.cls, simulated.app.cls);
  row('CLS (worse median of both methods)', cls, Math.max(b.cls, simulated.bare.cls), '', `<= ${BUDGET.cls}`, Number((BUDGET.cls - cls).toFixed(4)), cls <= BUDGET.cls);
  const s = simulated.app;
  row('Accessibility score (simulated median)', s.accessibility, simulated.bare.accessibility, '', '= 1', EXACT, s.accessibility === 1);
  row('Best practices score (simulated median)', s.bestPractices, simulated.bare.bestPractices, '', '= 1', EXACT, s.bestPractices === 1);
  row('SEO score (simulated median)', s.seo, simulated.bare.seo, '', '= 1', EXACT, s.seo === 1);
  const blocking = [...new Set(simulated.runs.app.flatMap((r) => r.renderBlocking))];
  // The page's own CSS is inlined; a stylesheet of its own would still be allowed.
  const foreign = blocking.filter((url) => !/^http:\/\/127\.0\.0\.1:\d+\/_next\/static\/.+\.css/.test(url));
  row('Render-blocking requests besides own CSS', foreign.length, '', foreign.join(' '), '= 0', EXACT, foreign.length === 0);

  console.log(`\nLighthouse user flows, mobile preset, applied throttling (devtools, 4x CPU), ${FLOW_RUNS} runs each, interleaved with the no-JavaScript floor:`);
  const flows = await interleavedFlows({ app: urls.app, floor: `${urls.bare}floor.html` }, FLOW_RUNS);
  for (const step of ['typing', 'carousel', 'sending']) {
    // The floor has no carousel: a click there costs what a keystroke does, so the carousel is held to the floor's typing.
    const floor = step === 'carousel' ? flows.floor.typing.inpMs : flows.floor[step].inpMs;
    const inp = flows.app[step].inpMs;
    const label = `INP ms, ${step} (median)${step === 'carousel' ? ', vs floor typing' : ''}`;
    if (inp === null || floor === null) {
      row(label, inp ?? 'n/a', floor ?? 'n/a', '', `<= floor +${BUDGET.inpOverFloorMs}`, 'n/a', false);
      continue;
    }
    const allowance = floor + BUDGET.inpOverFloorMs;
    row(label, inp, step === 'carousel' ? `— (${floor})` : floor, signed(inp - floor), `<= +${BUDGET.inpOverFloorMs} (${allowance})`, `${allowance - inp} ms`, inp <= allowance);
    goals.push(`INP ${step} ${signed(inp - floor)} ms over the floor; goal <= +${GOAL.inpOverFloorMs}: ${inp - floor <= GOAL.inpOverFloorMs ? 'met' : 'not yet'}`);
  }
  console.log(`  TBT during each step (median, printed only): ${['typing', 'carousel', 'sending'].map((step) => `${step} ${flows.app[step].tbtMs ?? '—'} ms (floor ${flows.floor[step].tbtMs ?? '—'})`).join(', ')}`);

  const htmlErrors = validateHtml([urls.app, `${urls.app}aviso-de-privacidad`, `${urls.app}gracias`]);
  for (const error of htmlErrors) console.log(`  vnu: ${error.url} ${error.lastLine}:${error.firstColumn} ${error.message}`);
  row('Nu HTML checker errors (/, notice, thanks)', htmlErrors.length, '', '', '= 0', EXACT, htmlErrors.length === 0);
} finally {
  children.forEach((child) => child.kill('SIGTERM'));
  rmSync(bareDir, { recursive: true, force: true });
  rmSync(appEnv.CONTACT_INBOX_DIR, { recursive: true, force: true });
}

if (simulated) {
  console.log('\nSimulated throttling, printed only (from 127.0.0.1 its timings race the scripts against the first paint):');
  for (const key of ['lcpMs', 'fcpMs', 'tbtMs', 'performance']) {
    console.log(`  ${key}: project ${simulated.app[key]}, bare ${simulated.bare[key]}`);
  }
}

const table = [
  ['Figure', 'Project', 'Bare/floor', 'vs bare', 'Budget', 'Headroom', 'Verdict'],
  ...rows.map((r) => [r.figure, r.project, r.bare, r.versus, r.budget, r.headroom, r.ok ? 'ok' : 'FAIL']),
].map((cells) => cells.map(String));
const widths = table[0].map((_, i) => Math.max(...table.map((cells) => cells[i].length)));
console.log('\nQuality budgets');
for (const cells of table) console.log(`  ${cells.map((cell, i) => cell.padEnd(widths[i])).join('  ')}`.trimEnd());
if (goals.length) console.log(`Goals (printed, never failing):\n${goals.map((goal) => `  ${goal}`).join('\n')}`);
const failed = rows.filter((r) => !r.ok).length;
console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
console.log(`${rows.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
