// The quality budgets of the production build. Every speed figure is compared
// with a bare Next.js page (one <h1>, same Next and React) built and measured
// in the same run, interleaved, so the gate measures the page and not the
// machine: the machines this runs on differ up to 4x in speed.
//
// Interactions are compared with a floor: the form's four fields on a page
// with no JavaScript, served by the bare app.
//
// The page measured is the end-to-end suite's `no-tags` build (every
// third-party ID empty), served on its own port so its canonical URLs match;
// both builds are made by the harness once and reused while up to date.
//
// Prints one table (figure, project, bare or floor, ratio or difference,
// budget, headroom, verdict), the goals, and the closing line
// `N passed, M failed`; exits 1 on a failure.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NO_TAGS_APP, NO_TAGS_PORT } from '../../e2e/support/test-env';
import { buildApp, ROOT, startNext, stopAll, type Server } from '../../test-support/harness';
import { BARE_APP } from './bare-app.mjs';
import { interactionFlow, type FlowRun, type StepFigures } from './flows.mjs';
import { imageBytes } from './image-bytes.mjs';
import { lighthouseRun, median, type LighthouseRun, type ThrottlingMethod } from './lighthouse.mjs';
import { pageWeight } from './page-weight.mjs';

// Applied-throttling runs per page (median); 5 is the least that a single
// disturbed run cannot move. Simulated runs only feed scores that barely vary.
const RUNS = Math.max(5, Number(process.env.QUALITY_RUNS ?? 5));
const SIMULATED_RUNS = Math.max(1, Number(process.env.QUALITY_SIMULATED_RUNS ?? 3));
// User flows per page (median per step); each takes about a minute on the app.
const FLOW_RUNS = Math.max(3, Number(process.env.QUALITY_FLOW_RUNS ?? 3));
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const BARE_PORT = 3402 + OFFSET;

/*
 * The budgets. Deterministic figures (bytes) are absolute and sit just above
 * today's: they ratchet, and are raised only on purpose (docs/testing.md, "Raising a
 * budget"). Timing figures are read under applied throttling and budgeted
 * against the bare page or the no-JavaScript floor of the same run: a ratio
 * for the paints, TBT and INP (a difference in ms grows with the machine's
 * slowness), a difference for the score. The margins
 * were calibrated on this page (docs/testing.md, "Quality budgets").
 */
const BUDGET = {
  jsOverBare: 15_000, // +12.8 kB measured
  htmlGzip: 16_300, // 16.0 kB measured: hashed picture addresses (cached a year), written twice
  imageBytes: 13_000, // 12.7 kB measured: SVG placeholders
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
  // Each step's INP at most this many times the floor's (the same keystrokes and clicks on a page with no
  // JavaScript): typing x1.6, carousel x1.9, sending x3.0 measured (x3.5 against the run's lowest floor);
  // a 150 ms loop in the change handler: typing x4.8. It was +100 ms, which the sending step met with 0 ms to spare.
  inpRatio: 4,
};
// Printed, never failing: where the page should end up.
const GOAL = { tbtRatio: 1.25, inpRatio: 1.5 };

const STEPS = ['typing', 'carousel', 'sending'] as const;
type Step = (typeof STEPS)[number];
const FIGURES = ['performance', 'accessibility', 'bestPractices', 'seo', 'lcpMs', 'fcpMs', 'tbtMs', 'cls'] as const;
type Medians = Record<(typeof FIGURES)[number], number | null>;
type StepMedians = Record<Step, { inpMs: number | null; tbtMs: number | null }>;

