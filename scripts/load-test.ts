// Load with nothing lost and nothing twice: LOAD_ENQUIRIES genuine enquiries
// (400), LOAD_CONCURRENCY at a time (16), through the production server's
// Server Action, while the stub contact API goes fully down for
// LOAD_OUTAGE_SECONDS (20) in the middle of the run and then comes back. What
// the API does not take live goes to the lead's durable workflow (the local
// world, in a temporary CONTACT_INBOX_DIR), which retries on a 1 s backoff.
// Checks, against the stub's own record: every thanked lead stored exactly once
// within 90 s of the API's return; no lead stored under two keys; every visitor
// answered thanks or "try again" (those told to retry are counted and printed,
// not failed: they were told). Timings are printed, never checked. Traffic stays
// on 127.0.0.1, bounded in count and in time (LOAD_MAX_SECONDS after the build).
// SABOTAGE=drop,duplicate,other makes each guard fail once (scripts/load/ledger.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAIN_APP } from '../e2e/support/test-env';
import { buildApp, startNext, startStubApi, stopAll, type Server } from '../test-support/harness';
import {
  awaitDeliveries,
  countBy,
  ledgerChecks,
  ledgerColumns,
  ledgerOf,
  printTable,
  sabotageAfter,
  sabotageBefore,
  sabotageNote,
} from './load/ledger';
import { stubClient } from './load/stub-client';
import {
  findActionId,
  formTokens,
  runTraffic,
  sendEnquiry,
  type EnquiryResult,
} from './load/traffic';

const TOTAL = Number(process.env.LOAD_ENQUIRIES ?? 400);
const CONCURRENCY = Number(process.env.LOAD_CONCURRENCY ?? 16);
const OUTAGE_SECONDS = Number(process.env.LOAD_OUTAGE_SECONDS ?? 20);
const MAX_SECONDS = Number(process.env.LOAD_MAX_SECONDS ?? 300);
// Every thanked lead must be at the API this long after it came back.
const DELIVER_WITHIN_MS = 90_000;
const HUNG_MS = 30_000; // a post still unanswered by then is aborted (and counted as no answer)
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const APP_PORT = 3297 + OFFSET;
const STUB_PORT = 3298 + OFFSET;
const APP = `http://127.0.0.1:${APP_PORT}`;
const stub = stubClient(`http://127.0.0.1:${STUB_PORT}`);
const inboxDir = mkdtempSync(path.join(tmpdir(), 'load-inbox-'));
const serverLog =
  process.env.LOAD_SERVER_LOG ?? path.join(tmpdir(), `load-test-server-${process.pid}.log`);

