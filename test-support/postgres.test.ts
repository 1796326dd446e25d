/**
 * @jest-environment node
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Logger, makeWorkerUtils } from 'graphile-worker';
import { Pool } from 'pg';
import { queryRows, startPostgres, type Postgres } from './postgres';

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 30_000);
afterAll(() => postgres?.stop());

// What `npx bootstrap` (@workflow/world-postgres's dist/cli.js, setupDatabase) runs, minus its process.exit():
// drizzle's migrator on the package's own migrations, then graphile-worker's.
async function bootstrapAsTheCliDoes(url: string) {
  const entry = createRequire(path.join(process.cwd(), 'index.js')).resolve(
    '@workflow/world-postgres',
  );
  const pool = new Pool({ connectionString: url, max: 1 });
  try {
    await migrate(drizzle(pool), {
      migrationsFolder: path.join(path.dirname(entry), '..', 'src', 'drizzle', 'migrations'),
      migrationsTable: 'workflow_migrations',
      migrationsSchema: 'workflow_drizzle',
    });
    const utils = await makeWorkerUtils({ pgPool: pool, logger: new Logger(() => () => {}) });
    try {
      await utils.migrate();
    } finally {
      await utils.release();
    }
  } finally {
    await pool.end();
  }
}

describe('a throwaway PostgreSQL', () => {
  it('logs in as world with its password over TCP, and refuses a wrong one', async () => {
    expect(postgres.url).toMatch(/^postgres:\/\/world:[0-9a-f]+@127\.0\.0\.1:\d+\/world$/);
    await expect(
      queryRows(postgres.url, 'select current_user as who, current_database() as db'),
    ).resolves.toEqual([{ who: 'world', db: 'world' }]);
    await expect(
      queryRows(postgres.url.replace(/:[0-9a-f]+@/, ':wrong@'), 'select 1'),
    ).rejects.toThrow(/password authentication failed/);
  });

  it('keeps its data through a fast restart, and through an immediate stop and a start', async () => {
    await queryRows(postgres.url, 'create table kept (n int); insert into kept values (1)');
    await postgres.restart();
    await expect(queryRows(postgres.url, 'select n from kept')).resolves.toEqual([{ n: 1 }]);

    await postgres.kill();
    await expect(queryRows(postgres.url, 'select 1')).rejects.toThrow(/ECONNREFUSED/);
    await postgres.restart();
    await expect(queryRows(postgres.url, 'select n from kept')).resolves.toEqual([{ n: 1 }]);
  }, 30_000);

  it("takes the Postgres world's migration from Node, as `npx bootstrap` runs it, twice", async () => {
    const url = await postgres.createDatabase();
    await bootstrapAsTheCliDoes(url);
    await bootstrapAsTheCliDoes(url);
    const [tables] = await queryRows(
      url,
      "select to_regclass('workflow.workflow_runs') as runs, to_regclass('graphile_worker._private_jobs') as jobs",
    );
    expect(tables).toEqual({
      runs: 'workflow.workflow_runs',
      jobs: 'graphile_worker._private_jobs',
    });
  }, 30_000);
});
