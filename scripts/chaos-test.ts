// Chaos under load: the load test's traffic (scripts/load/traffic.ts: genuine
// enquiries through the production server's Server Action), while something
// the site depends on breaks. Each scenario gets a fresh server, stub contact
// API and store:
//   1. Redis (outbox and abuse limit) SIGKILLed mid-run, restarted on its port
//   2. Redis stalled 10 s (SIGSTOP, then SIGCONT): connections open, no answers
//   3. the file outbox on a full disk (a 512 kB tmpfs, filled), the API down meanwhile
//   4. the contact API answering 429 with Retry-After to half the requests
//   5. the Next server SIGKILLed mid-run and started again on the same file outbox
// then, once the fault has cleared, the flush route until nothing is pending.
// Checks in every scenario: every visitor answered within 4 s; nobody thanked
// whose enquiry was neither stored nor delivered; nothing delivered twice;
// after the flush, every thanked enquiry delivered; and in scenario 4, no
// attempt before the API's Retry-After has passed. Prints one row per
// scenario and exits non-zero naming every failed check; always completes
// every scenario (a hung post is aborted at 30 s and counted as waiting over
// 4 s). 127.0.0.1 only, bounded in count (CHAOS_ENQUIRIES per scenario) and
// time (CHAOS_MAX_SECONDS in all); every child process is stopped at the end.
// CHAOS_SCENARIOS=1,3 runs only those scenarios.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statfsSync, writeSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { MAIN_APP } from '../e2e/support/test-env';
import { buildApp, ROOT, startNext, startProcess, type Server } from '../test-support/harness';
import { isolatedProcessEnv } from '../test-support/isolated-env';
import { findActionId, formToken, runTraffic, sendEnquiry, type EnquiryResult } from './load/traffic';