const servers: Server[] = [];
let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  await stopAll(servers);
  rmSync(inboxDir, { recursive: true, force: true });
}
// The harness kills the servers it started whatever ends this process; the folder goes here.
process.on('exit', () => rmSync(inboxDir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void cleanUp().then(() => process.exit(130)));

async function main(): Promise<number> {
  const built = performance.now();
  const dir = await buildApp(MAIN_APP);
  console.log(`  build ready in ${((performance.now() - built) / 1000).toFixed(0)} s`);
  const started = performance.now();
  const hardStop = setTimeout(() => {
    console.error(`Load test stopped: over ${MAX_SECONDS} s (server log: ${serverLog}).`);
    void cleanUp().then(() => process.exit(1));
  }, MAX_SECONDS * 1000);
  hardStop.unref();

  servers.push(await startStubApi(STUB_PORT));
  servers.push(
    await startNext(dir, {
      port: APP_PORT,
      // On top of the isolated environment: nothing from .env.local; this run's stub and folder only.
      env: {
        CONTACT_API_BASE_URL: `${stub.base}/api/`,
        CONTACT_SITE_KEY: 'load-test-key',
        // The abuse limit, raised for this run: every enquiry comes from 127.0.0.1.
        CONTACT_RATE_LIMIT_MAX: '1000000',
        CONTACT_INBOX_DIR: inboxDir,
        CONTACT_OUTBOX_BACKOFF_SECONDS: '1',
      },
      log: serverLog,
    }),
  );

  const actionId = await findActionId(APP);
  const tokens = await formTokens(APP, TOTAL);
  const runId = Date.now().toString(36);
  const mailOf = (index: number) => `carga-${runId}-${index}@example.mx`;
  const results: EnquiryResult[] = [];
  // Under SABOTAGE=drop: leads before, in and after the outage refused for ever.
  await sabotageBefore(stub, [1, Math.floor(TOTAL / 2) + 1, TOTAL - 2].map(mailOf));

  console.log(
    `Sending ${TOTAL} enquiries, ${CONCURRENCY} at a time; the contact API down for ${OUTAGE_SECONDS} s from enquiry ${Math.floor(TOTAL / 2)}...`,
  );
  let downAt: number | undefined;
  let upAt = Date.now();
  const seconds = await runTraffic({
    total: TOTAL,
    concurrency: CONCURRENCY,
    beforeSend: async (index, trafficStarted) => {
      if (index === Math.floor(TOTAL / 2) && OUTAGE_SECONDS > 0) {
        downAt = (performance.now() - trafficStarted) / 1000;
        await stub.down(OUTAGE_SECONDS * 1000);
        upAt = Date.now() + OUTAGE_SECONDS * 1000;
      }
    },
    send: async (index) => {
      results.push(
        await sendEnquiry({
          app: APP,
          actionId,
          token: tokens[index] ?? '',
          index,
          mail: mailOf(index),
          timeoutMs: HUNG_MS,
        }),
      );
    },
  });
  const trafficEnded = Date.now();

  let summary = await awaitDeliveries(
    stub,
    results,
    Math.max(upAt, trafficEnded) + DELIVER_WITHIN_MS,
  );
  await sabotageAfter(stub, results, { app: APP, actionId });
  summary = await stub.summary();
  const ledger = ledgerOf(results, summary, upAt);
  const checks = ledgerChecks(ledger);

  console.log(
    `\nLoad: ${TOTAL} enquiries, ${CONCURRENCY} at a time, the contact API down ${OUTAGE_SECONDS} s (build ${MAIN_APP.name}, local world)\n`,
  );
  printTable([
    {
      run: `load, API down ${OUTAGE_SECONDS} s`,
      ...ledgerColumns(ledger, results, DELIVER_WITHIN_MS),
      'time (s)': ((performance.now() - started) / 1000).toFixed(0),
      result: checks.length ? 'FAIL' : 'pass',
    },
  ]);
  console.log('');
  console.log(
    `Outage: ${OUTAGE_SECONDS} s from ${downAt?.toFixed(1) ?? '-'} s into the traffic; traffic ${seconds.toFixed(1)} s (${(results.length / seconds).toFixed(1)} enquiries/s)`,
  );
  console.log(
    `Last thanked lead stored ${ledger.lastDeliveryMs === undefined ? '-' : `${(ledger.lastDeliveryMs / 1000).toFixed(1)} s`} after the API came back (allowed ${DELIVER_WITHIN_MS / 1000} s)`,
  );
  console.log(
    `Stored after the visitor's answer (through the workflow): ${results.filter((r) => (summary.storedAtByMail[r.mail] ?? 0) > r.answeredAt).length}`,
  );
  console.log(
    `API attempts: ${summary.attempts} (${(summary.attempts / Math.max(1, results.length)).toFixed(2)} per enquiry), ${summary.replayed} re-sent a key already stored (answered "ya recibida", stored once)`,
  );
  const retried = ledger.retry.map((r) => r.index).sort((a, b) => a - b);
  const list = `#${retried.slice(0, 8).join(', #')}${retried.length > 8 ? ', ...' : ''}`;
  console.log(
    `Told to retry: ${retried.length}${retried.length ? ` (${list}); ${ledger.retryDelivered} of them delivered anyway (their retry would be a second lead)` : ''}`,
  );
  console.log(
    `Answered after more than 4 s (the form's promise): ${results.filter((r) => r.ms > 4000).length}`,
  );
  if (ledger.other.length)
    console.log(`Other answers: ${countBy(ledger.other.map((r) => r.state))}`);
  if (sabotageNote()) console.log(sabotageNote());
  for (const check of checks) console.log(`  FAILED ${check}`);
  if (checks.length) console.log(`Server log: ${serverLog}`);
  console.log(`${checks.length ? 0 : 1} passed, ${checks.length ? 1 : 0} failed`);
  return checks.length ? 1 : 0;
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
