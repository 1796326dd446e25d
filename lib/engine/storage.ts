import 'server-only';
import { getWorld } from 'workflow/runtime';

/*
 * The one way into what the engine stores, below its public API: the world's runs, steps, events and hooks, which the
 * staff's lists (lib/staff/leads), `npm run leads` and the forgetting workflow read. The public API stays where the
 * engine's own examples use it: `workflow` (sleep, createHook, the directives) and `workflow/api` (start, resumeHook,
 * getRun). An ESLint rule (eslint.config.mjs) keeps `workflow/runtime` and `@workflow/*` inside lib/engine/.
 */

/** The world this process's engine keeps its runs in (local files, PostgreSQL or Vercel's). */
export type EngineStorage = ReturnType<typeof getWorld>;
export const engineStorage = (): EngineStorage => getWorld();

/** A run's status, or 'gone' when the engine keeps no such run (forgotten already). */
export async function runStatus(runId: string): Promise<string> {
  try {
    return (await getWorld().runs.get(runId)).status;
  } catch (error) {
    // WorkflowRunNotFoundError.is() of @workflow/errors, which tells its errors apart by name (and is an ES module
    // the unit tests could not load here).
    if (error instanceof Error && error.name === 'WorkflowRunNotFoundError') return 'gone';
    throw error;
  }
}

/**
 * forgetWorkflow's id in the engine's manifest (`workflow//./<file>//<name>`, as the SDK's compiler names it), for
 * `npm run leads`, which runs without that compiler. forget-workflow.test.ts checks it against a build's manifest.
 */
export const FORGET_WORKFLOW_ID = 'workflow//./lib/contact/lead/forget-workflow//forgetWorkflow';