const TOTAL = Number(process.env.CHAOS_ENQUIRIES ?? 60);
const CONCURRENCY = Number(process.env.CHAOS_CONCURRENCY ?? 8);
// Visitors arrive over ~20 s, so each fault lands in the middle of the traffic, not after it.
const SPACING_MS = Number(process.env.CHAOS_SPACING_MS ?? 350);
const MAX_SECONDS = Number(process.env.CHAOS_MAX_SECONDS ?? 540);
const ONLY = process.env.CHAOS_SCENARIOS?.split(',').map(Number);
const ANSWER_MS = 4000; // what a visitor is promised
const HUNG_MS = 30_000; // a post still unanswered by then is aborted (and counted as waiting over 4 s)
const RETRY_AFTER_SECONDS = Number(process.env.CHAOS_RETRY_AFTER ?? 20);
const FLUSH_SECONDS = 60; // long enough for a crashed holder's 30 s lease (LEASE_MS) to run out
const NEXT_START_MS = 30_000;
const STUB_START_MS = 20_000;
const CRON_SECRET = 'chaos-test-cron-secret';
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const APP_PORT = 3294 + OFFSET;
const STUB_PORT = 3295 + OFFSET;
const REDIS_PORT = 3296 + OFFSET;
const APP = `http://127.0.0.1:${APP_PORT}`;
const STUB = `http://127.0.0.1:${STUB_PORT}`;
const REDIS_URL = `redis://127.0.0.1:${REDIS_PORT}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'chaos-test-'));
// Kept after the run: the servers' own words about what went wrong.
const logDir = mkdtempSync(path.join(tmpdir(), 'chaos-test-logs-'));
/** The build the servers start from (buildApp's folder); set by main(). */
let appDir = ROOT;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const runStarted = performance.now();
const elapsed = () => ((performance.now() - runStarted) / 1000).toFixed(0);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

// ---- Types.

/** What the flush route answers. */
type FlushCounts = { delivered: number; pending: number; dead: number; spam: number };
/** The stub's GET /__summary (e2e/stub-contact-api.ts). */
type StubSummary = {
  attempts: number;
  storedByMail: Record<string, number>;
  storedAtByMail: Record<string, number | undefined>;
  throttled: number;
  earlyRetries: number;
  replayed: number;
};
type Outbox = { count: number; mails: Set<string | undefined>; leftovers?: number };
type FlushLog = { calls: number; errors: string[]; last: FlushCounts | null; seconds: number };

type Ctx = {
  scenario: Scenario;
  notes: string[];
  /** The site's variables for this scenario's `next start`, on top of the isolated environment. */
  env: Record<string, string>;
  next: Server | null;
  redis: ChildProcess | null;
  redisDir: string;
  trafficStarted: number;
  /** How many times `next start` ran in this scenario: each start has its own log file. */
  nextStarts: number;
};
type FaultEvent = { at: number; what: string; run: (ctx: Ctx) => Promise<unknown> | void };
type ScenarioDefinition = {
  title: string;
  store: 'redis' | 'files';
  env: (scenario: Scenario) => Record<string, string>;
  stubEnv?: Record<string, string>;
  flushSeconds?: number;
  serverKilled?: boolean;
  /** Returns why the scenario cannot run here, or null. */
  setup?: (ctx: Ctx) => string | null;
  events: FaultEvent[];
  clear: (ctx: Ctx) => Promise<unknown> | void;
};
type Scenario = ScenarioDefinition & { number: number; inboxDir: string };

type Counts = {
  thanked: number;
  retry: number;
  down: number;
  other: number;
  stored: number | '?';
  delivered: number | '?';
  duplicates: number | '?';
  p99: number | '-';
  max: number | '-';
  late: number;
  perEnquiry: string;
};
type Row = {
  title: string;
  number: number;
  results: EnquiryResult[];
  checks: string[];
  notes: string[];
  outbox: Outbox | null;
  before?: StubSummary;
  final: StubSummary | null;
  flush?: FlushLog;
  error?: string;
  skipped?: string;
  counts?: Counts;
  seconds?: number;
};

// ---- Child processes: each in its own process group, so a kill reaches whatever it forked.

/** redis-server, started here; Next and the stub are the harness's Servers. */
const children = new Set<ChildProcess>();
const servers = new Set<Server>();
const mounts = new Set<string>();

// One file per process: the harness truncates the log file it is given, so a restart or a
// second process writing to the same file would overwrite what the first one said.
const logFile = (number: number, name: string) => path.join(logDir, `scenario-${number}-${name}.log`);
const logPattern = (number: number) => path.join(logDir, `scenario-${number}-*.log`);

function startChild(command: string, args: string[], { env, log }: { env: NodeJS.ProcessEnv; log: string }): ChildProcess {
  const fd = openSync(log, 'a');
  const child = spawn(command, args, { cwd: ROOT, env, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

function track(server: Server): Server {
  servers.add(server);
  server.child.once('exit', () => servers.delete(server));
  return server;
}

const running = (child: ChildProcess | null | undefined): child is ChildProcess =>
  child !== null && child !== undefined && child.exitCode === null && child.signalCode === null;

function signalGroup(child: ChildProcess | null | undefined, signal: NodeJS.Signals) {
  try {
    if (child?.pid) process.kill(-child.pid, signal);
  } catch {}
}

async function stopChild(child: ChildProcess) {
  if (!running(child)) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signalGroup(child, 'SIGCONT'); // a stopped process would never see SIGTERM
  signalGroup(child, 'SIGTERM');
  if (await Promise.race([exited.then(() => true), sleep(5000).then(() => false)])) return;
  signalGroup(child, 'SIGKILL');
  await Promise.race([exited, sleep(2000)]);
}

function unmount(dir: string) {
  if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
  mounts.delete(dir);
}

process.on('exit', () => {
  for (const child of [...children, ...[...servers].map((server) => server.child)]) {
    signalGroup(child, 'SIGCONT');
    signalGroup(child, 'SIGKILL');
  }
  for (const dir of mounts) unmount(dir);
  rmSync(dataDir, { recursive: true, force: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));

const portTaken = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

// startProcess rather than startStubApi: its output goes to the scenario's logs.
async function startStub(scenario: Scenario, extraEnv: Record<string, string> = {}): Promise<Server> {
  const server = await startProcess(process.execPath, ['--import', 'tsx', path.join(ROOT, 'e2e', 'stub-contact-api.ts')], {
    port: STUB_PORT,
    processEnv: { STUB_PORT: String(STUB_PORT), ...extraEnv },
    health: '/__health',
    timeoutMs: STUB_START_MS,
    log: logFile(scenario.number, 'stub'),
  });
  return track(server);
}

async function startRedis(scenario: Scenario, dir: string): Promise<ChildProcess> {
  if (await portTaken(REDIS_PORT)) throw new Error(`port ${REDIS_PORT} is already in use (set TEST_PORT_OFFSET)`);
  // Every write on disk before Redis acknowledges it: a SIGKILL loses nothing the site was told was stored,
  // so what this scenario finds is the site's behaviour, not this Redis's durability setting.
  const args = ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', dir];
  const child = startChild('redis-server', args, { env: isolatedProcessEnv(), log: logFile(scenario.number, 'redis') });
  for (let i = 0; i < 50; i++) {
    const probe = new Redis({ host: '127.0.0.1', port: REDIS_PORT, lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0 });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return child;
    } catch {
      probe.disconnect();
      await sleep(100);
    }
  }
  throw new Error('redis-server did not start');
}

async function startApp(ctx: Ctx): Promise<Server> {
  ctx.nextStarts += 1;
  const name = ctx.nextStarts === 1 ? 'next' : `next-${ctx.nextStarts}`;
  const server = await startNext(appDir, { port: APP_PORT, env: ctx.env, log: logFile(ctx.scenario.number, name), timeoutMs: NEXT_START_MS });
  return track(server);
}

const stub = (route: string, body: unknown) =>
  fetch(`${STUB}${route}`, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(5000) });

async function stubSummary(): Promise<StubSummary> {
  return (await (await fetch(`${STUB}/__summary`, { signal: AbortSignal.timeout(5000) })).json()) as StubSummary;
}

/** A small tmpfs, filled to the last byte. Returns why it could not be made, or null. */
function fullDisk(dir: string): string | null {
  mkdirSync(dir, { recursive: true });
  const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=512k', 'tmpfs', dir], { encoding: 'utf8' });
  if (mount.status !== 0) return (mount.stderr || mount.error?.message || `mount exited ${mount.status}`).trim();
  mounts.add(dir);
  const filler = openSync(path.join(dir, 'filler'), 'w');
  try {
    for (let size = 64 * 1024; size >= 1; ) {
      try {
        writeSync(filler, Buffer.alloc(size));
      } catch (error) {
        if (!(error instanceof Error && 'code' in error && error.code === 'ENOSPC')) throw error;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(filler);
  }
  const free = statfsSync(dir);
  console.log(`  tmpfs at ${dir}: ${free.bavail * free.bsize} bytes free`);
  return null;
}

// ---- What the outbox holds (the thanked visitor's enquiry must be here or at the API).

/** An outbox entry as stored, read defensively: a torn or foreign file must not stop the count. */
type StoredEntry = { enquiry?: { mail?: string } };

async function readOutbox(scenario: Scenario): Promise<Outbox> {
  if (scenario.store === 'redis') {
    const redis = new Redis({ host: '127.0.0.1', port: REDIS_PORT, lazyConnect: true, connectTimeout: 2000, commandTimeout: 3000, maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    try {
      await redis.connect();
      const count = await redis.scard('contacto:outbox:keys');
      const mails: Array<string | undefined> = [];
      for (const key of await redis.smembers('contacto:outbox:keys')) {
        const data = await redis.hget(`contacto:outbox:${key}`, 'data');
        if (data) mails.push((JSON.parse(data) as StoredEntry).enquiry?.mail);
      }
      return { count, mails: new Set(mails) };
    } finally {
      redis.disconnect();
    }
  }
  const folder = path.join(scenario.inboxDir, 'outbox');
  const names = existsSync(folder) ? readdirSync(folder) : [];
  const entries = names.filter((name) => name.endsWith('.json'));
  const mails = entries.map((name) => {
    try {
      return (JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as StoredEntry).enquiry?.mail;
    } catch {
      return undefined;
    }
  });
  return { count: entries.length, mails: new Set(mails), leftovers: names.filter((name) => name.endsWith('.tmp')).length };
}

/** The flush route, as the scheduler calls it; until nothing is pending, bounded. */
async function flushUntilEmpty(seconds: number, deadline: number): Promise<FlushLog> {
  const stopAt = Math.min(Date.now() + seconds * 1000, deadline);
  const log: FlushLog = { calls: 0, errors: [], last: null, seconds: 0 };
  const started = performance.now();
  while (Date.now() < stopAt) {
    log.calls += 1;
    try {
      const init: RequestInit = { headers: { Authorization: `Bearer ${CRON_SECRET}` }, signal: AbortSignal.timeout(Math.max(1000, Math.min(60_000, stopAt - Date.now()))) };
      let response = await fetch(`${APP}/api/outbox/flush`, init);
      if (response.status === 405) response = await fetch(`${APP}/api/outbox/flush`, { ...init, method: 'POST' });
      if (response.status !== 200) throw new Error(`flush answered ${response.status}`);
      log.last = (await response.json()) as FlushCounts;
      if (log.last.pending === 0) break;
    } catch (error) {
      log.errors.push(messageOf(error));
    }
    await sleep(1000);
  }
  log.seconds = (performance.now() - started) / 1000;
  return log;
}

// ---- The scenarios. `at` is seconds into the traffic; `clear` runs once the traffic is over.

const files = (scenario: Scenario) => ({ CONTACT_INBOX_DIR: scenario.inboxDir });
const withRedis = (scenario: Scenario) => ({ ...files(scenario), REDIS_URL });

const SCENARIOS: ScenarioDefinition[] = [
  {
    title: '1. Redis killed, restarted',
    store: 'redis',
    env: withRedis,
    events: [
      // The API down around the kill: the enquiries of those seconds need the outbox that is gone.
      { at: 5, what: 'API down 8 s', run: () => stub('/__outage', { ms: 8000 }) },
      { at: 7, what: 'redis-server SIGKILL', run: (ctx) => signalGroup(ctx.redis, 'SIGKILL') },
      { at: 12, what: 'redis-server restarted', run: async (ctx) => (ctx.redis = await startRedis(ctx.scenario, ctx.redisDir)) },
    ],
    clear: async (ctx) => {
      if (!running(ctx.redis)) ctx.redis = await startRedis(ctx.scenario, ctx.redisDir);
    },
  },
  {
    title: '2. Redis stalled 10 s',
    store: 'redis',
    env: withRedis,
    events: [
      { at: 6, what: 'redis-server SIGSTOP', run: (ctx) => signalGroup(ctx.redis, 'SIGSTOP') },
      { at: 16, what: 'redis-server SIGCONT', run: (ctx) => signalGroup(ctx.redis, 'SIGCONT') },
    ],
    clear: async (ctx) => signalGroup(ctx.redis, 'SIGCONT'),
  },
  {
    title: '3. Full disk, API down',
    store: 'files',
    env: files,
    setup: (ctx) => fullDisk(ctx.scenario.inboxDir),
    events: [{ at: 5, what: 'API down 8 s', run: () => stub('/__outage', { ms: 8000 }) }],
    clear: async (ctx) => rmSync(path.join(ctx.scenario.inboxDir, 'filler'), { force: true }),
  },
  {
    title: '4. API 429, Retry-After',
    store: 'files',
    env: files,
    stubEnv: { STUB_THROTTLE_RATE: '0.5', STUB_RETRY_AFTER: String(RETRY_AFTER_SECONDS) },
    // An outbox that honours Retry-After waits that long before the flush may deliver.
    flushSeconds: RETRY_AFTER_SECONDS + 20,
    events: [],
    clear: () => stub('/__throttle', { rate: 0 }),
  },
  {
    title: '5. Next server SIGKILL',
    store: 'files',
    env: files,
    serverKilled: true,
    events: [
      // Enquiries of these seconds are in the outbox, held by their request's background retry, when the server dies.
      { at: 4, what: 'API down 8 s', run: () => stub('/__outage', { ms: 8000 }) },
      {
        at: 8,
        what: 'next-server SIGKILL, started again',
        run: async (ctx) => {
          // Kills the whole group and waits for it to be gone, so the port is free for the new server.
          await ctx.next?.stop('SIGKILL');
          ctx.next = await startApp(ctx);
          ctx.notes.push(`server answering again ${((performance.now() - ctx.trafficStarted) / 1000).toFixed(1)} s into the traffic`);
        },
      },
    ],
    clear: async (ctx) => {
      if (!running(ctx.next?.child)) ctx.next = await startApp(ctx);
    },
  },
];

// ---- One scenario, start to finish; never throws.

let actionId: string | undefined;
let current: { row: Row; scenario: Scenario } | undefined; // the scenario under way, for the hard stop's report

async function runScenario(number: number, definition: ScenarioDefinition): Promise<Row> {
  const scenario: Scenario = { ...definition, number, inboxDir: path.join(dataDir, `s${number}-inbox`) };
  const row: Row = { title: scenario.title, number, results: [], checks: [], notes: [], outbox: null, final: null };
  current = { row, scenario };
  const limitSeconds = 90 + (scenario.flushSeconds ?? FLUSH_SECONDS);
  const deadline = Date.now() + limitSeconds * 1000;
  const abort = new AbortController();
  const limitTimer = setTimeout(() => abort.abort(), limitSeconds * 1000);
  const ctx: Ctx = {
    scenario,
    notes: row.notes,
    env: {
      CONTACT_API_BASE_URL: `${STUB}/api/`,
      CONTACT_SITE_KEY: 'chaos-test-key', // the form's signature is derived from it: still valid after a restart
      CONTACT_RATE_LIMIT_MAX: '1000000', // every enquiry comes from 127.0.0.1
      CONTACT_OUTBOX: 'auto',
      CONTACT_OUTBOX_BACKOFF_SECONDS: '1',
      CRON_SECRET,
      ...scenario.env(scenario),
    },
    next: null,
    redis: null,
    redisDir: path.join(dataDir, `s${number}-redis`),
    trafficStarted: 0,
    nextStarts: 0,
  };
  const started = performance.now();
  console.log(`\n[${elapsed()} s] ${scenario.title}`);
  try {
    mkdirSync(ctx.redisDir, { recursive: true });
    if (scenario.setup) {
      const skipped = scenario.setup(ctx);
      if (skipped) {
        row.skipped = skipped;
        console.log(`  SKIPPED: could not mount a tmpfs for the full disk (${skipped})`);
        return row;
      }
    }
    mkdirSync(scenario.inboxDir, { recursive: true });
    await startStub(scenario, scenario.stubEnv);
    if (scenario.store === 'redis') ctx.redis = await startRedis(scenario, ctx.redisDir);
    ctx.next = await startApp(ctx);
    actionId ??= await findActionId(APP);
    const action = actionId;
    const token = await formToken(APP);

    const runId = `${Date.now().toString(36)}s${number}`;
    ctx.trafficStarted = performance.now();
    const fired = scenario.events.map(
      (event) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(async () => {
            console.log(`  [${((performance.now() - ctx.trafficStarted) / 1000).toFixed(1)} s] ${event.what}`);
            try {
              await event.run(ctx);
            } catch (error) {
              row.notes.push(`fault "${event.what}" failed: ${messageOf(error)}`);
            }
            resolve();
          }, event.at * 1000);
          abort.signal.addEventListener('abort', () => {
            clearTimeout(timer);
            resolve();
          });
        }),
    );
    const seconds = await runTraffic({
      total: TOTAL,
      concurrency: CONCURRENCY,
      spacingMs: SPACING_MS,
      shouldStop: () => abort.signal.aborted,
      send: async (index) => {
        const mail = `caos-${runId}-${index}@example.mx`;
        row.results.push(await sendEnquiry({ app: APP, actionId: action, token, index, mail, timeoutMs: HUNG_MS, signal: abort.signal }));
      },
    });
    await Promise.all(fired);
    console.log(`  ${row.results.length} enquiries in ${seconds.toFixed(1)} s`);

    // The fault clears (Redis answering again, say), then, before the flush: where is each enquiry now?
    await scenario.clear(ctx);
    try {
      row.outbox = await readOutbox(scenario);
    } catch (error) {
      row.notes.push(`outbox unreadable after the run: ${messageOf(error)}`);
    }
    // Read after the outbox: an entry gone from it meanwhile was delivered first, so none is missed.
    row.before = await stubSummary();

    row.flush = await flushUntilEmpty(scenario.flushSeconds ?? FLUSH_SECONDS, deadline);
    row.final = await stubSummary();
  } catch (error) {
    row.error = messageOf(error);
    console.log(`  ERROR: ${row.error}`);
    try {
      row.final ??= await stubSummary();
    } catch {}
  } finally {
    clearTimeout(limitTimer);
    if (abort.signal.aborted) row.notes.push(`stopped at the scenario's ${limitSeconds} s limit`);
    for (const server of [...servers]) await server.stop();
    for (const child of [...children]) await stopChild(child);
    if (mounts.has(scenario.inboxDir)) unmount(scenario.inboxDir);
    row.seconds = (performance.now() - started) / 1000;
  }
  evaluate(row, scenario);
  console.log(`  ${row.checks.length ? `FAILED: ${row.checks.join('; ')}` : 'passed'} (${row.seconds.toFixed(0)} s)`);
  return row;
}

