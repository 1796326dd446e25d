/**
 * @jest-environment node
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Logger, makeWorkerUtils, run } from 'graphile-worker';
import { Pool } from 'pg';
import {
  debianPostgresBin,
  queryRows,
  startPostgres,
  type Postgres,
} from '@/test-support/postgres';
import { prepareWorkflowPostgres, queueWorkers, releaseStaleJobLocks } from './postgres';

const quiet = new Logger(() => () => {});
let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 30_000);
afterAll(() => postgres?.stop());

// What the world's start() runs (@workflow/world-postgres dist/queue.js: makeWorkerUtils, then migrate).
async function worldStartMigration(url: string) {
  const pool = new Pool({ connectionString: url, max: 1 });
  const utils = await makeWorkerUtils({ pgPool: pool, logger: quiet });
  try {
    await utils.migrate();
  } finally {
    await utils.release();
    await pool.end();
  }
}

async function waitFor(done: () => boolean, timeoutMs = 10_000) {
  for (const deadline = Date.now() + timeoutMs; !done() && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 50));
}

const migrationsDone = async (url: string) =>
  Number(
    (await queryRows(url, 'select count(*) as n from workflow_drizzle.workflow_migrations'))[0]?.n,
  );

function bootstrapCli(url: string) {
  const setup = path.join(
    path.dirname(
      createRequire(path.join(process.cwd(), 'index.js')).resolve('@workflow/world-postgres'),
    ),
    '..',
    'bin',
    'setup.js',
  );
  // Run from an empty folder: the CLI loads a .env from where it runs.
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'bootstrap-'));
  try {
    return spawnSync(process.execPath, [setup], {
      cwd,
      env: { ...process.env, WORKFLOW_POSTGRES_URL: url },
      encoding: 'utf8',
      timeout: 30_000,
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

function schemaOf(url: string): string {
  const dump = spawnSync(path.join(debianPostgresBin() ?? '', 'pg_dump'), ['--schema-only', url], {
    encoding: 'utf8',
  });
  if (dump.status !== 0) throw new Error(dump.stderr);
  // pg_dump's \restrict lines carry a random key.
  return dump.stdout.replace(/^\\(un)?restrict .*$/gm, '');
}

describe('prepareWorkflowPostgres', () => {
  it("makes the world's tables on an empty database, and a second call changes nothing", async () => {
    const url = await postgres.createDatabase();
    await prepareWorkflowPostgres(url);
    const done = await migrationsDone(url);
    expect(done).toBeGreaterThan(0);
    await prepareWorkflowPostgres(url);
    expect(await migrationsDone(url)).toBe(done);
    await expect(
      queryRows(url, "select to_regclass('workflow.workflow_runs') as runs"),
    ).resolves.toEqual([{ runs: 'workflow.workflow_runs' }]);
  });

  it("lets four servers start at once on an empty database, then the world's own start-up migration on two at once", async () => {
    const url = await postgres.createDatabase();
    await Promise.all([1, 2, 3, 4].map(() => prepareWorkflowPostgres(url)));
    await Promise.all([worldStartMigration(url), worldStartMigration(url)]);
    await expect(
      queryRows(url, "select to_regclass('graphile_worker._private_jobs') as jobs"),
    ).resolves.toEqual([{ jobs: 'graphile_worker._private_jobs' }]);
  }, 30_000);

  it('leaves the same database as `npx bootstrap`, and either runs after the other with nothing to do', async () => {
    const ours = await postgres.createDatabase();
    await prepareWorkflowPostgres(ours);
    await worldStartMigration(ours);
    const theirs = await postgres.createDatabase();
    expect(bootstrapCli(theirs).status).toBe(0);
    expect(schemaOf(ours)).toBe(schemaOf(theirs));

    const done = await migrationsDone(ours);
    expect(bootstrapCli(ours).status).toBe(0);
    await prepareWorkflowPostgres(theirs);
    expect([await migrationsDone(ours), await migrationsDone(theirs)]).toEqual([done, done]);
  }, 60_000);
});

describe('releaseStaleJobLocks', () => {
  it("gives another server the job of a server killed mid-step; a sleeping run's wake-up needs nothing", async () => {
    const url = await postgres.createDatabase();
    await prepareWorkflowPostgres(url);
    await worldStartMigration(url);
    const pool = new Pool({ connectionString: url });
    // graphile-worker's listening connection can still be closing when PostgreSQL stops after the tests.
    pool.on('error', () => {});
    const utils = await makeWorkerUtils({ pgPool: pool, logger: quiet });
    await utils.addJob('step', {});

    // A server whose step never ends, as graphile-worker runs it under the world (dist/queue.js: run()), killed once it holds the job.
    const doomed = spawn(
      process.execPath,
      [
        '-e',
        `require('graphile-worker').run({ connectionString: process.argv[1], concurrency: 1, pollInterval: 500, noHandleSignals: true,
        logger: new (require('graphile-worker').Logger)(() => () => {}), taskList: { step: () => { console.log('locked'); return new Promise(() => {}); } } })`,
        url,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) =>
      doomed.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve()),
    );
    doomed.kill('SIGKILL');
    await new Promise((resolve) => doomed.once('exit', resolve));
    // What a sleeping run leaves: a job due later, locked by no one (dist/queue.js, the 'reschedule' branch).
    await utils.addJob('wake', {}, { runAt: new Date(Date.now() + 1000) });

    const ran: string[] = [];
    const survivor = await run({
      pgPool: pool,
      concurrency: 2,
      pollInterval: 500,
      noHandleSignals: true,
      logger: quiet,
      taskList: {
        step: async () => void ran.push('step'),
        wake: async () => void ran.push('wake'),
      },
    });
    try {
      await waitFor(() => ran.includes('wake'));
      // graphile-worker's own reset (at start, then every 8 to 10 minutes) frees only locks over 4 hours old.
      expect(ran).toEqual(['wake']);

      expect(await releaseStaleJobLocks(url, 1)).toBe(1);
      await waitFor(() => ran.includes('step'));
      expect(ran).toEqual(['wake', 'step']);
    } finally {
      await survivor.stop();
      await utils.release();
      await pool.end();
    }
  }, 30_000);
});

describe('queueWorkers', () => {
  it("counts this process's graphile-worker workers, and sees them end when PostgreSQL restarts under a job", async () => {
    await prepareWorkflowPostgres(postgres.url);
    const pool = new Pool({ connectionString: postgres.url, max: 6 });
    pool.on('error', () => {}); // the restart ends its idle clients
    let running = 0;
    const runner = await run({
      pgPool: pool,
      concurrency: 3,
      logger: quiet,
      pollInterval: 100,
      taskList: {
        // Each job is still running when PostgreSQL goes, and ends once it is gone: its worker cannot record that.
        slow: async () => {
          running += 1;
          await new Promise((resolve) => setTimeout(resolve, 1500));
        },
      },
    });
    try {
      expect(queueWorkers()).toBe(3);
      const utils = await makeWorkerUtils({ pgPool: pool, logger: quiet });
      for (let i = 0; i < 3; i++) await utils.addJob('slow', {});
      await utils.release();
      for (const stop = Date.now() + 10_000; running < 3 && Date.now() < stop;)
        await new Promise((resolve) => setTimeout(resolve, 50));
      // Down while the jobs run (a restart under load is slower than a job): each worker then fails to record its
      // job's end, "Failed to release job ... committing seppuku", and graphile-worker 0.16.6 starts none in its place.
      await postgres.kill();
      for (const stop = Date.now() + 15_000; (queueWorkers() ?? 0) > 0 && Date.now() < stop;)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(queueWorkers()).toBe(0);
      await postgres.restart();
      // PostgreSQL is back, and still none works.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(queueWorkers()).toBe(0);
    } finally {
      await runner.stop().catch(() => {});
      await pool.end().catch(() => {});
    }
    // Stopped on purpose, a pool is no longer counted: no queue of this world runs here.
    expect(queueWorkers()).toBeUndefined();
  }, 60_000);
});
