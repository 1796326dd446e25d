// What one chaos scenario works with: its own stub contact API, its servers
// (each `next start` with its own log), its folders, its traffic (the load
// test's, scripts/load/traffic.ts) and the faults it fires in the middle of
// that traffic. Everything it starts or mounts is undone by cleanUp(), and by
// the process's exit whatever ends it.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  cpSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statfsSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { ROOT, startNext, startProcess, type Server } from '../../test-support/harness';
import { awaitDeliveries, countBy, sabotageAfter, sabotageBefore } from '../load/ledger';
import { stubClient, type StubClient, type StubSummary } from '../load/stub-client';
import {
  findActionId,
  formTokens,
  runTraffic,
  sendEnquiry,
  type EnquiryResult,
} from '../load/traffic';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
export const messageOf = (error: unknown) =>
  error instanceof Error ? error.message : String(error);

const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
/** Scenario `number`'s ports (3310-3312 for the first, 3320-3322 for the second...): scenarios run side by side. */
export const portsOf = (number: number) => {
  const base = 3300 + 10 * number + OFFSET;
  return { app: base, stub: base + 1, second: base + 2 };
};

export const TRAFFIC = {
  total: Number(process.env.CHAOS_ENQUIRIES ?? 60),
  concurrency: Number(process.env.CHAOS_CONCURRENCY ?? 8),
  // Visitors arrive over ~15 s or more, so a fault lands in the middle of the traffic, not after it.
  spacingMs: Number(process.env.CHAOS_SPACING_MS ?? 250),
};
// Every thanked lead must be at the API this long after the fault cleared (the API back, the other server alone).
export const DELIVER_WITHIN_MS = 90_000;
const HUNG_MS = 30_000; // a post still unanswered by then is aborted (and counted as no answer)

// Everything mounted by any scenario: unmounted on exit whatever ends the run.
const mounted = new Set<string>();
function unmount(dir: string) {
  if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
  mounted.delete(dir);
}
process.on('exit', () => {
  for (const dir of mounted) unmount(dir);
});

/** A fault fired when enquiry `atIndex` is about to be posted; the traffic goes on meanwhile. */
export type Fault = { atIndex: number; what: string; run: () => Promise<unknown> };

let actionId: string | undefined;

export class Kit {
  readonly results: EnquiryResult[] = [];
  readonly checks: string[] = [];
  readonly notes: string[] = [];
  readonly ports: ReturnType<typeof portsOf>;
  readonly stub: StubClient;
  /** When the fault cleared: the deliveries are timed from here, and allowed this long. */
  clearedAt = 0;
  allowedMs = DELIVER_WITHIN_MS;
  summary: StubSummary | undefined;
  private readonly servers = new Set<Server>();
  private readonly killed = new Set<Server>();
  private readonly undo: Array<() => Promise<unknown> | void> = [];
  private readonly started = performance.now();
  /** The server started last: where SABOTAGE=other posts. */
  private latest: Server | undefined;
  readonly runId: string;

  constructor(
    readonly number: number,
    readonly dir: string,
    readonly logDir: string,
    readonly signal: AbortSignal,
  ) {
    this.runId = `${Date.now().toString(36)}s${number}`;
    this.ports = portsOf(number);
    this.stub = stubClient(`http://127.0.0.1:${this.ports.stub}`);
    mkdirSync(dir, { recursive: true });
  }

  /** A line of the scenario's timeline, numbered: scenarios run side by side. */
  mark(what: string) {
    console.log(
      `  ${this.number}. [${((performance.now() - this.started) / 1000).toFixed(1)} s] ${what}`,
    );
  }

