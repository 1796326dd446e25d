// The one way the test runs build the site and start servers: Playwright's
// global set-up, the crash and spam specs, the isolation, quality, load and
// chaos runs.
//
// A build is named by what it bakes in (its NEXT_PUBLIC_ values and any files
// it changes) and is made once: a stamp of the sources and that description
// sits beside it, and the next run that asks for the same build starts it as
// it is. Server-only variables are read when a server starts, so one build
// serves any number of servers with different environments.
//
// `main` is built in the project's own .next. Every other build is a copy of
// the project under .next/apps/<name> (its files, node_modules as hard links:
// Turbopack does not follow a symlinked node_modules out of the project),
// where git, ESLint, TypeScript and Jest never look.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { cssLaterInBuild } from '../scripts/build/css-later';
import { cssOnceInBuild } from '../scripts/build/css-once';
import { isolatedProcessEnv } from './isolated-env';

/** The project: where the npm scripts run (the folder above that holds next.config.ts). */
export const ROOT = projectRoot(process.cwd());

function projectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'next.config.ts')) && existsSync(path.join(dir, 'test-support')))
      return dir;
    if (path.dirname(dir) === dir)
      throw new Error(`No project (next.config.ts) at or above ${from}`);
  }
}
// Outside .next/: the Workflow SDK's builder skips any path with /.next/ in it, so a copy there would register no workflow.
const APPS_DIR = path.join(ROOT, '.cache', 'test-apps');
const STAMP = path.join('.next', 'harness-stamp');
/** What `next build` said, kept beside the build. */
export const BUILD_LOG = path.join('.next', 'harness-build.log');
// Test code and docs do not change what `next build` makes; scripts/build/ does (npm run build runs it after).
const NOT_BUILT =
  /^(e2e|scripts(?!\/build\/)|test-support|docs|\.github|\.ci)\/|\.md$|\.test\.tsx?$/;

export type AppSpec = {
  /** `main`, or the folder under .cache/test-apps. */
  name: string;
  /** What the build bakes in: the NEXT_PUBLIC_ values (server-only ones are read at start). */
  publicEnv: Record<string, string>;
  /** Changes the copy before it is built (the agency's pictures, a .env.local); part of the stamp. */
  prepare?: { id: string; run: (dir: string) => Promise<void> | void };
  /** Another app altogether (the quality run's bare page): writes its files into `dir` instead of copying the project. */
  create?: { id: string; run: (dir: string) => void };
};

function projectFiles(): string[] {
  const listed = spawnSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  return listed.stdout.split('\0').filter((file) => file && existsSync(path.join(ROOT, file)));
}

function stampOf(spec: AppSpec, files: string[]): string {
  const hash = createHash('sha256');
  hash.update(
    JSON.stringify([spec.name, spec.publicEnv, spec.prepare?.id ?? '', spec.create?.id ?? '']),
  );
  const lock = path.join(ROOT, 'package-lock.json');
  if (existsSync(lock)) hash.update(readFileSync(lock));
  if (spec.create) return hash.digest('hex');
  for (const file of files.filter((name) => !NOT_BUILT.test(name)).sort())
    hash.update(`\0${file}\0`).update(readFileSync(path.join(ROOT, file)));
  return hash.digest('hex');
}

export function appDir(name: string): string {
  return name === 'main' ? ROOT : path.join(APPS_DIR, name);
}

function linkNodeModules(dir: string) {
  const linked = spawnSync('cp', [
    '-al',
    path.join(ROOT, 'node_modules'),
    path.join(dir, 'node_modules'),
  ]);
  if (linked.status !== 0) throw new Error(`cp -al node_modules: ${linked.stderr}`);
}

/**
 * A copy starts from the main build's Turbopack cache, as Vercel restores a project's build cache: only what
 * its own values and files change is compiled again (the no-tags copy: 20 s -> 11 s here).
 */
function seedBuildCache(dir: string) {
  const cache = path.join(ROOT, '.next', 'cache', 'turbopack');
  if (existsSync(cache))
    cpSync(cache, path.join(dir, '.next', 'cache', 'turbopack'), { recursive: true });
}

function copyProject(dir: string, files: string[]) {
  rmSync(dir, { recursive: true, force: true });
  for (const file of files) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(dir, file));
  }
  linkNodeModules(dir);
}

const nextBin = (dir: string) => path.join(dir, 'node_modules', '.bin', 'next');

// Every process started here and still running; killed with the process that started them, whatever ends it.
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) {
    try {
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL'); // not a group of its own (a build: Ctrl-C reaches it with ours)
    }
  }
});

/** The isolated environment with `site` on top, then `own`; `without` left out (to watch the isolation test fail). */
function environment(
  site: Record<string, string>,
  own: Record<string, string>,
  without: string[],
): NodeJS.ProcessEnv {
  const env = { ...isolatedProcessEnv(site), ...own };
  for (const key of without) delete env[key];
  return env;
}

/**
 * The build `spec` describes, made now unless the same one is already there.
 * Returns its folder; `log` receives the build's output.
 */
