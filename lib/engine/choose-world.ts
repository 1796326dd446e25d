import path from 'node:path';
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_SERVER } from 'next/constants';
import { workflowEnv } from '../env/server';

// The one place our code writes process.env, because the Workflow SDK reads its world from there and nowhere else:
// @workflow/core's createWorld() requires the module WORKFLOW_TARGET_WORLD names (in whichever of Next's bundles
// asks first), @workflow/world-local reads WORKFLOW_LOCAL_DATA_DIR and WORKFLOW_LOCAL_BASE_URL at each delivery, and
// withWorkflow() (next.config.ts) sets a world of its own when none is set. Our sealed world, which the SDK loads
// with no arguments, learns which world it wraps from ENGINE_WORLD. Every read goes through lib/env/server.ts.

/** The sealed world (lib/engine/sealed-world.mjs): the SDK loads it by this path. */
export const SEALED_WORLD_MODULE = path.join('lib', 'engine', 'sealed-world.mjs');
/** The worlds the seal can wrap: the two that do not authenticate their routes (vercel/workflow#3908). */
const SEALABLE = ['local', '@workflow/world-postgres'];
/** `next start` and `next dev`: a server of ours. Vercel runs neither: it builds with `next build`, then functions. */
const OUR_SERVER_PHASES: string[] = [PHASE_PRODUCTION_SERVER, PHASE_DEVELOPMENT_SERVER];

const isOurServer = (phase?: string) => Boolean(phase && OUR_SERVER_PHASES.includes(phase));

/**
 * Whether the engine here is Vercel's. Vercel sets VERCEL=1 and VERCEL_DEPLOYMENT_ID for its builds and functions
 * (which never load next.config.ts), but `vercel env pull` writes VERCEL=1 into a .env.local that `next start` reads
 * as well: a server of ours (`phase`, next.config.ts) is never Vercel's, whatever its variables say.
 */
function onVercel(phase?: string): boolean {
  if (isOurServer(phase)) return false;
  const env = workflowEnv();
  return Boolean(env.VERCEL_DEPLOYMENT_ID) || env.VERCEL === '1';
}

const isSealed = (target: string | undefined) => Boolean(target?.endsWith(SEALED_WORLD_MODULE));

/**
 * The Workflow SDK's world, chosen before withWorkflow() would: on Vercel its own. On our own servers, the local
 * world (its files under CONTACT_INBOX_DIR, git-ignored, not in .next/, which every build empties) or, with
 * WORKFLOW_TARGET_WORLD=@workflow/world-postgres, the Postgres world: either one sealed, named in ENGINE_WORLD; a
 * server of ours with any other world refuses to start. Runs before any world is made (next.config.ts with Next's
 * `phase`, the scripts without), so the world never caches the site's own address as its delivery address:
 * WORKFLOW_LOCAL_BASE_URL, when set, becomes ENGINE_SITE_URL, where the engine's door finds the site.
 */
export function chooseWorkflowWorld(phase?: string): void {
  const env = workflowEnv();
  const target = env.WORKFLOW_TARGET_WORLD ?? 'local';
  if (onVercel(phase) || isSealed(target)) return;
  if (!SEALABLE.includes(target)) {
    if (isOurServer(phase)) throw new Error(cannotSeal(target));
    return;
  }
  if (isOurServer(phase) && (env.VERCEL || env.VERCEL_DEPLOYMENT_ID))
    console.warn(VERCEL_VARIABLES_IGNORED);
  process.env.ENGINE_WORLD = target;
  process.env.WORKFLOW_TARGET_WORLD = path.join(process.cwd(), SEALED_WORLD_MODULE);
  if (target === 'local')
    process.env.WORKFLOW_LOCAL_DATA_DIR = env.WORKFLOW_LOCAL_DATA_DIR ?? localDir(env);
  if (env.WORKFLOW_LOCAL_BASE_URL)
    process.env.ENGINE_SITE_URL = env.ENGINE_SITE_URL ?? env.WORKFLOW_LOCAL_BASE_URL;
  delete process.env.WORKFLOW_LOCAL_BASE_URL;
}

