// Load with nothing lost: sends several hundred genuine enquiries, with
// concurrency, through the production server's Server Action (with its
// outbox in a temporary folder), while the stub contact API answers 503 to a
// random share of attempts and goes fully down for a while in the middle.
// Then flushes the outbox until nothing is pending, and checks against the
// stub's own record that no visitor was turned away and every enquiry was
// stored exactly once. Prints the visitors' wait, how many went through the
// outbox, and the flush time. Traffic stays on 127.0.0.1, bounded in count
// (LOAD_ENQUIRIES) and time (LOAD_MAX_SECONDS).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NO_TAGS_APP } from '../e2e/support/test-env';
import { buildApp, startNext, startStubApi, stopAll, type Server } from '../test-support/harness';
import { findActionId, formToken, runTraffic, sendEnquiry, type EnquiryResult } from './load/traffic';

const TOTAL = Number(process.env.LOAD_ENQUIRIES ?? 400);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? 16);
const FAIL_RATE = Number(process.env.LOAD_FAIL_RATE ?? 0.35);
const MAX_SECONDS = Number(process.env.LOAD_MAX_SECONDS ?? 240);
const OUTAGE_SECONDS = Number(process.env.LOAD_OUTAGE_SECONDS ?? 20);
const CRON_SECRET = 'load-test-cron-secret';
const outboxDir = mkdtempSync(path.join(tmpdir(), 'load-outbox-'));
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const APP_PORT = 3297 + OFFSET;
const STUB_PORT = 3298 + OFFSET;
const APP = `http://127.0.0.1:${APP_PORT}`;
const STUB = `http://127.0.0.1:${STUB_PORT}`;

/** What the flush route answers. */
type FlushCounts = { delivered: number; pending: number; dead: number; spam: number };
/** The stub's GET /__summary (e2e/stub-contact-api.ts). */
type StubSummary = { attempts: number; storedByMail: Record<string, number>; storedAtByMail: Record<string, number | undefined> };