export async function buildApp(
  spec: AppSpec,
  { log, without = [] }: { log?: (line: string) => void; without?: string[] } = {},
): Promise<string> {
  const files = spec.create ? [] : projectFiles();
  const dir = appDir(spec.name);
  const stamp = stampOf(spec, files) + (without.length ? `-${without.join(',')}` : '');
  const stampFile = path.join(dir, STAMP);
  if (
    existsSync(path.join(dir, '.next', 'BUILD_ID')) &&
    existsSync(stampFile) &&
    readFileSync(stampFile, 'utf8') === stamp
  ) {
    console.log(`> next build (${spec.name}): up to date`);
    return dir;
  }
  if (spec.create) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    spec.create.run(dir);
    linkNodeModules(dir);
  } else if (spec.name !== 'main') {
    copyProject(dir, files);
    seedBuildCache(dir);
  }
  await spec.prepare?.run(dir);
  console.log(`> next build (${spec.name})`);
  const started = Date.now();
  // Not spawnSync: a Ctrl-C during the build must still run the caller's clean-up.
  const child = spawn(nextBin(dir), ['build'], {
    cwd: dir,
    env: environment(spec.publicEnv, { TEST_HARNESS_BUILD: '1' }, without),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk;
    if (log) for (const line of chunk.toString().split('\n')) if (line) log(line);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  live.delete(child);
  if (code !== 0) throw new Error(`next build (${spec.name}) failed:\n${output.slice(-4000)}`);
  // What `npm run build` does after `next build`; the bare page (spec.create) is Next's alone.
  if (!spec.create) {
    const pages = cssOnceInBuild(path.join(dir, '.next'));
    output += `\ncss-once: ${pages.filter((page) => page.removedBytes > 0).length} pages rewritten\n`;
    const later = cssLaterInBuild(path.join(dir, '.next'));
    output += `css-later: ${later.filter((page) => page.movedBytes > 0).length} pages rewritten\n`;
  }
  writeFileSync(path.join(dir, BUILD_LOG), output);
  writeFileSync(stampFile, stamp);
  console.log(`  ${spec.name} built in ${Math.round((Date.now() - started) / 1000)} s`);
  return dir;
}

/** Waits until `url` answers 2xx; throws after `timeoutMs`, or at once when `exited()` says the server died. */
export async function waitForUrl(
  url: string,
  { timeoutMs = 30_000, exited }: { timeoutMs?: number; exited?: () => string | null } = {},
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const died = exited?.();
    if (died !== null && died !== undefined) throw new Error(`${url}: the server exited (${died})`);
    if (
      await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

export type Server = {
  url: string;
  port: number;
  child: ChildProcess;
  /** Ends the server (its whole process group) and waits for it. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
};

/** True when something still answers on the port after 5 s (a server just killed needs a moment to let go). */
async function portTaken(port: number): Promise<boolean> {
  for (let i = 0; i < 25; i++) {
    const answered = await fetch(`http://127.0.0.1:${port}/`, {
      signal: AbortSignal.timeout(2000),
    }).then(
      () => true,
      () => false,
    );
    if (!answered) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return true;
}

type StartOptions = {
  port: number;
  /** Variables the site reads, on top of the isolated environment (test-support/isolated-env.ts). */
  env?: Record<string, string>;
  /** The process's own settings, not the site's (STUB_PORT, say). */
  processEnv?: Record<string, string>;
  /** Variables left out altogether, so a .env file could supply them. */
  without?: string[];
  /** A file that receives the server's stdout and stderr; otherwise they are dropped (or `inherit`). */
  log?: string | 'inherit';
  /** What must answer 2xx before the server counts as started (default `/`). */
  health?: string;
  timeoutMs?: number;
};

/** Spawns `command` detached (its own process group), waits for its health URL. */
export async function startProcess(
  command: string,
  args: string[],
  {
    port,
    env = {},
    processEnv = {},
    without = [],
    log,
    health = '/',
    timeoutMs = 60_000,
    cwd = ROOT,
  }: StartOptions & { cwd?: string },
): Promise<Server> {
  // A server left over on the port would answer instead: test nothing rather than the wrong one.
  if (await portTaken(port))
    throw new Error(
      `Port ${port} is already in use: stop what listens there (or set TEST_PORT_OFFSET).`,
    );
  // A file descriptor, not a pipe: the child's last lines reach the file even when it dies at once. Appended: a restarted server keeps one log.
  const fd = log && log !== 'inherit' ? openSync(path.resolve(ROOT, log), 'a') : null;
  const output = log === 'inherit' ? 'inherit' : (fd ?? 'ignore');
  const child = spawn(command, args, {
    cwd,
    env: environment(env, processEnv, without),
    stdio: ['ignore', output, output],
    detached: true,
  });
  if (fd !== null) closeSync(fd);
  live.add(child);
  let exited: string | null = null;
  const ended = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = String(code ?? signal);
      live.delete(child);
      resolve();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (exited === null && child.pid) {
      try {
        process.kill(-child.pid, signal);
      } catch {}
      const force = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {}
      }, 5000);
      await ended;
      clearTimeout(force);
    }
  };
  try {
    await waitForUrl(`${url}${health}`, { timeoutMs, exited: () => exited });
  } catch (error) {
    await stop('SIGKILL');
    throw error;
  }
  return { url, port, child, stop };
}

/** `next start` of a build on 127.0.0.1:`port`, with the isolated environment and `env` on top. */
export function startNext(dir: string, options: StartOptions): Promise<Server> {
  const env = { PORT: String(options.port), ...options.env };
  return startProcess(
    nextBin(dir),
    ['start', '--port', String(options.port), '--hostname', '127.0.0.1'],
    {
      ...options,
      env,
      cwd: dir,
    },
  );
}

/** The stub contact API (e2e/stub-contact-api.ts) on `port`; `env` takes its STUB_* settings. */
export function startStubApi(port: number, env: Record<string, string> = {}): Promise<Server> {
  return startProcess(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'e2e', 'stub-contact-api.ts')],
    {
      port,
      processEnv: { STUB_PORT: String(port), ...env },
      health: '/__health',
      timeoutMs: 20_000,
    },
  );
}

/** Stops every server given, whatever state each is in. */
export async function stopAll(servers: Array<Server | undefined>) {
  await Promise.all(servers.map((server) => server?.stop().catch(() => {})));
}
