import { start } from 'workflow/api';
import { getWorkflowWorld } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { forgetWorkflow } from './forget-workflow';
import { INBOX } from './lead';

/** What became of a run's forgetting, kept as the step's output: scheduled here, or left to Vercel's retention. */
export type ForgetPlan = 'scheduled' | 'kept-by-vercel';

/**
 * Forgets the lead's run at `at` (ms) in a workflow of its own: the engine is the scheduler (no cron), and it carries
 * only the run's id.
 */
export async function forgetAfter(runId: string, at: number): Promise<ForgetPlan> {
  'use step';
  // The SDK cannot delete a run on Vercel (forget.ts), so a forgetting run would only fail 21 times for every lead.
  // Vercel keeps it for the retention period its plan sets (docs/operations.md).
  if (getWorkflowWorld().kind === 'vercel') return 'kept-by-vercel';
  await start(forgetWorkflow, [runId, at]);
  return 'scheduled';
}

/**
 * Has the engine forget the inbox's line saved now once `keepMs` is over (a second on, so the line is past it). Never
 * throws.
 */
export const forgetInboxLater = (keepMs: number) =>
  start(forgetWorkflow, [INBOX, Date.now() + keepMs + 1000]).catch((error: unknown) =>
    console.error(
      `[contacto] No se programó el borrado de la bandeja local (${errorName(error)}); se borra al guardar la siguiente`,
    ),
  );
