import path from 'node:path';
import { assertServerEnv } from './server-schema';

/**
 * At `next build`: every server variable is checked with the rules the server
 * applies at run time, and a malformed one fails the build with its name, so
 * Vercel keeps the deployment that works. (At run time the same value would
 * only turn its own feature off, or, for the contact API, fail every enquiry.)
 */
export function checkServerEnv(): void {
  assertServerEnv(process.env);
}

/** The sealed world (lib/engine/sealed-world.mjs): the SDK loads it by this path. */
export const SEALED_WORLD_MODULE = path.join('lib', 'engine', 'sealed-world.mjs');

/**
 * The Workflow SDK's world, chosen before withWorkflow() would: on Vercel its
 * own. On our own servers, the local world (its files under CONTACT_INBOX_DIR,
 * git-ignored, not in .next/, which every build empties) or, with
 * WORKFLOW_TARGET_WORLD=@workflow/world-postgres, the Postgres world: either
 * one sealed (lib/engine/), named in ENGINE_WORLD. Runs before any world is
 * made (next.config.ts, the scripts), so the world never caches the site's
 * own address as its delivery address: WORKFLOW_LOCAL_BASE_URL, when set,
 * becomes ENGINE_SITE_URL, where the engine's door finds the site.
 */
export function chooseWorkflowWorld(): void {
  const env = process.env;
  const target = env.WORKFLOW_TARGET_WORLD || 'local';
  if (env.VERCEL_DEPLOYMENT_ID || env.VERCEL === '1' || !['local', '@workflow/world-postgres'].includes(target)) return;
  env.ENGINE_WORLD = target;
  env.WORKFLOW_TARGET_WORLD = path.join(process.cwd(), SEALED_WORLD_MODULE);
  if (target === 'local') env.WORKFLOW_LOCAL_DATA_DIR ||= `${env.CONTACT_INBOX_DIR || '.inbox'}/workflow`;
  if (env.WORKFLOW_LOCAL_BASE_URL) env.ENGINE_SITE_URL ||= env.WORKFLOW_LOCAL_BASE_URL;
  delete env.WORKFLOW_LOCAL_BASE_URL;
}
