import 'server-only';
import { getWorld, setWorld } from 'workflow/runtime';
import { openEngineDoor } from './door';
import { rescueCutOffRuns, rescueGivenUpLeads, type OurWorkflows } from './rescue';
import { getWorkflowServerUrl, getWorkflowWorld, openEngineProblem } from './choose-world';
import { errorName } from '@/lib/server/error-name';
import { prepareWorkflowPostgres, queueWorkers, releaseStaleJobLocks } from './postgres';

/**
 * A job locked this long belongs to a server that died inside it: well over
 * what any step or replay takes (a delivery round is 7.5 s, an alert 12 s, twice over), so
 * a slow one is hardly ever run twice by a live server (and a step run twice
 * sends the same key, which the API stores once).
 */
const STALE_LOCK_SECONDS = 30;
/**
 * How often each server gives such jobs back: a dead machine delays a lead by about a minute, not graphile-worker's 4
 * hours.
 */
const RELEASE_EVERY_MS = 10_000;
/** How often each server starts again the leads the engine gave up on, or a crash cut off (rescue.ts). */
const RESCUE_EVERY_MS = 10_000;
/** How often each server counts its queue workers (Postgres world): a stopped queue restarts within this. */
const WATCH_WORKERS_EVERY_MS = 5_000;

/**
 * Starts the Workflow SDK's world when the server starts (instrumentation.ts):
 * the local world's queue, or the Postgres world's workers after its tables
 * are made. Either re-enqueues the runs left unfinished by a restart or a
 * crash; without this a run cut off mid-way stays "running" for ever. On
 * Vercel the platform runs the world, and there is nothing to start.
 */
export async function startWorkflowWorld(ours: OurWorkflows): Promise<void> {
  // Never an engine open to anyone. Not a thrown error: Next would log it and go on serving, a 500 to every request.
  const problem = openEngineProblem();
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  const world = getWorkflowWorld();
  if (world.kind === 'vercel') return;
  // Before the world starts: its deliveries go through the door, and nothing else reaches its routes.
  let door: string;
  try {
    door = (
      await openEngineDoor(getWorkflowServerUrl(), world.kind === 'local' ? world.dir : undefined)
    ).url;
  } catch (error) {
    console.error(
      `[contacto] ERROR: no se abrió la puerta privada del motor de entregas (${errorName(error)}); las ` +
        `solicitudes pendientes no se reintentan`,
    );
    return;
  }
  // The local world's queue posts each run it re-enqueues to this very server, which listens only once
  // instrumentation.ts is done: started now, those posts would fail and the runs would wait for the next start.
  if (world.kind === 'local') void whenListening(door).then(() => startEngine(ours));
  else await startEngine(ours);
}

/** The world started, once its deliveries can reach this server; exported for its tests. */
export async function startEngine(ours: OurWorkflows): Promise<void> {
  const world = getWorkflowWorld();
  // The local world's runs that the last process's end cut off mid-step (a step's end never logged), continued before
  // the world re-enqueues the rest, while the server is idle: the steps that ended before this process started are
  // torn at once (cut-off.ts, verdictOf). Left to the passes every RESCUE_EVERY_MS, on a busy machine they waited
  // behind the rest's replays: chaos scenario 1 once saw them continued 68 s after the world started, and 10 leads of
  // 60 missed its 90 s. Only those: a run asleep past its time is the re-enqueueing's to continue (a first version
  // mended 47 such runs of 60 before re-enqueueing any).
  if (world.kind === 'local') await continueCutOffRuns(ours, { tornOnly: true });
  try {
    if (world.kind === 'postgres') await prepareWorkflowPostgres(world.url);
    await getWorld().start?.();
  } catch (error) {
    console.error(
      `[contacto] ERROR: no arrancó el motor de entregas (${errorName(error)}); las solicitudes pendientes no se ` +
        `reintentan`,
    );
    return;
  }
  if (world.kind === 'postgres') {
    every(RELEASE_EVERY_MS, () => releaseJobsOfDeadServers(world.url));
    every(WATCH_WORKERS_EVERY_MS, restartQueueWhenWorkersGone());
  }
  every(RESCUE_EVERY_MS, () => rescueLeads(ours));
}