const VERCEL_VARIABLES_IGNORED =
  '[contacto] AVISO: este servidor es propio (next start o next dev) y su entorno trae VERCEL o ' +
  'VERCEL_DEPLOYMENT_ID (¿un .env.local de `vercel env pull`?): el motor de entregas se sella igual que en ' +
  'cualquier servidor propio. Quítalas de su entorno: el resto del sitio aún las toma por Vercel.';

const cannotSeal = (target: string) =>
  `[contacto] ERROR: el servidor no arranca. WORKFLOW_TARGET_WORLD=${target}: en un servidor propio el motor de ` +
  `entregas solo se sella con el mundo local (la variable vacía) o con @workflow/world-postgres; sin sello, ` +
  `cualquiera podría iniciar o reanudar solicitudes desde fuera.`;

/**
 * Why this server must not start its engine, or null. Sealed, or Vercel's world in a Vercel function (VERCEL=1, and
 * no next.config.ts): anything else is an engine open to anyone, or one it cannot tell is Vercel's, as in a server
 * that did not load next.config.ts (`output: 'standalone'`, say). Read at start-up (lib/engine/start.ts).
 */
export function openEngineProblem(): string | null {
  const env = workflowEnv();
  const world = getWorkflowWorld();
  if (isSealed(env.WORKFLOW_TARGET_WORLD) || (world.kind === 'vercel' && env.VERCEL === '1'))
    return null;
  const name = world.kind === 'other' ? world.target : world.kind;
  return (
    `[contacto] ERROR: el servidor no arranca. El motor de entregas (${name}) no está sellado, y este proceso no ` +
    `sabe si corre en Vercel: next start y next dev lo sellan al cargar next.config.ts, y este no lo hizo. Sin ` +
    `sello, cualquiera podría iniciar o reanudar solicitudes desde fuera.`
  );
}

/** The world's deliveries go to `url` (the engine's door); the site itself stays at `site`, once set. */
export function deliverTo(url: string, site?: string): void {
  if (site && !workflowEnv().ENGINE_SITE_URL) process.env.ENGINE_SITE_URL = site;
  process.env.WORKFLOW_LOCAL_BASE_URL = url;
}

const localDir = (env: { CONTACT_INBOX_DIR: string }) => `${env.CONTACT_INBOX_DIR}/workflow`;

/** Which Workflow SDK world holds the leads (chosen above at start-up, or by the platform). */
export type WorkflowWorld =
  | { kind: 'local'; dir: string }
  | { kind: 'postgres'; url: string }
  | { kind: 'vercel' }
  | { kind: 'other'; target: string };

export function getWorkflowWorld(): WorkflowWorld {
  const env = workflowEnv();
  const chosen = env.WORKFLOW_TARGET_WORLD;
  // Sealed above: the world inside is the one that holds the leads.
  const sealed = isSealed(chosen) ? env.ENGINE_WORLD : undefined;
  const target = sealed || chosen || (env.VERCEL === '1' ? 'vercel' : 'local');
  // The folder chooseWorkflowWorld() gives the server, for a script that did not load next.config.ts.
  if (target === 'local')
    return { kind: 'local', dir: env.WORKFLOW_LOCAL_DATA_DIR ?? localDir(env) };
  // @workflow/world-postgres's own default, so `npm run leads` reads the database the server uses.
  const url = env.WORKFLOW_POSTGRES_URL ?? 'postgres://world:world@localhost:5432/world';
  if (target === '@workflow/world-postgres') return { kind: 'postgres', url };
  return target === 'vercel' ? { kind: 'vercel' } : { kind: 'other', target };
}

/** Where the site itself listens on this machine: the engine's door (door.ts) passes the world's deliveries there. */
export function getWorkflowServerUrl(): string {
  const env = workflowEnv();
  return (
    env.ENGINE_SITE_URL ?? env.WORKFLOW_LOCAL_BASE_URL ?? `http://localhost:${env.PORT ?? 3000}`
  );
}
