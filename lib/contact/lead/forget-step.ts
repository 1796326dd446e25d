import { start } from 'workflow/api';
import { forgetWorkflow } from './forget-workflow';

/**
 * Hands the lead's run to its own small workflow that forgets it at `at` (ms):
 * the engine is the scheduler, so the privacy notice's periods hold with no
 * cron, and the forgetting run carries no personal data, only the run's id.
 */
export async function forgetAfter(runId: string, at: number): Promise<void> {
  'use step';
  await start(forgetWorkflow, [runId, at]);
}
