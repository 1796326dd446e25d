/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { debianPostgresBin, startPostgres, type Postgres } from '@/test-support/postgres';
import { forgetRun } from './forget-run';

/*
 * Against real worlds: the local one in a temporary folder, and PostgreSQL's
 * (a throwaway server) when it is installed. test-support/lead-run-fixture.mjs writes each
 * lead's run through the world's own API.
 */

// Each run is a Node process writing a dozen files or rows: seconds on a busy machine.
jest.setTimeout(60_000);

const saved = { ...process.env };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'forget-'));
  Object.assign(process.env, { WORKFLOW_TARGET_WORLD: 'local', WORKFLOW_LOCAL_DATA_DIR: dir });
});
afterEach(() => {
  process.env = { ...saved };
  rmSync(dir, { recursive: true, force: true });
});

/** A lead's run by `mail` in the world `where` (a folder or a postgres:// URL), left running, completed or cancelled; its id. */
const runOf = (mail: string, end: 'running' | 'completed' | 'cancelled' | 'resend', where = dir) =>
  execFileSync(
    process.execPath,
    [path.join(__dirname, '..', '..', 'test-support', 'lead-run-fixture.mjs'), where, mail, end],
    { encoding: 'utf8' },
  ).trim();

/** Every file in the world's folder, with what it holds. */
function files(): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    found.set(path.relative(dir, file), readFileSync(file, 'latin1'));
  }
  return found;
}

describe('forgetting a lead’s run in the local world', () => {
  it.each(['completed', 'cancelled'] as const)(
    'leaves no file of a %s run, and every file of another lead’s',
    async (end) => {
      runOf('jorge@example.mx', 'running');
      const before = files();
      const mariana = runOf('mariana@example.mx', end);
      // The run wrote its input, steps, waits, hooks or locks, and a stream (the mail in plain text).
      expect(files().size).toBeGreaterThan(before.size + 8);

      await forgetRun(mariana);

      const after = files();
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [file, text] of after) {
        expect(`${file}: ${text}`).not.toContain(mariana);
        expect(`${file}: ${text}`).not.toContain('mariana@example.mx');
      }
    },
  );

  it('keeps a cancelled run’s emptied record when asked, so the queue’s message cannot re-create it', async () => {
    const jorge = runOf('jorge@example.mx', 'cancelled');
    // Without the record, the start message the queue sends again after a sleep brings the run back.
    const gone = runOf('mariana@example.mx', 'cancelled');
    await forgetRun(gone);
    expect(runOf(gone, 'resend')).toBe('running');

    await forgetRun(jorge, { tombstone: true });
    const left = [...files()].filter(([, text]) => text.includes(jorge));
    const record = left[0]?.[1] ?? '';
    expect(left.map(([file]) => file)).toEqual([path.join('runs', `${jorge}.json`)]);
    expect(record).not.toContain('jorge@example.mx');
    expect(JSON.parse(record)).toMatchObject({ runId: jorge, status: 'cancelled' });
    expect(JSON.parse(record)).not.toHaveProperty('input');
    expect(runOf(jorge, 'resend')).toMatch(/RunExpiredError|EntityConflictError/);
    // The engine forgets the record after its period, like any ended run.
    await forgetRun(jorge);
    expect([...files()].filter(([, text]) => text.includes(jorge))).toEqual([]);
  });

  it('refuses a run still running, and leaves it whole (forgetting cancels it first)', async () => {
    const jorge = runOf('jorge@example.mx', 'running');
    const before = files();
    await expect(forgetRun(jorge)).rejects.toThrow(/sigue en curso: cancélala/);
    expect(files()).toEqual(before);
  });

  it('takes only the engine’s run ids, so no path can reach outside its folder', async () => {
    await expect(forgetRun('wrun_../../etc')).rejects.toThrow(/no es el id de una ejecución/);
  });

  it('says plainly that Vercel’s runs cannot be deleted from here', async () => {
    process.env.WORKFLOW_TARGET_WORLD = 'vercel';
    await expect(forgetRun('wrun_01KAZ0000000000000000000AB')).rejects.toThrow(
      /En Vercel .* no se pueden borrar/,
    );
  });
});