// ---- The checks.

function evaluate(row: Row, scenario: ScenarioDefinition) {
  const { results } = row;
  const thanked = results.filter((r) => r.state === 'sent');
  const downAnswers = scenario.serverKilled ? results.filter((r) => r.outcome === 'network') : [];
  const waited = results.filter((r) => !downAnswers.includes(r));
  const late = waited.filter((r) => r.outcome !== 'answer' || r.ms > ANSWER_MS);
  const latencies = waited.map((r) => r.ms).sort((a, b) => a - b);
  const storedBefore = row.before?.storedByMail ?? {};
  const storedAfter = row.final?.storedByMail ?? {};
  const stored = (counts: Record<string, number>, mail: string) => (counts[mail] ?? 0) > 0;
  const delivered = results.filter((r) => stored(storedAfter, r.mail));
  const duplicates = results.filter((r) => (storedAfter[r.mail] ?? 0) > 1).length;

  const counts: Counts = {
    thanked: thanked.length,
    retry: results.filter((r) => r.state === 'failed').length,
    down: downAnswers.length,
    other: results.filter((r) => r.outcome === 'answer' && r.state !== 'sent' && r.state !== 'failed').length,
    stored: row.outbox ? row.outbox.count : '?',
    delivered: row.final ? delivered.length : '?',
    duplicates: row.final ? duplicates : '?',
    p99: latencies.length ? Math.round(latencies[Math.min(latencies.length - 1, Math.floor(0.99 * latencies.length))] ?? 0) : '-',
    max: latencies.length ? Math.round(latencies.at(-1) ?? 0) : '-',
    late: late.length,
    perEnquiry: row.final && results.length ? (row.final.attempts / results.length).toFixed(2) : '?',
  };
  row.counts = counts;
  if (row.skipped) return;
  if (row.error) row.checks.push(`did not complete: ${row.error}`);
  if (row.error && results.length === 0) return; // nothing was sent: the other checks would only repeat it
  if (results.length < TOTAL) row.checks.push(`only ${results.length} of ${TOTAL} enquiries sent`);

  if (late.length) {
    const hung = late.filter((r) => r.outcome === 'timeout').length;
    const unanswered = late.filter((r) => r.outcome === 'network');
    const causes = [...new Set(unanswered.map((r) => r.cause))].join(', ');
    const detail = [hung ? `${hung} aborted at ${HUNG_MS / 1000} s` : '', unanswered.length ? `${unanswered.length} with no answer (${causes})` : ''].filter(Boolean);
    row.checks.push(`answered within 4 s: ${late.length} visitor(s) waited longer${detail.length ? ` (${detail.join(', ')})` : ''}, max ${counts.max} ms`);
  }
  if (row.before) {
    const mails = row.outbox?.mails;
    const lost = thanked.filter((r) => !stored(storedBefore, r.mail) && !(mails?.has(r.mail) ?? false));
    if (lost.length) row.checks.push(`thanked but neither stored nor delivered: ${lost.length}${mails ? '' : ' (outbox unreadable: counted from deliveries only)'}`);
  } else {
    row.checks.push('thanked but neither stored nor delivered: unknown (the stub did not answer after the run)');
  }
  if (row.final) {
    if (duplicates > 0) row.checks.push(`delivered twice: ${duplicates} enquiry(ies)`);
    const undelivered = thanked.filter((r) => !stored(storedAfter, r.mail));
    if (undelivered.length) row.checks.push(`thanked but not delivered after the flush: ${undelivered.length}`);
  } else {
    row.checks.push('delivery after the flush: unknown (the stub did not answer)');
  }

  // Not failures by themselves, but worth knowing.
  const toldButDelivered = results.filter((r) => r.state === 'failed' && stored(storedAfter, r.mail)).length;
  if (toldButDelivered) row.notes.push(`${toldButDelivered} told to retry were delivered anyway (their retry would be a second enquiry)`);
  const downDelivered = downAnswers.filter((r) => stored(storedAfter, r.mail)).length;
  if (downAnswers.length) row.notes.push(`${downAnswers.length} had no answer while the server was down (${downDelivered} of them delivered anyway)`);
  if (counts.other) row.notes.push(`other answers: ${countBy(results.filter((r) => r.outcome === 'answer' && r.state !== 'sent' && r.state !== 'failed').map((r) => r.state))}`);
  if (row.final?.throttled !== undefined && scenario.stubEnv) {
    row.notes.push(`stub answered 429 ${row.final.throttled} time(s), with Retry-After: ${RETRY_AFTER_SECONDS}`);
    // The API asked for time: every retry budget here honours Retry-After.
    if (row.final.earlyRetries) row.checks.push(`honours Retry-After: ${row.final.earlyRetries} attempt(s) came before the ${RETRY_AFTER_SECONDS} s had passed`);
  }
  if (row.final?.replayed) row.notes.push(`${row.final.replayed} attempt(s) re-sent an enquiry the API already had (same key: stored once)`);
  if (row.outbox?.leftovers) row.notes.push(`${row.outbox.leftovers} temporary file(s) left in the outbox folder`);
  if (row.flush) {
    const last = row.flush.last ? JSON.stringify(row.flush.last) : 'no answer';
    row.notes.push(`flush: ${row.flush.calls} call(s) in ${row.flush.seconds.toFixed(1)} s, last ${last}${row.flush.errors.length ? `; errors: ${countBy(row.flush.errors)}` : ''}`);
  }
}