const servers: Server[] = [];
let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  await stopAll(servers);
  rmSync(outboxDir, { recursive: true, force: true });
}
// The last resort (an uncaught error, the hard stop): nothing can be awaited here, so signal the groups.
process.on('exit', () => {
  for (const { child } of servers) {
    try {
      if (child.pid && child.exitCode === null && child.signalCode === null) process.kill(-child.pid, 'SIGTERM');
    } catch {}
  }
  rmSync(outboxDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void cleanUp().then(() => process.exit(130)));
const hardStop = setTimeout(() => {
  console.error(`Load test stopped: over ${MAX_SECONDS} s.`);
  void cleanUp().then(() => process.exit(1));
}, MAX_SECONDS * 1000);
hardStop.unref();

async function main(): Promise<number> {
  // The build without tags, as the quality run uses: this measures the server, not the tags' markup.
  const dir = await buildApp(NO_TAGS_APP);
  servers.push(await startStubApi(STUB_PORT, { STUB_FAIL_RATE: String(FAIL_RATE) }));
  servers.push(
    await startNext(dir, {
      port: APP_PORT,
      // On top of the isolated environment (nothing from .env.local), so the flush below can only
      // ever see this run's outbox and this run's stub.
      env: {
        CONTACT_API_BASE_URL: `${STUB}/api/`,
        CONTACT_SITE_KEY: 'load-test-key',
        // The abuse limit, raised for this run: every enquiry comes from 127.0.0.1.
        CONTACT_RATE_LIMIT_MAX: '1000000',
        CONTACT_OUTBOX: 'auto',
        CONTACT_INBOX_DIR: outboxDir,
        CONTACT_OUTBOX_BACKOFF_SECONDS: '1',
        CRON_SECRET,
      },
      // Read when the run fails: the server says why a visitor was turned away.
      log: process.env.LOAD_SERVER_LOG ?? path.join(tmpdir(), 'load-test-server.log'),
    }),
  );

  const actionId = await findActionId(APP);
  const token = await formToken(APP);

  const runId = Date.now().toString(36);
  const results: EnquiryResult[] = [];

  async function send(index: number) {
    results.push(await sendEnquiry({ app: APP, actionId, token, index, mail: `carga-${runId}-${index}@example.mx` }));
  }

  async function flush(): Promise<FlushCounts> {
    const response = await fetch(`${APP}/api/outbox/flush`, { headers: { Authorization: `Bearer ${CRON_SECRET}` } });
    if (response.status !== 200) throw new Error(`flush answered ${response.status}`);
    return (await response.json()) as FlushCounts;
  }

  console.log(
    `Sending ${TOTAL} enquiries, ${CONCURRENCY} at a time; the stub fails ${Math.round(FAIL_RATE * 100)}% of attempts, and all of them for ${OUTAGE_SECONDS} s in the middle...`,
  );
  let outageAt: number | undefined;
  const seconds = await runTraffic({
    total: TOTAL,
    concurrency: CONCURRENCY,
    beforeSend: async (index, startedAt) => {
      if (index === Math.floor(TOTAL / 2) && OUTAGE_SECONDS > 0) {
        outageAt = (performance.now() - startedAt) / 1000;
        await fetch(`${STUB}/__outage`, { method: 'POST', body: JSON.stringify({ ms: OUTAGE_SECONDS * 1000 }) });
      }
    },
    send,
  });

  // The scheduler's part: flush until nothing is pending (entries still held by
  // their request's background retry are counted pending until it lets go).
  const flushStarted = performance.now();
  let counts = await flush();
  let flushes = 1;
  while (counts.pending > 0 && performance.now() - flushStarted < MAX_SECONDS * 500) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    counts = await flush();
    flushes += 1;
  }
  const flushSeconds = (performance.now() - flushStarted) / 1000;

  const summary = (await (await fetch(`${STUB}/__summary`)).json()) as StubSummary;
  const problems: string[] = [];
  for (const result of results) {
    const storedCount = summary.storedByMail[result.mail] ?? 0;
    if (storedCount !== 1) problems.push(`#${result.index} (${result.state}) stored ${storedCount} times`);
    if (result.state !== 'sent') problems.push(`#${result.index} turned away: ${result.state}${result.hasMes ? ' with a mes' : ''}`);
  }
  if (counts.pending !== 0 || counts.dead !== 0) problems.push(`outbox not empty after flushing: ${JSON.stringify(counts)}`);
  // Stored by the stub only after the visitor had their answer: delivered by the background retry or a flush.
  const throughOutbox = results.filter((r) => (summary.storedAtByMail[r.mail] ?? 0) > r.answeredAt).length;

  const latencies = results.map((r) => r.ms).sort((a, b) => a - b);
  // NaN when nothing was sent, as Math.round(undefined) printed before.
  const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN);
  const sent = results.filter((r) => r.state === 'sent').length;

  console.log(`\nEnquiries: ${results.length} (thanked ${sent}, turned away ${results.length - sent})`);
  console.log(`Full outage: ${OUTAGE_SECONDS} s from ${outageAt?.toFixed(1) ?? '-'} s into the run`);
  console.log(`Through the outbox (stored after the visitor's answer): ${throughOutbox}`);
  console.log(`Flush until nothing pending: ${flushSeconds.toFixed(1)} s, ${flushes} flush call(s), last ${JSON.stringify(counts)}`);
  console.log(`Attempts seen by the stub: ${summary.attempts} (${(summary.attempts / results.length).toFixed(2)} per enquiry)`);
  console.log(`Stored by the stub: ${Object.values(summary.storedByMail).reduce((a, b) => a + b, 0)}`);
  console.log(`Throughput: ${(results.length / seconds).toFixed(1)} enquiries/s over ${seconds.toFixed(1)} s`);
  console.log(`Visitor wait: p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${Math.round(latencies.at(-1) ?? NaN)} ms`);
  console.log(`Every enquiry stored exactly once by the stub: ${results.every((r) => summary.storedByMail[r.mail] === 1) ? 'yes' : 'NO'}`);
  for (const problem of problems.slice(0, 20)) console.log(`  LOST OR DUPLICATED: ${problem}`);
  console.log(`${problems.length === 0 ? 1 : 0} passed, ${problems.length === 0 ? 0 : 1} failed`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  async (code) => {
    await cleanUp();
    process.exit(code);
  },
  async (error: unknown) => {
    console.error(error);
    await cleanUp();
    process.exit(1);
  },
);