(debianPostgresBin() ? describe : describe.skip)('forgetting a lead’s run in PostgreSQL', () => {
  let postgres: Postgres;
  let client: Client;
  beforeAll(async () => {
    postgres = await startPostgres();
    // The world's tables and graphile-worker's, as `npx --package=@workflow/world-postgres bootstrap` makes them.
    const setup = path.join(__dirname, '../../node_modules/@workflow/world-postgres/bin/setup.js');
    execFileSync(process.execPath, [setup], {
      env: { ...process.env, WORKFLOW_POSTGRES_URL: postgres.url },
      stdio: 'ignore',
    });
    client = new Client({ connectionString: postgres.url });
    await client.connect();
  }, 120_000);
  afterAll(async () => {
    await client?.end();
    await postgres?.stop();
  });
  beforeEach(() =>
    Object.assign(process.env, {
      WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
      WORKFLOW_POSTGRES_URL: postgres.url,
    }),
  );

  /** A queue job whose message names the run, as world-postgres writes one (JSON, base64), left failed for good. */
  const job = (runId: string) =>
    client.query(
      "SELECT graphile_worker.add_job('workflow_flows', json_build_object('data', $1::text), max_attempts => 1)",
      [
        Buffer.from(JSON.stringify({ runId, runInput: { input: 'la solicitud' } })).toString(
          'base64',
        ),
      ],
    );
  /** How many rows name the run, table by table. */
  async function rowsOf(runId: string): Promise<Record<string, number>> {
    const rows: Record<string, number> = {};
    for (const [table, column] of [
      ['workflow_runs', 'id'],
      ...[
        'workflow_events',
        'workflow_steps',
        'workflow_hooks',
        'workflow_waits',
        'workflow_stream_chunks',
      ].map((t) => [t, 'run_id']),
    ]) {
      rows[table as string] = Number(
        (await client.query(`SELECT count(*) FROM workflow.${table} WHERE ${column} = $1`, [runId]))
          .rows[0].count,
      );
    }
    const jobs = await client.query(
      "SELECT count(*) FROM graphile_worker._private_jobs WHERE position(convert_to($1, 'UTF8') IN decode(payload->>'data', 'base64')) > 0",
      [runId],
    );
    rows.jobs = Number(jobs.rows[0].count);
    return rows;
  }

  it('deletes every row of a finished run and its failed job, and nothing of another lead’s', async () => {
    const jorge = runOf('jorge@example.mx', 'running', postgres.url);
    const mariana = runOf('mariana@example.mx', 'completed', postgres.url);
    await job(jorge);
    await job(mariana);
    const jorgeBefore = await rowsOf(jorge);
    expect(Object.values(await rowsOf(mariana)).reduce((a, b) => a + b)).toBeGreaterThan(10);

    await forgetRun(mariana);

    expect(Object.values(await rowsOf(mariana))).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(await rowsOf(jorge)).toEqual(jorgeBefore);
    await expect(forgetRun(jorge)).rejects.toThrow(/sigue en curso/);
    expect(await rowsOf(jorge)).toEqual(jorgeBefore);
  });

  it('keeps a cancelled run’s emptied row when asked, so the queue’s message cannot re-create it', async () => {
    const gone = runOf('mariana@example.mx', 'cancelled', postgres.url);
    await forgetRun(gone);
    expect(runOf(gone, 'resend', postgres.url)).toBe('running');

    const jorge = runOf('jorge@example.mx', 'cancelled', postgres.url);
    await forgetRun(jorge, { tombstone: true });
    expect(await rowsOf(jorge)).toEqual({
      workflow_runs: 1,
      workflow_events: 0,
      workflow_steps: 0,
      workflow_hooks: 0,
      workflow_waits: 0,
      workflow_stream_chunks: 0,
      jobs: 0,
    });
    const { rows } = await client.query(
      'SELECT status, input, input_cbor, output_cbor, error_cbor, execution_context_cbor FROM workflow.workflow_runs WHERE id = $1',
      [jorge],
    );
    expect(rows[0]).toEqual({
      status: 'cancelled',
      input: null,
      input_cbor: null,
      output_cbor: null,
      error_cbor: null,
      execution_context_cbor: null,
    });
    expect(runOf(jorge, 'resend', postgres.url)).toMatch(/RunExpiredError|EntityConflictError/);
    await forgetRun(jorge);
    expect(Object.values(await rowsOf(jorge))).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});
