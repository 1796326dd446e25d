// Chaos under load: the load test's traffic (scripts/load/traffic.ts: genuine
// enquiries through the production server's Server Action) while something the
// lead's durable workflow depends on breaks (scripts/chaos/scenarios.ts):
//   1. the server SIGKILLed while its leads wait for redelivery (API down), restarted on the same files
//   2. two servers on one PostgreSQL (separate disks): the one that took the enquiries SIGKILLed
//   3. PostgreSQL restarted in the middle of the traffic
//   4. the local world's disk full in the middle of the traffic (a real tmpfs, filled)
//   5. the contact API answering 429 with Retry-After: 3 to half the attempts
// Each scenario gets a fresh stub API, servers, ports and folders; two run at a
// time (CHAOS_PARALLEL), then those marked `alone` by themselves. Checks, against the
// stub's own record: every thanked lead stored once within 90 s of the fault
// clearing, no lead stored under two keys, every visitor answered thanks or "try
// again" (told to retry is counted, not failed); and each scenario's own (no
// retry before its Retry-After; the full disk refused someone). Timings are
// printed, never checked. One table row per scenario; exits non-zero naming every
// failed check. 127.0.0.1 only, bounded in count (CHAOS_ENQUIRIES per scenario)
// and time (CHAOS_MAX_SECONDS after the build, CHAOS_SCENARIO_SECONDS each).
// CHAOS_SCENARIOS=1,3 runs only those; SABOTAGE=drop,duplicate,other,early makes
// the guards fail on purpose (scripts/load/ledger.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAIN_APP } from '../e2e/support/test-env';
import { buildApp } from '../test-support/harness';
import { Kit, messageOf, TRAFFIC } from './chaos/kit';
import { SCENARIOS } from './chaos/scenarios';
import {
  countBy,
  ledgerChecks,
  ledgerColumns,
  ledgerOf,
  printTable,
  sabotageNote,
  type Ledger,
} from './load/ledger';

const MAX_SECONDS = Number(process.env.CHAOS_MAX_SECONDS ?? 1200);
const SCENARIO_SECONDS = Number(process.env.CHAOS_SCENARIO_SECONDS ?? 240);
const ONLY = process.env.CHAOS_SCENARIOS?.split(',').map(Number);
// Two at a time: a scenario mostly waits (for its traffic's spacing, a restart, a redelivery), and on 2 cores
// the others side by side still answer every visitor (the table's wait column says how fast).
const PARALLEL = Math.max(1, Number(process.env.CHAOS_PARALLEL ?? 2));
const dataDir = mkdtempSync(path.join(tmpdir(), 'chaos-test-'));
// Kept after the run: the servers' own words about what went wrong.
const logDir = mkdtempSync(path.join(tmpdir(), 'chaos-test-logs-'));
process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

type Row = {
  number: number;
  title: string;
  kit?: Kit;
  ledger?: Ledger;
  skipped?: string;
  error?: string;
  seconds: number;
  done?: boolean;
};
const rows: Row[] = [];
let appDir = '';

async function runScenario(number: number, title: string): Promise<Row> {
  const scenario = SCENARIOS[number - 1];
  if (!scenario) throw new Error(`no scenario ${number}`);
  console.log(`\n${title}: started`);
  const skipped = scenario.skip?.();
  if (skipped) {
    console.log(`  SKIPPED: ${skipped}`);
    return { number, title, skipped, seconds: 0, done: true };
  }
  const started = performance.now();
  const abort = new AbortController();
  const limitSeconds = Math.max(SCENARIO_SECONDS, scenario.limitSeconds ?? 0);
  const limit = setTimeout(() => abort.abort(), limitSeconds * 1000);
  const kit = new Kit(number, path.join(dataDir, `s${number}`), logDir, abort.signal);
  const row: Row = { number, title, kit, seconds: 0 };
  rows.push(row); // before it ends: the hard stop reports it
  try {
    await scenario.run(kit, appDir);
  } catch (error) {
    row.error = messageOf(error);
    kit.mark(`ERROR: ${row.error}`);
  } finally {
    clearTimeout(limit);
    if (abort.signal.aborted) kit.checks.push(`stopped at the scenario's ${limitSeconds} s limit`);
    if (kit.summary) row.ledger = ledgerOf(kit.results, kit.summary, kit.clearedAt);
    // A failed scenario's folders (the world's runs and events) stay beside its logs.
    await kit.cleanUp(
      failures(row).length ? path.join(logDir, `scenario-${number}-data`) : undefined,
    );
    row.seconds = (performance.now() - started) / 1000;
  }
  const checks = failures(row);
  console.log(
    `\n${title}: ${checks.length ? `FAILED: ${checks.join('; ')}` : 'passed'} (${row.seconds.toFixed(0)} s)`,
  );
  row.done = true;
  return row;
}

