import path from 'node:path';
import { workflowEnv } from '../env/server';

// The one place our code writes process.env, because the Workflow SDK reads its world from there and nowhere else:
// @workflow/core's createWorld() requires the module WORKFLOW_TARGET_WORLD names (in whichever of Next's bundles
// asks first), @workflow/world-local reads WORKFLOW_LOCAL_DATA_DIR and WORKFLOW_LOCAL_BASE_URL at each delivery, and
// withWorkflow() (next.config.ts) sets a world of its own when none is set. Our sealed world, which the SDK loads
// with no arguments, learns which world it wraps from ENGINE_WORLD. Every read goes through lib/env/server.ts.

/** The sealed world (lib/engine/sealed-world.mjs): the SDK loads it by this path. */
export const SEALED_WORLD_MODULE = path.join('lib', 'engine', 'sealed-world.mjs');

/**
 * The Workflow SDK's world, chosen before withWorkflow() would: on Vercel its own. On our own servers, the local
 * world (its files under CONTACT_INBOX_DIR, git-ignored, not in .next/, which every build empties) or, with
 * WORKFLOW_TARGET_WORLD=@workflow/world-postgres, the Postgres world: either one sealed, named in ENGINE_WORLD.
 * Runs before any world is made (next.config.ts, the scripts), so the world never caches the site's own address as
 * its delivery address: WORKFLOW_LOCAL_BASE_URL, when set, becomes ENGINE_SITE_URL, where the engine's door finds
 * the site.
 */
export function chooseWorkflowWorld(): void {
  const env = workflowEnv();
  const target = env.WORKFLOW_TARGET_WORLD ?? 'local';
  if (env.VERCEL_DEPLOYMENT_ID || env.VERCEL === '1' || !['local', '@workflow/world-postgres'].includes(target)) return;
  process.env.ENGINE_WORLD = target;
  process.env.WORKFLOW_TARGET_WORLD = path.join(process.cwd(), SEALED_WORLD_MODULE);
  if (target === 'local') process.env.WORKFLOW_LOCAL_DATA_DIR = env.WORKFLOW_LOCAL_DATA_DIR ?? localDir(env);
  if (env.WORKFLOW_LOCAL_BASE_URL) process.env.ENGINE_SITE_URL = env.ENGINE_SITE_URL ?? env.WORKFLOW_LOCAL_BASE_URL;
  delete process.env.WORKFLOW_LOCAL_BASE_URL;
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
  const sealed = chosen?.endsWith(SEALED_WORLD_MODULE) ? env.ENGINE_WORLD : undefined;
  const target = sealed || chosen || (env.VERCEL === '1' ? 'vercel' : 'local');
  // The folder chooseWorkflowWorld() gives the server, for a script that did not load next.config.ts.
  if (target === 'local') return { kind: 'local', dir: env.WORKFLOW_LOCAL_DATA_DIR ?? localDir(env) };
  // @workflow/world-postgres's own default, so `npm run leads` reads the database the server uses.
  const url = env.WORKFLOW_POSTGRES_URL ?? 'postgres://world:world@localhost:5432/world';
  if (target === '@workflow/world-postgres') return { kind: 'postgres', url };
  return target === 'vercel' ? { kind: 'vercel' } : { kind: 'other', target };
}

/** Where the site itself listens on this machine: the engine's door (door.ts) passes the world's deliveries there. */
export function getWorkflowServerUrl(): string {
  const env = workflowEnv();
  return env.ENGINE_SITE_URL ?? env.WORKFLOW_LOCAL_BASE_URL ?? `http://localhost:${env.PORT ?? 3000}`;
}