// The flows send the form: to a local inbox of this run's own, never the repository's.
const inbox = mkdtempSync(path.join(tmpdir(), 'quality-inbox-'));
const servers: Server[] = [];
// The harness kills the servers' process groups on exit, whatever ends the run.
process.on('exit', () => rmSync(inbox, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void stopAll(servers).then(() => process.exit(130)));

type VnuMessage = { type?: string; url?: string; lastLine?: number; firstColumn?: number; message?: string };
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function validateHtml(urls: string[]): VnuMessage[] {
  const jar = path.join(ROOT, 'node_modules', 'vnu-jar', 'build', 'dist', 'vnu.jar');
  const result = spawnSync('java', ['-jar', jar, '--errors-only', '--format', 'json', ...urls], { encoding: 'utf8' });
  if (result.error) throw new Error(`Could not run the Nu HTML checker (java): ${result.error.message}`);
  const parsed: unknown = JSON.parse(result.stderr || result.stdout || '{"messages":[]}');
  const messages: unknown[] = isRecord(parsed) && Array.isArray(parsed.messages) ? parsed.messages : [];
  return messages.filter((message): message is VnuMessage => isRecord(message) && message.type === 'error');
}

/** What shared/tools/page-weight.mjs reports as the gzip bytes of JavaScript. */
function sharedJsGzip(output: string): number {
  const parsed: unknown = JSON.parse(output);
  const js = isRecord(parsed) ? parsed.js : undefined;
  if (!isRecord(js) || typeof js.gzip !== 'number') throw new Error(`shared/tools/page-weight.mjs printed no js.gzip: ${output.slice(0, 200)}`);
  return js.gzip;
}

/** Runs the user flow on the app and on the floor, interleaved (app, floor, app, ...); the median per step. */
async function interleavedFlows(urls: { app: string; floor: string }, runs: number): Promise<{ app: StepMedians; floor: StepMedians }> {
  const results: { app: FlowRun[]; floor: FlowRun[] } = { app: [], floor: [] };
  const show = (step: StepFigures | null | undefined) => (step ? `INP ${step.inpMs ?? 'n/a'} ms, TBT ${step.tbtMs} ms${step.worst ? ` (${step.worst})` : ''}` : '—');
  for (let i = 0; i < runs; i++) {
    for (const name of ['app', 'floor'] as const) {
      const run = await interactionFlow(urls[name], { carousel: name === 'app' });
      results[name].push(run);
      console.log(`  flow ${name} #${i + 1} (${run.seconds} s): typing ${show(run.typing)}; carousel ${show(run.carousel)}; sending ${show(run.sending)}, thanks after ${run.thanksMs} ms`);
    }
  }
  const stepMedian = (list: FlowRun[], step: Step) => ({ inpMs: median(list.map((r) => r[step]?.inpMs)), tbtMs: median(list.map((r) => r[step]?.tbtMs)) });
  const medians = (list: FlowRun[]): StepMedians => ({ typing: stepMedian(list, 'typing'), carousel: stepMedian(list, 'carousel'), sending: stepMedian(list, 'sending') });
  return { app: medians(results.app), floor: medians(results.floor) };
}

type Interleaved = { runs: { app: LighthouseRun[]; bare: LighthouseRun[] }; app: Medians; bare: Medians };

/** Runs Lighthouse on both pages, interleaved (project, bare, project, ...), so a busy spell hits both. */
async function interleaved(urls: { app: string; bare: string }, runs: number, method: ThrottlingMethod): Promise<Interleaved> {
  const results: Interleaved['runs'] = { app: [], bare: [] };
  for (let i = 0; i < runs; i++) {
    for (const name of ['app', 'bare'] as const) {
      const run = await lighthouseRun(urls[name], method);
      results[name].push(run);
      console.log(
        `  ${method} ${name} #${i + 1}: LCP ${run.lcpMs} ms, FCP ${run.fcpMs} ms, TBT ${run.tbtMs} ms, CLS ${run.cls}, performance ${run.performance} (${run.seconds} s)` +
          (run.failedAudits.length ? `, failed audits: ${run.failedAudits.join(' ')}` : ''),
      );
    }
  }
  const medians = (list: LighthouseRun[]) => Object.fromEntries(FIGURES.map((key) => [key, median(list.map((r) => r[key]))])) as Medians;
  return { runs: results, app: medians(results.app), bare: medians(results.bare) };
}

type Cell = string | number | null;
type Row = { figure: string; project: Cell; bare: Cell; versus: string; budget: string; headroom: Cell; ok: boolean };
const rows: Row[] = [];
const goals: string[] = [];
/** One budget: `ok` decides the verdict; the rest is what the table shows (headroom: how far the figure is from the budget). */
const row = (figure: string, project: Cell, bare: Cell, versus: string, budget: string, headroom: Cell, ok: boolean) => rows.push({ figure, project, bare, versus, budget, headroom, ok });
const EXACT = '0 (exact)';
const ratio = (a: number, b: number) => (b > 0 ? a / b : Infinity);
const signed = (n: number, digits = 0) => `${n >= 0 ? '+' : ''}${n.toFixed(digits)}`;
// A median no run produced (a score not reported): NaN, which fails every comparison.
const figure = (value: number | null) => value ?? NaN;

async function measure(urls: { app: string; bare: string }): Promise<Interleaved> {
  const app = await pageWeight(urls.app);
  const bare = await pageWeight(urls.bare);
  console.log(`\nPage weight, bytes: ${JSON.stringify({ app, bare })}`);
  const jsOver = app.js.gzip - bare.js.gzip;
  row('JS a first visit downloads, gzip B', app.js.gzip, bare.js.gzip, signed(jsOver), `<= +${BUDGET.jsOverBare}`, `${BUDGET.jsOverBare - jsOver} B`, jsOver <= BUDGET.jsOverBare);
  const sharedTool = path.resolve(ROOT, '..', 'shared', 'tools', 'page-weight.mjs');
  if (existsSync(sharedTool)) {
    const shared = sharedJsGzip(spawnSync('node', [sharedTool, urls.app], { encoding: 'utf8' }).stdout);
    row('  same by shared/tools/page-weight.mjs', shared, '', '', `= ${app.js.gzip}`, EXACT, shared === app.js.gzip);
  }
  row('HTML of /, gzip B', app.html.gzip, bare.html.gzip, signed(app.html.gzip - bare.html.gzip), `<= ${BUDGET.htmlGzip}`, `${BUDGET.htmlGzip - app.html.gzip} B`, app.html.gzip <= BUDGET.htmlGzip);

  const images = await imageBytes(urls.app);
  console.log(`\nImages a phone downloads (390 px, DPR 2, scrolled to the bottom and back), ${images.bytes} B transferred:`);
  for (const image of images.images) console.log(`  ${image.bytes} B  ${image.url}`);
  row('Images on a phone, whole page, B transferred', images.bytes, '', '', `<= ${BUDGET.imageBytes}`, `${BUDGET.imageBytes - images.bytes} B`, images.bytes <= BUDGET.imageBytes);

  console.log(`\nLighthouse, mobile preset, applied throttling (devtools), ${RUNS} runs each, interleaved:`);
  const applied = await interleaved(urls, RUNS, 'devtools');
  console.log(`\nLighthouse, mobile preset, simulated throttling (what PageSpeed Insights shows), ${SIMULATED_RUNS} runs each:`);
  const simulated = await interleaved(urls, SIMULATED_RUNS, 'simulate');

  const a = applied.app;
  const b = applied.bare;
  const ratioRow = (label: string, project: number | null, base: number | null, budget: number) => {
    const r = ratio(figure(project), figure(base));
    row(label, project, base, `x${r.toFixed(2)}`, `<= x${budget}`, `${(budget - r).toFixed(2)}x`, r <= budget);
  };
  ratioRow('LCP ms, applied (median)', a.lcpMs, b.lcpMs, BUDGET.lcpRatio);
  const lcp = figure(a.lcpMs);
  row('LCP ms, applied (median), backstop', a.lcpMs, '', '', `<= ${BUDGET.lcpMs}`, `${BUDGET.lcpMs - lcp} ms`, lcp <= BUDGET.lcpMs);
  ratioRow('FCP ms, applied (median)', a.fcpMs, b.fcpMs, BUDGET.fcpRatio);
  const tbtBase = Math.max(figure(b.tbtMs), BUDGET.tbtFloorMs);
  const tbtRatio = ratio(figure(a.tbtMs), tbtBase);
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
  const performanceDiff = figure(a.performance) - figure(b.performance);
  const performanceOver = performanceDiff + BUDGET.performanceUnderBare;
  row('Performance score, applied (median)', a.performance, b.performance, signed(performanceDiff, 2), `>= -${BUDGET.performanceUnderBare}`, performanceOver.toFixed(2), performanceOver >= -1e-9);
  const cls = Math.max(figure(a.cls), figure(simulated.app.cls));
  row('CLS (worse median of both methods)', cls, Math.max(figure(b.cls), figure(simulated.bare.cls)), '', `<= ${BUDGET.cls}`, Number((BUDGET.cls - cls).toFixed(4)), cls <= BUDGET.cls);
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
  for (const step of STEPS) {
    // The floor has no carousel: a click there costs what a keystroke does, so the carousel is held to the floor's typing.
    const floor = step === 'carousel' ? flows.floor.typing.inpMs : flows.floor[step].inpMs;
    const inp = flows.app[step].inpMs;
    const label = `INP ms, ${step} (median)${step === 'carousel' ? ', vs floor typing' : ''}`;
    if (inp === null || floor === null) {
      row(label, inp ?? 'n/a', floor ?? 'n/a', '', `<= x${BUDGET.inpRatio}`, 'n/a', false);
      continue;
    }
    // A floor of 0 (no interaction recorded in time) would make any ratio explode: at least 1 ms.
    const ratio = Number((inp / Math.max(floor, 1)).toFixed(2));
    row(label, inp, step === 'carousel' ? `— (${floor})` : floor, `x${ratio}`, `<= x${BUDGET.inpRatio}`, `${Number((BUDGET.inpRatio - ratio).toFixed(2))}x`, ratio <= BUDGET.inpRatio);
    goals.push(`INP ${step} x${ratio} the floor; goal <= x${GOAL.inpRatio}: ${ratio <= GOAL.inpRatio ? 'met' : 'not yet'}`);
  }
  console.log(`  TBT during each step (median, printed only): ${STEPS.map((step) => `${step} ${flows.app[step].tbtMs ?? '—'} ms (floor ${flows.floor[step].tbtMs ?? '—'})`).join(', ')}`);

  const htmlErrors = validateHtml([urls.app, `${urls.app}aviso-de-privacidad`, `${urls.app}gracias`]);
  for (const error of htmlErrors) console.log(`  vnu: ${error.url} ${error.lastLine}:${error.firstColumn} ${error.message}`);
  row('Nu HTML checker errors (/, notice, thanks)', htmlErrors.length, '', '', '= 0', EXACT, htmlErrors.length === 0);
  return simulated;
}

function report(simulated: Interleaved, started: number): number {
  console.log('\nSimulated throttling, printed only (from 127.0.0.1 its timings race the scripts against the first paint):');
  for (const key of ['lcpMs', 'fcpMs', 'tbtMs', 'performance'] as const) {
    console.log(`  ${key}: project ${simulated.app[key]}, bare ${simulated.bare[key]}`);
  }
  const header = ['Figure', 'Project', 'Bare/floor', 'vs bare', 'Budget', 'Headroom', 'Verdict'];
  const table = [header, ...rows.map((r) => [r.figure, r.project, r.bare, r.versus, r.budget, r.headroom, r.ok ? 'ok' : 'FAIL'].map(String))];
  const widths = header.map((_, i) => Math.max(...table.map((cells) => (cells[i] ?? '').length)));
  console.log('\nQuality budgets');
  for (const cells of table) console.log(`  ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd());
  if (goals.length) console.log(`Goals (printed, never failing):\n${goals.map((goal) => `  ${goal}`).join('\n')}`);
  const failed = rows.filter((r) => !r.ok).length;
  console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);
  console.log(`${rows.length - failed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

async function main(): Promise<number> {
  const started = Date.now();
  const appDir = await buildApp(NO_TAGS_APP);
  const bareDir = await buildApp(BARE_APP);
  let simulated: Interleaved;
  try {
    // The build's public values, this run's inbox and the raised limit; not NO_TAGS_BUILD_ENV's stub
    // contact API and mail server, which only Playwright starts: each sending lands in the inbox.
    const env = {
      ...NO_TAGS_APP.publicEnv,
      CONTACT_INBOX_DIR: inbox,
      // One send per flow, all from 127.0.0.1: the default 5 per 10 minutes would refuse QUALITY_FLOW_RUNS above 5.
      CONTACT_RATE_LIMIT_MAX: '1000',
    };
    const app = await startNext(appDir, { port: NO_TAGS_PORT, env });
    servers.push(app);
    const bare = await startNext(bareDir, { port: BARE_PORT });
    servers.push(bare);
    simulated = await measure({ app: `${app.url}/`, bare: `${bare.url}/` });
  } finally {
    await stopAll(servers);
    rmSync(inbox, { recursive: true, force: true });
  }
  return report(simulated, started);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