function failures(row: Row): string[] {
  if (row.skipped || !row.kit) return [];
  const checks = [...row.kit.checks];
  if (row.error) checks.unshift(`did not complete: ${row.error}`);
  if (row.ledger) checks.push(...ledgerChecks(row.ledger));
  else if (!row.error) checks.push('no record from the stub: nothing could be checked');
  return checks;
}

function printReport(): number {
  rows.sort((a, b) => a.number - b.number);
  console.log(
    `\nChaos under load: ${TRAFFIC.total} enquiries per scenario, ${TRAFFIC.concurrency} at a time, one every ${TRAFFIC.spacingMs} ms (build ${readBuildId()})\n`,
  );
  printTable(
    rows.map((row) => ({
      scenario: row.title,
      ...ledgerColumns(row.ledger, row.kit?.results ?? [], row.kit?.allowedMs),
      'time (s)': row.skipped ? '-' : row.seconds.toFixed(0),
      result: row.skipped ? 'SKIPPED' : failures(row).length ? 'FAIL' : 'pass',
    })),
  );
  console.log(
    "\n'last delivery': the last thanked lead stored, seconds after the fault cleared (the API back, or the traffic's end in 5); 'allowed': how long the test waited for it.",
  );
  for (const row of rows) {
    const checks = failures(row);
    console.log(
      `\n${row.title}: ${row.skipped ? `skipped (${row.skipped})` : checks.length ? 'FAILED' : 'passed'}`,
    );
    for (const check of checks) console.log(`  FAILED ${check}`);
    if (row.ledger?.retry.length)
      console.log(
        `  note: ${row.ledger.retry.length} told to retry, ${row.ledger.retryDelivered} of them delivered anyway (their retry would be a second lead)`,
      );
    if (row.kit?.summary?.replayed)
      console.log(
        `  note: ${row.kit.summary.replayed} attempt(s) re-sent a key already stored (stored once)`,
      );
    if (row.ledger?.other.length)
      console.log(
        `  note: other answers: ${countBy(row.ledger.other.map((r) => r.state.slice(0, 60)))}`,
      );
    for (const note of row.kit?.notes ?? []) console.log(`  note: ${note}`);
    if (checks.length && row.kit) {
      const excerpt = row.kit.logExcerpt();
      if (excerpt.length)
        console.log(
          `  server logs (${path.join(logDir, `scenario-${row.kit.number}-*.log`)}):\n${excerpt.map((line) => `    ${line}`).join('\n')}`,
        );
    }
  }
  const failed = rows.filter((row) => failures(row).length);
  const skipped = rows.filter((row) => row.skipped);
  if (sabotageNote()) console.log(`\n${sabotageNote()}`);
  console.log(`\nServer logs: ${logDir}`);
  console.log(
    `${rows.length - failed.length - skipped.length} passed, ${skipped.length} skipped, ${failed.length} failed${failed.length ? `: ${failed.map((row) => row.title).join('; ')}` : ''}`,
  );
  // CI proves every scenario: one it could not run (no PostgreSQL, say) fails there, as a failed one does.
  if (process.env.CI && skipped.length)
    console.log(`CI: ${skipped.length} skipped scenario(s) count as failed`);
  return failed.length + (process.env.CI ? skipped.length : 0);
}

const readBuildId = () => {
  try {
    return readFileSync(path.join(appDir, '.next', 'BUILD_ID'), 'utf8').trim();
  } catch {
    return '?';
  }
};

async function main(): Promise<number> {
  const built = performance.now();
  appDir = await buildApp(MAIN_APP);
  console.log(`  build ready in ${((performance.now() - built) / 1000).toFixed(0)} s`);
  const hardStop = setTimeout(() => {
    console.error(`\nChaos test stopped: over ${MAX_SECONDS} s.`);
    for (const row of rows.filter((r) => !r.done))
      row.kit?.checks.unshift(
        `stopped by the hard stop (CHAOS_MAX_SECONDS=${MAX_SECONDS}) while under way`,
      );
    printReport();
    process.exit(1);
  }, MAX_SECONDS * 1000);
  hardStop.unref();

  // A pool of PARALLEL scenarios at a time, in order: each has its own ports, folders, stub and servers.
  // Those marked `alone` run after them, by themselves.
  const chosen = SCENARIOS.map((scenario, i) => ({
    number: i + 1,
    title: scenario.title,
    alone: scenario.alone,
  })).filter(({ number }) => !ONLY || ONLY.includes(number));
  const lanes = async (queue: typeof chosen, width: number) => {
    const lane = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const row = await runScenario(next.number, next.title);
        if (!rows.includes(row)) rows.push(row);
      }
    };
    await Promise.all(Array.from({ length: width }, lane));
  };
  await lanes(
    chosen.filter((scenario) => !scenario.alone),
    PARALLEL,
  );
  await lanes(
    chosen.filter((scenario) => scenario.alone),
    1,
  );
  clearTimeout(hardStop);
  return printReport() ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
