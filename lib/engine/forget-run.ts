import 'server-only';
import { createHash } from 'node:crypto';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { getWorkflowWorld } from './choose-world';

/**
 * Deletes all the engine keeps of one ended run (its input is the lead). Upstream has no delete API for a run: this
 * follows
 * @workflow/world-local 4.4.1's files and world-postgres 4.3.7's tables (pinned). Proved by e2e/retention.spec.ts and
 * forget-run.test.ts.
 *
 * `tombstone`, for a run cancelled just now: its record stays, cancelled and emptied of input, output and error. A
 * message the queue still holds for it (its start, re-sent after a sleep, carries the input) would otherwise re-create
 * the whole run from that input: the SDK's "resilient start" (core 4.8 runtime.js, world-local events-storage.js).
 * Against a cancelled record it is skipped. The tombstone is forgotten like any ended run.
 */
export async function forgetRun(runId: string, { tombstone = false } = {}): Promise<void> {
  // The engine's ids (wrun_<ULID>): anything else could reach outside the data folder or match other runs.
  if (!/^wrun_[0-9A-HJKMNP-TV-Z]{26}$/.test(runId))
    throw new Error(`${runId} no es el id de una ejecución`);
  const world = getWorkflowWorld();
  if (world.kind === 'local')
    return forgetLocalRun(
      path.resolve(/* turbopackIgnore: true */ process.cwd(), world.dir),
      runId,
      tombstone,
    );
  if (world.kind === 'postgres') return forgetPostgresRun(world.url, runId, tombstone);
  if (world.kind === 'vercel')
    throw new Error(
      'En Vercel las ejecuciones las guarda Vercel: desde aquí no se pueden borrar (caducan según el plan; o ' +
        'desde el panel de Vercel).',
    );
  throw new Error(
    `El motor de entregas ${world.target} no es el local ni PostgreSQL: no sé borrar sus datos.`,
  );
}

// A run still running is refused: the engine would go on writing it.
const RUNNING = 'sigue en curso: cancélala antes de borrarla';
/**
 * One JSON file per entity, named after the run (`<runId>.json`, `<runId>-<id>.json`), plus hooks and streams found
 * through it.
 */
async function forgetLocalRun(dir: string, runId: string, tombstone: boolean): Promise<void> {
  const run = await readJson(path.join(dir, 'runs', `${runId}.json`));
  if (run && (run.status === 'pending' || run.status === 'running'))
    throw new Error(`La ejecución ${runId} ${RUNNING}`);
  const ofRun = (name: string) => name.startsWith(`${runId}.`) || name.startsWith(`${runId}-`);
  const files = async (sub: string) =>
    (await readdir(path.join(dir, sub)).catch(() => [] as string[])).map((name) =>
      path.join(dir, sub, name),
    );
  const doomed: string[] = [];
  // Hooks are named by their own id: found by the runId inside (the hook, the token's claim) or in the run's events.
  const hookIds = new Set<string>();
  for (const file of (await files('events')).filter((file) => ofRun(path.basename(file)))) {
    const event = await readJson(file);
    if (event?.eventType === 'hook_created' && typeof event.correlationId === 'string')
      hookIds.add(event.correlationId);
  }
  for (const file of [...(await files('hooks')), ...(await files('hooks/tokens'))].filter((file) =>
    file.endsWith('.json'),
  )) {
    const hook = await readJson(file);
    if (hook?.runId !== runId) continue;
    doomed.push(file);
    if (typeof hook.hookId === 'string' && typeof hook.token === 'string') {
      hookIds.add(hook.hookId);
      // A recovery marker, left only when a crash interrupted a hook's creation.
      const marker = createHash('sha256')
        .update(`${hook.token}\x00${runId}\x00${hook.hookId}`)
        .digest('hex');
      doomed.push(path.join(dir, 'hooks', 'tokens', `${marker}.recovery.json`));
    }
  }
  for (const file of await files('.locks/hooks'))
    if ([...hookIds].some((id) => path.basename(file).startsWith(`${id}.`))) doomed.push(file);
  // A stream's chunks are named by the stream, which the run's list names (a lead's run writes none today).
  const streams = (await readJson(path.join(dir, 'streams', 'runs', `${runId}.json`)))?.streams;
  const streamNames: string[] = Array.isArray(streams)
    ? streams.filter((name): name is string => typeof name === 'string')
    : [];
  for (const file of await files('streams/chunks'))
    if (streamNames.some((name) => path.basename(file).startsWith(`${name}-`))) doomed.push(file);
  for (const sub of ['events', 'steps', 'waits', 'streams/runs', '.locks/steps', '.locks/waits'])
    doomed.push(...(await files(sub)).filter((file) => ofRun(path.basename(file))));
  // The run itself last: until then a second try finds the rest through it.
  const runFiles = (await files('runs')).filter((file) => ofRun(path.basename(file)));
  if (!tombstone || !run) doomed.push(...runFiles);
  for (const file of doomed) await rm(file, { force: true });
  if (tombstone && run) {
    const now = new Date().toISOString();
    const { runId: id, deploymentId, workflowName, specVersion, createdAt, completedAt } = run;
    const emptied = {
      runId: id,
      deploymentId,
      workflowName,
      specVersion,
      status: 'cancelled',
      createdAt,
      completedAt: completedAt ?? now,
      updatedAt: now,
    };
    // Whole, by rename, as the world writes its files.
    const file = path.join(dir, 'runs', `${runId}.json`);
    await writeFile(`${file}.tmp`, JSON.stringify(emptied));
    await rename(`${file}.tmp`, file);
  }
}

