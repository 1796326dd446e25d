import { start } from 'workflow/api';
import { errorName } from '@/lib/error-name';
import { forgetWorkflow } from './forget-workflow';
import { INBOX } from './lead';

/** Forgets the lead's run at `at` (ms) in a workflow of its own: the engine is the scheduler (no cron), and it carries only the run's id. */
export async function forgetAfter(runId: string, at: number): Promise<void> {
  'use step';
  await start(forgetWorkflow, [runId, at]);
}

/** Has the engine forget the inbox's line saved now once `keepMs` is over (a second on, so the line is past it). Never throws. */
export const forgetInboxLater = (keepMs: number) =>
  start(forgetWorkflow, [INBOX, Date.now() + keepMs + 1000]).catch((error: unknown) => console.error(`[contacto] No se programó el borrado de la bandeja local (${errorName(error)}); se borra al guardar la siguiente`));