function tally(values: string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts];
}

const countBy = (values: string[]) =>
  tally(values)
    .map(([value, count]) => `${value} ×${count}`)
    .join(', ');

// What every server says at start-up: not why anything failed.
const STARTUP_LINES = /Bandeja de salida en |Reintentos: con cada|Filtro de spam|Avisos por correo|sin proxies de confianza/;

/** The distinct warnings and errors in the scenario's logs, keys and timings blanked, most frequent first. */
function logExcerpt(number: number, max = 8): string[] {
  const prefix = `scenario-${number}-`;
  const names = readdirSync(logDir).filter((name) => name.startsWith(prefix) && name.endsWith('.log'));
  const lines = names
    .flatMap((name) => readFileSync(path.join(logDir, name), 'utf8').split('\n'))
    .filter((line) => /\[contacto\]|Error|ERR|Unhandled|⨯/.test(line) && !/^\s*at /.test(line) && !STARTUP_LINES.test(line))
    .map((line) =>
      line
        .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<key>')
        .replace(/\d+ ms/g, '<n> ms')
        .replace(/\d+ intento/g, '<n> intento')
        .slice(0, 300),
    );
  return tally(lines)
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([line, count]) => `${String(count).padStart(4)} × ${line}`);
}

// ---- The report.

const COLUMNS: Array<[string, (row: Row) => string | number | undefined]> = [
  ['scenario', (row) => row.title],
  ['thanked', (row) => row.counts?.thanked],
  ['told to retry', (row) => row.counts?.retry],
  ['no answer (server down)', (row) => row.counts?.down],
  ['other', (row) => row.counts?.other],
  ['stored', (row) => row.counts?.stored],
  ['delivered', (row) => row.counts?.delivered],
  ['duplicates', (row) => row.counts?.duplicates],
  ['p99 wait (ms)', (row) => row.counts?.p99],
  ['max wait (ms)', (row) => row.counts?.max],
  ['> 4 s', (row) => row.counts?.late],
  ['API calls/enquiry', (row) => row.counts?.perEnquiry],
  ['time (s)', (row) => row.seconds?.toFixed(0)],
  ['result', (row) => (row.skipped ? 'SKIPPED' : row.checks.length ? 'FAIL' : 'pass')],
];