/**
 * The world's tables in the `workflow` schema, and the queue's jobs that still carry the run (a failed start keeps its
 * input there).
 */
async function forgetPostgresRun(url: string, runId: string, tombstone: boolean): Promise<void> {
  const client = new Client({
    connectionString: url,
    connectionTimeoutMillis: 10_000,
    query_timeout: 30_000,
  });
  await client.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ status: string }>(
      'SELECT status FROM workflow.workflow_runs WHERE id = $1 FOR UPDATE',
      [runId],
    );
    if (rows[0] && (rows[0].status === 'pending' || rows[0].status === 'running'))
      throw new Error(`La ejecución ${runId} ${RUNNING}`);
    for (const table of [
      'workflow_events',
      'workflow_steps',
      'workflow_hooks',
      'workflow_waits',
      'workflow_stream_chunks',
    ]) {
      await client.query(`DELETE FROM workflow.${table} WHERE run_id = $1`, [runId]);
    }
    if (!tombstone) await client.query('DELETE FROM workflow.workflow_runs WHERE id = $1', [runId]);
    else {
      await client.query(
        `UPDATE workflow.workflow_runs SET status = 'cancelled',
           completed_at = coalesce(completed_at, now()), updated_at = now(),
           input = NULL, input_cbor = NULL, output = NULL, output_cbor = NULL, error = NULL, error_cbor = NULL,
           execution_context = NULL, execution_context_cbor = NULL WHERE id = $1`,
        [runId],
      );
    }
    // Every start queues the run's input too; graphile-worker deletes a job once done, but one that failed
    // for good stays, its message (base64 in payload.data) naming the run. The CASE keeps decode() off
    // what is not base64 (another application's jobs): PostgreSQL may evaluate an AND in any order.
    const { rows: queue } = await client.query<{ jobs: string | null }>(
      "SELECT to_regclass('graphile_worker._private_jobs')::text AS jobs",
    );
    if (queue[0]?.jobs) {
      await client.query(
        `DELETE FROM graphile_worker._private_jobs WHERE locked_at IS NULL AND CASE
           WHEN translate(payload->>'data', E' \\n\\r\\t', '')
             ~ '^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$'
           THEN position(convert_to($1, 'UTF8') IN decode(payload->>'data', 'base64')) > 0 ELSE false END`,
        [runId],
      );
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

/** A JSON file's object, or null when it is missing or unreadable (the world writes each file whole, by rename). */
async function readJson(file: string): Promise<Record<string, unknown> | null> {
  const value: unknown = await readFile(file, 'utf8')
    .then(JSON.parse)
    .catch(() => null);
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
}
