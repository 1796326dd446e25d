import { start } from 'workflow/api';
import { forgetWorkflow } from './forget-workflow';

/** Forgets the lead's run at `at` (ms) in a workflow of its own: the engine is the scheduler (no cron), and it carries only the run's id. */
export async function forgetAfter(runId: string, at: number): Promise<void> {
  'use step';
  await start(forgetWorkflow, [runId, at]);
}
