// The chaos scenarios, each a story told with the kit (kit.ts): what breaks,
// when, and what must still hold. Every scenario ends with the common checks
// (chaos-test.ts): every thanked lead stored by the stub once, none under two
// keys, every visitor answered thanks or "try again". The checks a scenario
// adds are its own (the Retry-After's, the full disk's).
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../test-support/harness';
import {
  debianPostgresBin,
  queryRows,
  startPostgres,
  type Postgres,
} from '../../test-support/postgres';
import { refused, sabotaged } from '../load/ledger';
import { fillDisk, freeDisk, sleep, TRAFFIC, type Kit } from './kit';

export type Scenario = {
  title: string;
  /** Its own time limit, when longer than CHAOS_SCENARIO_SECONDS. */
  limitSeconds?: number;
  /** Run after the others, by itself: no other scenario's load on the machine. */
  alone?: boolean;
  /** Why it cannot run here, or null. */
  skip?: () => string | null;
  run: (kit: Kit, appDir: string) => Promise<void>;
};

const at = (share: number) => Math.floor(TRAFFIC.total * share);
// How long the leads wait between rounds before a server is killed: some asleep, some inside a round.
const WAITING_MS = 4000;
const RETRY_AFTER_SECONDS = 3;

/** The local world (the default): its files in `${CONTACT_INBOX_DIR}/workflow` (lib/engine/choose-world.ts). */
const localWorld = (inbox: string) => ({ CONTACT_INBOX_DIR: inbox });
const postgresWorld = (inbox: string, url: string) => ({
  CONTACT_INBOX_DIR: inbox,
  WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
  WORKFLOW_POSTGRES_URL: url,
});

/** Whether some server module (not a test) makes the Postgres world's tables at start-up with lib/engine/postgres.ts. */
function preparesPostgres(dir = path.join(ROOT, 'lib')): boolean {
  return readdirSync(dir, { withFileTypes: true }).some((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return preparesPostgres(file);
    return (
      /(?<!\.test)\.ts$/.test(entry.name) &&
      entry.name !== 'postgres.ts' &&
      readFileSync(file, 'utf8').includes('prepareWorkflowPostgres(')
    );
  });
}

function postgresMissing(): string | null {
  if (!existsSync(path.join(ROOT, 'lib', 'engine', 'postgres.ts')))
    return 'lib/engine/postgres.ts (the Postgres world, its tables made at start-up) is not in the project yet';
  if (!preparesPostgres())
    return "no server module calls prepareWorkflowPostgres() yet: the Postgres world's tables would not exist";
  if (!debianPostgresBin())
    return 'no PostgreSQL server (/usr/lib/postgresql/<version>/bin): run scripts/ensure-test-tools.ts';
  return null;
}

async function postgres(kit: Kit): Promise<Postgres> {
  const database = await startPostgres();
  kit.onCleanUp(() => database.stop());
  // Run after the servers stop, before the database does: what the engine still holds, to read a lost lead by.
  kit.onCleanUp(() => engineState(kit, database.url));
  kit.mark(`PostgreSQL on :${database.port}`);
  return database;
}