  folder(name: string): string {
    const dir = path.join(this.dir, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  logFile(name: string): string {
    return path.join(this.logDir, `scenario-${this.number}-${name}.log`);
  }

  /** Where a folder of the scenario is copied to be read after the run. */
  keptDir(name: string): string {
    return path.join(this.logDir, `scenario-${this.number}-${name}`);
  }

  /** Runs `step` when the scenario ends, last registered first (a database stopped after the servers using it). */
  onCleanUp(step: () => Promise<unknown> | void) {
    this.undo.push(step);
  }

  async startStub(env: Record<string, string> = {}) {
    const server = await startProcess(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'e2e', 'stub-contact-api.ts')],
      {
        port: this.ports.stub,
        processEnv: { STUB_PORT: String(this.ports.stub), ...env },
        health: '/__health',
        timeoutMs: 20_000,
        log: this.logFile('stub'),
      },
    );
    this.servers.add(server);
    // Under SABOTAGE=drop: leads of the start, middle and end of the traffic refused for ever.
    await sabotageBefore(
      this.stub,
      [1, Math.floor(TRAFFIC.total / 2), TRAFFIC.total - 2].map((index) => this.mailOf(index)),
    );
  }

  mailOf(index: number): string {
    return `caos-${this.runId}-${index}@example.mx`;
  }

  /** `next start` of `appDir` on `port`: this scenario's stub, a 1 s backoff, and `env` (the world, its folders). */
  async startApp(
    appDir: string,
    name: string,
    port: number,
    env: Record<string, string>,
  ): Promise<Server> {
    const server = await startNext(appDir, {
      port,
      env: {
        CONTACT_API_BASE_URL: `${this.stub.base}/api/`,
        CONTACT_SITE_KEY: 'chaos-test-key',
        CONTACT_RATE_LIMIT_MAX: '1000000', // every enquiry comes from 127.0.0.1
        CONTACT_OUTBOX_BACKOFF_SECONDS: '1',
        ...env,
      },
      log: this.logFile(name),
      timeoutMs: 60_000,
    });
    this.servers.add(server);
    this.latest = server;
    this.mark(`${name} started on :${port}`);
    return server;
  }

  async kill(server: Server, name: string) {
    this.mark(`SIGKILL ${name}`);
    this.killed.add(server);
    await server.stop('SIGKILL');
  }

  /**
   * TRAFFIC.total enquiries to `app`, `faults` fired on the way (each awaited before this returns).
   * Results go to this.results.
   */
  async traffic(app: Server, faults: Fault[] = []) {
    actionId ??= await findActionId(app.url);
    // One signature per enquiry, from the server that takes them (bound to this address, spent once).
    const tokens = await formTokens(app.url, TRAFFIC.total);
    const action = actionId;
    const fired: Array<Promise<unknown>> = [];
    this.mark(
      `traffic: ${TRAFFIC.total} enquiries, ${TRAFFIC.concurrency} at a time, one every ${TRAFFIC.spacingMs} ms`,
    );
    const seconds = await runTraffic({
      ...TRAFFIC,
      shouldStop: () => this.signal.aborted,
      beforeSend: (index) => {
        for (const fault of faults.filter((f) => f.atIndex === index)) {
          this.mark(`${fault.what} (before enquiry ${index})`);
          fired.push(
            fault.run().then(
              () => this.mark(`${fault.what}: done`),
              (error: unknown) =>
                this.checks.push(`the fault "${fault.what}" failed: ${messageOf(error)}`),
            ),
          );
        }
      },
      send: async (index) => {
        this.results.push(
          await sendEnquiry({
            app: app.url,
            actionId: action,
            token: tokens[index] ?? '',
            index,
            mail: this.mailOf(index),
            timeoutMs: HUNG_MS,
            signal: this.signal,
          }),
        );
      },
    });
    await Promise.all(fired);
    this.mark(
      `traffic done in ${seconds.toFixed(1)} s: ${countBy(this.results.map((r) => r.state.slice(0, 40)))}`,
    );
  }

  /** The API takes enquiries again from now: clearedAt is set, the deliveries are timed from here. */
  async apiUp() {
    await this.stub.up();
    this.clearedAt = Date.now();
    this.mark('contact API up');
  }

  /** Waits for every thanked lead (`withinMs` after clearedAt at most) and keeps the stub's summary. */
  async deliveries(withinMs = DELIVER_WITHIN_MS): Promise<StubSummary> {
    this.clearedAt ||= Date.now();
    this.allowedMs = withinMs;
    this.summary = await awaitDeliveries(this.stub, this.results, this.clearedAt + withinMs);
    if (this.latest && actionId) {
      await sabotageAfter(this.stub, this.results, { app: this.latest.url, actionId });
      this.summary = await this.stub.summary();
    }
    const stored = this.results.filter((r) => this.summary?.storedByMail[r.mail]).length;
    this.mark(`deliveries: ${stored} of ${this.results.length} enquiries at the API`);
    return this.summary;
  }

