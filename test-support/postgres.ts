// A real, throwaway PostgreSQL for the tests of the Postgres world (the
// Workflow SDK's engine when the site runs on several machines): Debian's
// server binaries, a new cluster in a temporary folder, on 127.0.0.1 at a port
// free when it starts. The folder and the server go when the test stops them,
// or with the Node process that started them, whatever ends it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chownSync,
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

const DEBIAN_POSTGRES = '/usr/lib/postgresql';

export type Postgres = {
  /** postgres://world:<password>@127.0.0.1:<port>/world: a role that owns its database and nothing else, as in production. */
  url: string;
  port: number;
  /** A new empty database owned by the same role, for a test that needs one of its own; its URL. */
  createDatabase: () => Promise<string>;
  /** Fast shutdown, then the folder is removed. */
  stop: () => Promise<void>;
  /** Fast shutdown (or none, after kill) and a start on the same data and port: "PostgreSQL restarted under load". */
  restart: () => Promise<void>;
  /** Immediate shutdown (no checkpoint: the next start recovers from the log, as after a crash); the data stays for restart(). */
  kill: () => Promise<void>;
};

/** The newest Debian PostgreSQL's bin folder (/usr/lib/postgresql/<version>/bin), or null when none is installed. */
export function debianPostgresBin(): string | null {
  if (!existsSync(DEBIAN_POSTGRES)) return null;
  const versions = readdirSync(DEBIAN_POSTGRES)
    .filter((version) => existsSync(path.join(DEBIAN_POSTGRES, version, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(DEBIAN_POSTGRES, versions[0], 'bin') : null;
}

// The server refuses to run as root: as root, its processes run as the postgres user Debian's package creates.
function serverUser(): { uid: number; gid: number } | Record<string, never> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => {
    const answer = spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
    if (answer.status !== 0)
      throw new Error(
        'No postgres user: run scripts/ensure-test-tools.ts (apt-get install postgresql)',
      );
    return Number(answer.stdout.trim());
  };
  return { uid: id('-u'), gid: id('-g') };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

// Every server started here and still running, by its folder; killed (the whole process group) and removed with the process that started it.
const live = new Map<string, ChildProcess | null>();
process.on('exit', () => {
  for (const [dir, child] of live) {
    try {
      if (child?.pid) process.kill(-child.pid, 'SIGKILL');
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  }
});

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** A real PostgreSQL on 127.0.0.1 at a free port, with a role and database `world` (random password). */
export async function startPostgres(): Promise<Postgres> {
  const bin = debianPostgresBin();
  if (!bin)
    throw new Error(
      'PostgreSQL is missing: run scripts/ensure-test-tools.ts (apt-get install postgresql)',
    );
  const user = serverUser();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'postgres-test-'));
  live.set(dir, null);
  if ('uid' in user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const logFile = path.join(dir, 'postgres.log');
  const port = await freePort();
  const password = randomBytes(18).toString('hex');

  // Local (socket) connections are trusted, for the set-up below; TCP ones need the password, as in production.
  const init = spawnSync(
    path.join(bin, 'initdb'),
    [
      '-D',
      data,
      '-U',
      'postgres',
      '--auth-local=trust',
      '--auth-host=scram-sha-256',
      '-E',
      'UTF8',
      '--locale=C',
      '--no-sync',
    ],
    {
      ...user,
      encoding: 'utf8',
    },
  );
  if (init.status !== 0) throw new Error(`initdb failed:\n${init.stdout}${init.stderr}`);

  // A test database: nothing here must survive a power cut, so no fsync (the restart and kill tests still go through the log).
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    `unix_socket_directories=${dir}`,
    '-c',
    'fsync=off',
    '-c',
    'full_page_writes=off',
  ];
  let child: ChildProcess | null = null;
  const admin = () => new Client({ host: dir, port, user: 'postgres', database: 'postgres' });

  const start = async () => {
    const fd = openSync(logFile, 'a');
    // Its own process group, like the harness's servers: a Ctrl-C reaches us, and our exit handler ends it with its backends.
    const started = spawn(path.join(bin, 'postgres'), args, {
      ...user,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    // Not what keeps this process alive: a test that forgets stop() still ends, and the exit handler below takes the server with it.
    started.unref();
    child = started;
    live.set(dir, started);
    for (let i = 0; i < 150; i++) {
      if (started.exitCode !== null || started.signalCode !== null) break;
      const probe = admin();
      try {
        await probe.connect();
        await probe.query('select 1');
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      } finally {
        await probe.end().catch(() => {});
      }
    }
    started.kill('SIGKILL');
    throw new Error(
      `PostgreSQL did not start on port ${port}:\n${readFileSync(logFile, 'utf8').slice(-2000)}`,
    );
  };

  const shutDown = async (signal: 'SIGINT' | 'SIGQUIT') => {
    const running = child;
    child = null;
    live.set(dir, null);
    if (!running?.pid || running.exitCode !== null || running.signalCode !== null) return;
    // SIGINT is PostgreSQL's fast shutdown, SIGQUIT its immediate one; sent to the postmaster, which ends its backends.
    running.kill(signal);
    const force = setTimeout(() => {
      try {
        if (running.pid) process.kill(-running.pid, 'SIGKILL');
      } catch {}
    }, 10_000);
    await ended(running);
    clearTimeout(force);
  };

  const asAdmin = async (sql: string) => {
    const client = admin();
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };

  const urlOf = (database: string) => `postgres://world:${password}@127.0.0.1:${port}/${database}`;
  let databases = 0;
  try {
    await start();
    await asAdmin(`create role world login password '${password}'`);
    await asAdmin('create database world owner world');
  } catch (error) {
    await shutDown('SIGQUIT');
    live.delete(dir);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return {
    url: urlOf('world'),
    port,
    createDatabase: async () => {
      databases += 1;
      await asAdmin(`create database world_${databases} owner world`);
      return urlOf(`world_${databases}`);
    },
    stop: async () => {
      await shutDown('SIGINT');
      live.delete(dir);
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async () => {
      await shutDown('SIGINT');
      await start();
    },
    kill: () => shutDown('SIGQUIT'),
  };
}

/** The rows `sql` returns on `url`, over a connection of its own (the tests' look at the database). */
export async function queryRows(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}