function printReport(rows: Row[]): number {
  const cells = rows.map((row) => COLUMNS.map(([, cell]) => String(cell(row) ?? '-')));
  const widths = COLUMNS.map(([name], i) => Math.max(name.length, ...cells.map((line) => (line[i] ?? '').length)));
  const line = (values: string[]) => `| ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(`\nChaos under load: ${TOTAL} enquiries per scenario, ${CONCURRENCY} at a time, one every ${SPACING_MS} ms (build ${readBuildId()})\n`);
  console.log(line(COLUMNS.map(([name]) => name)));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const values of cells) console.log(line(values));
  for (const row of rows) {
    console.log(`\n${row.title}: ${row.skipped ? `skipped (${row.skipped})` : row.checks.length ? 'FAILED' : 'passed'}`);
    for (const check of row.checks) console.log(`  FAILED ${check}`);
    for (const note of row.notes) console.log(`  note: ${note}`);
    if (row.checks.length) {
      const excerpt = logExcerpt(row.number);
      if (excerpt.length) console.log(`  server log (${logPattern(row.number)}):\n${excerpt.map((l) => `    ${l}`).join('\n')}`);
    }
  }
  const failed = rows.filter((row) => row.checks.length);
  console.log(`\nServer logs: ${logDir}`);
  console.log(`Total ${elapsed()} s. ${rows.length - failed.length} scenario(s) passed or skipped, ${failed.length} failed${failed.length ? `: ${failed.map((row) => row.title).join(', ')}` : ''}.`);
  return failed.length;
}

const readBuildId = () => {
  try {
    return readFileSync(path.join(appDir, '.next', 'BUILD_ID'), 'utf8').trim();
  } catch {
    return '?';
  }
};

// ---- Main.

const rows: Row[] = [];
const hardStop = setTimeout(() => {
  console.error(`\nChaos test stopped: over ${MAX_SECONDS} s.`);
  if (current && !rows.includes(current.row)) {
    evaluate(current.row, current.scenario);
    current.row.checks.unshift(`stopped by the hard stop (CHAOS_MAX_SECONDS=${MAX_SECONDS}) while under way`);
    rows.push(current.row);
  }
  printReport(rows);
  process.exit(1);
}, MAX_SECONDS * 1000);
hardStop.unref();

async function main(): Promise<number> {
  appDir = await buildApp(MAIN_APP);
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    console.error('redis-server is missing: run `tsx scripts/ensure-test-tools.ts` (apt-get install redis-server)');
    return 1;
  }

  console.log(`Chaos under load on 127.0.0.1:${APP_PORT} (stub ${STUB_PORT}, Redis ${REDIS_PORT}); server logs in ${logDir}`);
  for (const [i, definition] of SCENARIOS.entries()) {
    if (ONLY && !ONLY.includes(i + 1)) continue;
    rows.push(await runScenario(i + 1, definition));
  }
  clearTimeout(hardStop);
  return printReport(rows) ? 1 : 0;
}

// The 'exit' handler above stops every child and removes the data folder.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