/** A note of the runs by status and the jobs graphile-worker still has (attempts, lock, last error). */
async function engineState(kit: Kit, url: string) {
  try {
    const runs = await queryRows(
      url,
      'select status, count(*)::int as n from workflow.workflow_runs group by status order by status',
    );
    const jobs = await queryRows(
      url,
      `select task_identifier as task, attempts, max_attempts, locked_at is not null as locked, round(extract(epoch from run_at - now())) as due_in_s,
         round(extract(epoch from now() - created_at)) as age_s, key, left(coalesce(last_error, ''), 160) as error
       from graphile_worker.jobs order by id limit 10`,
    );
    kit.notes.push(
      `engine at the end: runs ${runs.map((r) => `${String(r.status)} ${String(r.n)}`).join(', ') || 'none'}; jobs left ${jobs.length}${jobs.length ? `: ${JSON.stringify(jobs)}` : ''}`,
    );
    const stuck = await queryRows(
      url,
      `select e.run_id, e.type, e.correlation_id, round(extract(epoch from now() - e.created_at)) as ago_s
       from workflow.workflow_events e join workflow.workflow_runs r on r.id = e.run_id
       where r.status not in ('completed', 'cancelled') order by e.created_at desc limit 12`,
    );
    if (stuck.length) kit.notes.push(`latest events of unfinished runs: ${JSON.stringify(stuck)}`);
    const steps = await queryRows(
      url,
      `select s.step_id, s.step_name, s.status, s.attempt, round(extract(epoch from now() - s.updated_at)) as updated_ago_s, s.completed_at is not null as has_completed_at
       from workflow.workflow_steps s join workflow.workflow_runs r on r.id = s.run_id
       where r.status not in ('completed', 'cancelled') order by s.created_at desc limit 6`,
    );
    if (steps.length) kit.notes.push(`latest steps of unfinished runs: ${JSON.stringify(steps)}`);
  } catch (error) {
    kit.notes.push(
      `engine at the end: unreadable (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

export const SCENARIOS: Scenario[] = [
  {
    title: '1. server SIGKILLed, leads waiting',
    limitSeconds: 420,
    async run(kit, appDir) {
      await kit.startStub();
      await kit.stub.down();
      const env = localWorld(kit.folder('inbox'));
      const app = await kit.startApp(appDir, 'next', kit.ports.app, env);
      await kit.traffic(app);
      await sleep(WAITING_MS);
      const before = await kit.stub.summary();
      await kit.kill(app, 'next start');
      await kit.startApp(appDir, 'next-restarted', kit.ports.app, env);
      await kit.apiUp();
      const summary = await kit.deliveries();
      // The API was down until the restart: every lead stored came from the restarted server.
      kit.notes.push(
        `${Object.keys(before.storedByMail).length} stored before the kill; ${summary.attempts - before.attempts} API attempts after it`,
      );
      const recovered = kit.logLine('next-restarted', /Re-enqueued \d+ active run/);
      kit.notes.push(
        `the restarted server: ${recovered?.trim() ?? 'no "Re-enqueued" line in its log'}`,
      );
    },
  },
  {
    title: '2. two servers on one PostgreSQL, one SIGKILLed',
    skip: postgresMissing,
    limitSeconds: 420,
    async run(kit, appDir) {
      const database = await postgres(kit);
      await kit.startStub();
      await kit.stub.down();
      // Separate folders: two machines with one database between them.
      const first = await kit.startApp(
        appDir,
        'next-a',
        kit.ports.app,
        postgresWorld(kit.folder('inbox-a'), database.url),
      );
      await kit.startApp(
        appDir,
        'next-b',
        kit.ports.second,
        postgresWorld(kit.folder('inbox-b'), database.url),
      );
      await kit.traffic(first);
      await sleep(WAITING_MS);
      await kit.kill(first, 'next-a (took every enquiry)');
      await kit.apiUp();
      await kit.deliveries();
    },
  },
  {
    title: '3. PostgreSQL restarted under load',
    skip: postgresMissing,
    // A restart under load ends graphile-worker's workers ("Failed to release job ... committing seppuku"), and it
    // starts none in their place: the CI run of stop 53's work lost 56 of 60 leads so. lib/engine/start.ts now
    // starts the queue again (its log: "La cola del motor de entregas se detuvo ... arrancada de nuevo").
    alone: !process.env.CHAOS_TOGETHER,
    async run(kit, appDir) {
      const database = await postgres(kit);
      await kit.startStub();
      await kit.stub.down();
      const app = await kit.startApp(
        appDir,
        'next',
        kit.ports.app,
        postgresWorld(kit.folder('inbox'), database.url),
      );
      await kit.traffic(app, [
        {
          atIndex: at(0.4),
          what: 'PostgreSQL restarted (fast shutdown, start)',
          run: () => database.restart(),
        },
      ]);
      await sleep(WAITING_MS);
      await kit.apiUp();
      await kit.deliveries();
    },
  },
  {
    title: '4. full disk under the local world',
    async run(kit, appDir) {
      const inbox = kit.folder('inbox');
      // The world's own folder on a small tmpfs, filled in the middle of the traffic.
      const worldDir = path.join(inbox, 'workflow');
      const refused = kit.mountTmpfs(worldDir, '16m');
      if (refused) {
        kit.checks.push(`could not mount a tmpfs for the world's folder (${refused})`);
        return;
      }
      // Copied out before the tmpfs goes: the runs' own record, to read what became of a lead.
      kit.onCleanUp(() => cpSync(worldDir, kit.keptDir('world'), { recursive: true }));
      await kit.startStub();
      await kit.stub.down();
      const app = await kit.startApp(appDir, 'next', kit.ports.app, localWorld(inbox));
      let filledAt = 0;
      await kit.traffic(app, [
        {
          atIndex: at(0.35),
          what: "the world's disk filled",
          run: async () => {
            const bytes = fillDisk(worldDir);
            filledAt = Date.now();
            kit.notes.push(
              `disk filled with ${(bytes / 1024 / 1024).toFixed(1)} MB (tmpfs of 16 MB)`,
            );
          },
        },
      ]);
      freeDisk(worldDir);
      kit.mark("the world's disk freed");
      await kit.apiUp();
      await kit.deliveries();
      // The fault must have bitten: a visitor after the disk filled was told to retry.
      const refusedAfter = kit.results.filter(
        (r) => r.state === 'failed' && r.answeredAt > filledAt,
      ).length;
      if (!refusedAfter)
        kit.checks.push('the full disk refused no enquiry: the fault did not reach the world');
    },
  },
  {
    title: `5. API 429 to half, Retry-After ${RETRY_AFTER_SECONDS} s`,
    async run(kit, appDir) {
      await kit.startStub({
        STUB_THROTTLE_RATE: '0.5',
        STUB_RETRY_AFTER: String(RETRY_AFTER_SECONDS),
      });
      const app = await kit.startApp(
        appDir,
        'next',
        kit.ports.app,
        localWorld(kit.folder('inbox')),
      );
      await kit.traffic(app);
      const summary = await kit.deliveries();
      if (sabotaged('early')) await sabotageEarly(kit);
      await checkRetryAfter(kit, summary.throttled, summary.earlyRetries);
    },
  },
];