type World = ReturnType<typeof getWorld>;

/**
 * The Postgres world's queue, started again when any of its workers ended (lib/engine/postgres.ts, queueWorkers: a
 * PostgreSQL restart ends them, and graphile-worker starts no others). A fresh world from the same settings takes the
 * old one's place (the SDK's setWorld), is started, and the old one is closed. The runs wait in the database
 * meanwhile, so none is lost; without this they waited for the server's next restart. Chaos scenario 3.
 */
export function restartQueueWhenWorkersGone(
  count: () => number | undefined = queueWorkers,
  engine: { get: () => World; set: (world: World | undefined) => void } = {
    get: getWorld,
    set: (world) => setWorld(world as World),
  },
): () => Promise<void> {
  let most = 0;
  return async () => {
    const workers = count();
    if (workers === undefined) return;
    most = Math.max(most, workers);
    if (workers === most) return;
    const old = engine.get();
    engine.set(undefined); // the SDK's getWorld() then makes a new one
    const fresh = engine.get();
    engine.set(fresh); // and its routes' handlers use that one too, not one more of their own
    try {
      await fresh.start?.();
    } catch (error) {
      engine.set(old);
      await Promise.resolve(fresh.close?.()).catch(() => {});
      console.error(
        `[contacto] ERROR: la cola del motor de entregas se detuvo y no volvió a arrancar (${errorName(error)}); se ` +
          `reintenta en ${WATCH_WORKERS_EVERY_MS / 1000} s`,
      );
      return;
    }
    console.warn(
      `[contacto] La cola del motor de entregas se detuvo (${workers} de ${most} trabajadores en marcha; PostgreSQL ` +
        `se reinició): arrancada de nuevo, y las solicitudes pendientes siguen`,
    );
    most = 0;
    void Promise.resolve(old.close?.()).catch(() => {});
  };
}

/**
 * Resolves once the engine's own route answers on this server, or after a minute: start anyway. Asked through the
 * door, which adds the delivery key: the site tells no one else the engine's health (lib/engine/public-routes.ts).
 */
async function whenListening(door: string): Promise<void> {
  const health = `${door}/.well-known/workflow/v1/flow?__health`;
  for (const stop = Date.now() + 60_000; Date.now() < stop;) {
    if (
      await fetch(health, { method: 'POST', signal: AbortSignal.timeout(1000) }).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** `work` every `ms`, one at a time, never keeping the process alive. */
function every(ms: number, work: () => Promise<void>): void {
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    void work().finally(() => {
      busy = false;
    });
  }, ms);
  timer.unref();
}

async function rescueLeads(ours: OurWorkflows): Promise<void> {
  await rescueGivenUpLeads(ours).catch((error: unknown) =>
    console.error(
      `[contacto] No se pudieron revisar las solicitudes abandonadas (${errorName(error)})`,
    ),
  );
  await continueCutOffRuns(ours);
}

/** rescue.ts's pass over the runs a crash cut off; one that fails is logged, and the next pass tries again. */
async function continueCutOffRuns(
  ours: OurWorkflows,
  options?: Parameters<typeof rescueCutOffRuns>[1],
): Promise<void> {
  await rescueCutOffRuns(ours, options).catch((error: unknown) =>
    console.error(
      `[contacto] No se pudieron revisar las ejecuciones cortadas por una caída (${errorName(error)})`,
    ),
  );
}

/**
 * graphile-worker (the Postgres world's queue) frees a job whose server died
 * mid-step only after 4 hours, and offers no shorter bound nor the dead
 * worker's id: each server gives such jobs back itself. The engine has no
 * option for it; the sleeping runs, which are most of an outage, need none.
 */
async function releaseJobsOfDeadServers(url: string): Promise<void> {
  await releaseStaleJobLocks(url, STALE_LOCK_SECONDS)
    .then(
      (freed) =>
        freed &&
        console.warn(
          `[contacto] ${freed} trabajo(s) del motor de entregas de un servidor caído, liberado(s) para otro servidor`,
        ),
    )
    .catch((error: unknown) =>
      console.error(
        `[contacto] No se pudieron liberar los trabajos de un servidor caído (${errorName(error)})`,
      ),
    );
}