  /** A server that ended without being killed here: said in the notes. */
  private reportDeaths() {
    for (const server of this.servers) {
      const { exitCode, signalCode } = server.child;
      if (!this.killed.has(server) && (exitCode !== null || signalCode !== null))
        this.notes.push(`a server on :${server.port} exited by itself (${exitCode ?? signalCode})`);
    }
  }

  /**
   * A tmpfs of `size` mounted on `dir` (created), as root; returns why not when mount refuses.
   * Unmounted when the scenario ends.
   */
  mountTmpfs(dir: string, size: string): string | null {
    mkdirSync(dir, { recursive: true });
    const mount = spawnSync(
      'mount',
      ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir],
      {
        encoding: 'utf8',
      },
    );
    if (mount.status !== 0)
      return (mount.stderr || mount.error?.message || `mount exited ${mount.status}`).trim();
    mounted.add(dir);
    this.onCleanUp(() => unmount(dir));
    return null;
  }

  /** Stops and undoes everything; `keepTo`: first a copy of the scenario's folders there (the world's runs, to read why a lead was lost). */
  async cleanUp(keepTo?: string) {
    this.reportDeaths();
    for (const server of this.servers) await server.stop().catch(() => {});
    if (keepTo) {
      try {
        cpSync(this.dir, keepTo, { recursive: true });
      } catch (error) {
        this.notes.push(`copy of the data: ${messageOf(error)}`);
      }
    }
    for (const step of this.undo.reverse()) {
      try {
        await step();
      } catch (error) {
        this.notes.push(`clean-up: ${messageOf(error)}`);
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The first line of server `name`'s log that matches `pattern`, or undefined. */
  logLine(name: string, pattern: RegExp): string | undefined {
    try {
      return readFileSync(this.logFile(name), 'utf8')
        .split('\n')
        .find((line) => pattern.test(line));
    } catch {
      return undefined;
    }
  }

  /** The distinct warnings and errors in this scenario's logs, keys and numbers blanked, most frequent first. */
  logExcerpt(max = 8): string[] {
    const prefix = `scenario-${this.number}-`;
    const lines = readdirSync(this.logDir)
      .filter((name) => name.startsWith(prefix) && name.endsWith('.log'))
      .flatMap((name) => readFileSync(path.join(this.logDir, name), 'utf8').split('\n'))
      .filter(
        (line) =>
          /ERROR|Error|error|⨯|WARN|warn|\[contacto\].*(no |falló|ERROR)/.test(line) &&
          !/^\s*at /.test(line),
      )
      .map((line) =>
        line
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<key>')
          .replace(/wrun_[0-9A-Z]+|msg_[0-9A-Z]+|step_[0-9A-Z]+/g, '<id>')
          .replace(/\d+/g, 'n')
          .slice(0, 240),
      );
    const counts = new Map<string, number>();
    for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
    return [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, max)
      .map(([line, count]) => `${String(count).padStart(4)} × ${line}`);
  }
}

/** Fills the file system holding `dir` to its last byte (a file `filler` in it); returns the bytes written. */
export function fillDisk(dir: string): number {
  const file = path.join(dir, 'filler');
  const fd = openSync(file, 'w');
  let written = 0;
  try {
    for (let size = 256 * 1024; size >= 1;) {
      try {
        written += writeSync(fd, Buffer.alloc(size));
      } catch (error) {
        if (!(error instanceof Error && 'code' in error && error.code === 'ENOSPC')) throw error;
        size = Math.floor(size / 2);
      }
    }
  } finally {
    closeSync(fd);
  }
  const free = statfsSync(dir);
  if (free.bavail > 0)
    throw new Error(`${free.bavail * free.bsize} bytes still free after filling ${dir}`);
  return written;
}

export function freeDisk(dir: string) {
  rmSync(path.join(dir, 'filler'), { force: true });
}