/**
 * No key tried again sooner than the Retry-After after its previous attempt. Every attempt
 * but a key's last was refused (a stored key is not tried again), and in this scenario a
 * refusal is a 429, so the stub's attempt times per key say it all.
 */
async function checkRetryAfter(kit: Kit, throttled: number, stubEarly: number) {
  const gaps: number[] = [];
  const early: string[] = [];
  // The leads SABOTAGE=drop refuses get 503s, retried on the round's own backoff.
  for (const result of kit.results.filter((r) => !refused.has(r.mail))) {
    const byKey = new Map<string, number[]>();
    for (const attempt of await kit.stub.attempts(result.mail)) {
      const key = attempt.idempotencyKey ?? '(no key)';
      byKey.set(key, [...(byKey.get(key) ?? []), attempt.at]);
    }
    for (const times of byKey.values()) {
      times.sort((a, b) => a - b);
      for (let i = 1; i < times.length; i++) {
        const gap = (times[i] ?? 0) - (times[i - 1] ?? 0);
        gaps.push(gap);
        if (gap < RETRY_AFTER_SECONDS * 1000) early.push(`#${result.index} after ${gap} ms`);
      }
    }
  }
  gaps.sort((a, b) => a - b);
  kit.notes.push(
    `stub answered 429 ${throttled} time(s); ${gaps.length} retries, the shortest ${gaps[0] ?? '-'} ms after the previous attempt (Retry-After ${RETRY_AFTER_SECONDS} s)`,
  );
  if (early.length)
    kit.checks.push(
      `RETRY-AFTER NOT HONOURED: ${early.length} retry(ies) sooner than ${RETRY_AFTER_SECONDS} s (${early.slice(0, 3).join(', ')})`,
    );
  if (stubEarly)
    kit.checks.push(`the stub counted ${stubEarly} attempt(s) before their Retry-After ran out`);
  if (!throttled) kit.checks.push('the stub answered no 429: the scenario tested nothing');
}

/** early: two attempts of one delivered lead's key 100 ms apart, as a client ignoring Retry-After would. */
async function sabotageEarly(kit: Kit) {
  const first = kit.results.find((r) => r.state === 'sent');
  const key = first && (await kit.stub.attempts(first.mail))[0]?.idempotencyKey;
  if (!first || !key) return;
  await kit.stub.store(first.mail, key);
  await sleep(100);
  await kit.stub.store(first.mail, key);
}
