// What the Postgres world (@workflow/world-postgres 4.3.7, pinned: this reads its migration journal and
// graphile-worker 0.16.6's private tables and list of pools) needs from us and does not do itself: its tables made by
// each server at start-up (its own setup exits the process and races; chaos scenario 2 starts two servers together),
// a job left locked by a dead server given back (graphile-worker frees it only after a fixed 4 hours, with no option:
// chaos scenario 2, a server of two SIGKILLed), and telling when this server's queue workers are gone (chaos
// scenario 3, PostgreSQL restarted).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Client } from 'pg';

// Any number, the same on every server: servers starting at once take turns at the migration.
const MIGRATION_LOCK = 0x776f726c64;

function connect(url: string): Client {
  // A migration statement, or the wait for another server's, is seconds; a minute means something is wrong.
  return new Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    statement_timeout: 60_000,
  });
}

// The copy of the package the SDK itself loads: it resolves the world from the project's folder too (@workflow/core,
// runtime/world.js).
function migrationsFolder(): string {
  const entry = createRequire(path.join(process.cwd(), 'index.js')).resolve(
    '@workflow/world-postgres',
  );
  return path.join(path.dirname(entry), '..', 'src', 'drizzle', 'migrations');
}

/**
 * Creates or updates the world's tables, as `npx bootstrap` (the package's
 * setupDatabase) does, but callable at start-up: setupDatabase exits the
 * process when done, reads its URL from the environment and .env, and two of
 * them started at once on an empty database fail (CREATE SCHEMA races).
 * Here every caller waits its turn on an advisory lock. Idempotent.
 */
export async function prepareWorkflowPostgres(url: string): Promise<void> {
  const client = connect(url);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    await migrateWorld(client);
    // graphile-worker's bootstrap (installSchema in graphile-worker/dist/migrate.js), the part of its migration that
    // two servers cannot run at once. With its table there, the world's start() runs the rest, each step claimed by
    // inserting its number.
    await client.query(`create schema if not exists graphile_worker;
      create table if not exists graphile_worker.migrations(id int primary key, ts timestamptz default now() not null);
      alter table graphile_worker.migrations add column if not exists breaking boolean not null default false`);
  } finally {
    await client.end(); // ends the session, and the advisory lock with it
  }
}

// Drizzle's migrator as setupDatabase runs it, with its bookkeeping (workflow_drizzle.workflow_migrations), so either
// may run after the other.
async function migrateWorld(client: Client) {
  const folder = migrationsFolder();
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string; when: number }>;
  };
  await client.query('create schema if not exists workflow_drizzle');
  await client.query(
    'create table if not exists workflow_drizzle.workflow_migrations (id serial primary key, hash text not null, ' +
      'created_at bigint)',
  );
  const { rows } = await client.query<{ created_at: string }>(
    'select created_at from workflow_drizzle.workflow_migrations order by created_at desc limit 1',
  );
  const last = rows[0] ? Number(rows[0].created_at) : -Infinity;
  const pending = journal.entries.filter((entry) => entry.when > last);
  if (pending.length === 0) return;
  await client.query('begin');
  try {
    for (const { tag, when } of pending) {
      const sql = readFileSync(path.join(folder, `${tag}.sql`), 'utf8');
      for (const statement of sql.split('--> statement-breakpoint')) await client.query(statement);
      const hash = createHash('sha256').update(sql).digest('hex');
      await client.query(
        'insert into workflow_drizzle.workflow_migrations (hash, created_at) values ($1, $2)',
        [hash, when],
      );
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/**
 * Gives back the jobs locked for longer than `olderThanSeconds`: graphile-worker's
 * own reset (graphile-worker/dist/sql/resetLockedAt.js) with a bound of ours
 * instead of its fixed 4 hours. A server killed mid-step leaves its job locked,
 * and without this another server takes it only after 4 hours (or when some
 * server restarts and the world re-enqueues its active runs). The bound must
 * be longer than any step or replay takes, or a slow one runs twice: the steps'
 * own timeouts make that a minute or two. Returns how many jobs were freed.
 */
export async function releaseStaleJobLocks(url: string, olderThanSeconds: number): Promise<number> {
  const client = connect(url);
  await client.connect();
  try {
    const freed = await client.query(
      `with queues as (
         update graphile_worker._private_job_queues set locked_at = null, locked_by = null
         where locked_at < now() - make_interval(secs => $1))
       update graphile_worker._private_jobs set locked_at = null, locked_by = null, run_at = greatest(run_at, now())
       where locked_at < now() - make_interval(secs => $1)`,
      [olderThanSeconds],
    );
    return freed.rowCount ?? 0;
  } finally {
    await client.end();
  }
}

/** graphile-worker's pool of queue workers, as its module keeps them (`_allWorkerPools`, dist/main.js, 0.16.6). */
type WorkerPool = { _workers: unknown[]; _shuttingDown?: boolean };

/**
 * The queue workers this process runs for the Postgres world: undefined when it runs none (another world, or not
 * started). graphile-worker 0.16.6 ends a worker for good when it cannot record a job's end ("Failed to release job
 * ... committing seppuku": PostgreSQL restarting), and starts no other; with all ten gone, this server's queue stops
 * while the site goes on taking leads. Read from graphile-worker's own module, as the world loads it (from the
 * project's node_modules, not the server's bundle).
 */
export function queueWorkers(): number | undefined {
  let pools: WorkerPool[] | undefined;
  try {
    const main = createRequire(path.join(process.cwd(), 'index.js'))(
      'graphile-worker/dist/main',
    ) as {
      _allWorkerPools?: WorkerPool[];
    };
    pools = main._allWorkerPools?.filter((pool) => !pool._shuttingDown);
  } catch {
    return undefined;
  }
  if (!pools?.length) return undefined;
  return pools.reduce((workers, pool) => workers + pool._workers.length, 0);
}
