import { RetryableError, sleep } from 'workflow';
import { start } from 'workflow/api';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import { getContactConfig, getDeliveryConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { forgetRun } from '@/lib/engine/forget-run';
import { runStatus } from '@/lib/engine/storage';
import { forgetOlderThan } from '../inbox';

/** Waits until `at` (ms), then deletes everything the engine keeps of run `runId` once it has ended. */
export async function forgetWorkflow(runId: string, at: number): Promise<void> {
  'use workflow';
  if (at > Date.now()) await sleep(new Date(at));
  // Builds before 2026-11-27 scheduled the inbox's forgetting here, under this name; their runs sleep up to 30 days.
  if (runId === OLD_INBOX_NAME) await forgetInboxLines();
  else await forgetEndedRun(runId);
}
const OLD_INBOX_NAME = 'bandeja-local';

/** Waits until `at` (ms), then forgets the local inbox's lines past their period, even if nothing is written again. */
export async function forgetInboxWorkflow(at: number): Promise<void> {
  'use workflow';
  if (at > Date.now()) await sleep(new Date(at));
  await forgetInboxLines();
}

async function forgetInboxLines(): Promise<void> {
  'use step';
  const config = getContactConfig();
  if (config.mode === 'inbox')
    await forgetOlderThan(config.dir, Date.now() - getDeliveryConfig().keepMs);
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);
async function forgetEndedRun(runId: string): Promise<'forgotten' | 'gone' | 'kept-by-vercel'> {
  'use step';
  // forgetAfter starts none on Vercel; one started before it, rerun on latest from the dashboard, ends here instead of
  // failing again.
  if (getWorkflowWorld().kind === 'vercel') return 'kept-by-vercel';
  // The lead's run records its own end just after starting this one: never delete a run still being written.
  const status = await runStatus(runId);
  // Already gone: `npm run leads -- forget` got there first.
  if (status === 'gone') return 'gone';
  if (!ENDED.has(status))
    throw new RetryableError('la ejecución de la solicitud sigue abierta', { retryAfter: '5s' });
  await forgetRun(runId);
  console.info(
    `[contacto] Datos de la ejecución ${runId} borrados, como dice el aviso de privacidad`,
  );
  return 'forgotten';
}
forgetEndedRun.maxRetries = 20;

/** What became of a run's forgetting, kept as the step's output: scheduled here, or left to Vercel's retention. */
export type ForgetPlan = 'scheduled' | 'kept-by-vercel';

/** Forgets the run at `at` (ms) in a workflow of its own that carries only its id: the engine schedules, no cron. */
export async function forgetAfter(runId: string, at: number): Promise<ForgetPlan> {
  'use step';
  // The SDK cannot delete a run on Vercel (forget.ts), so a forgetting run would only fail 21 times for every lead.
  // Vercel keeps it for the retention period its plan sets (docs/operations.md).
  if (getWorkflowWorld().kind === 'vercel') return 'kept-by-vercel';
  await start(forgetWorkflow, [runId, at]);
  return 'scheduled';
}

/** Has the engine forget the inbox's line saved now once `keepMs` is over (a second on: past it). Never throws. */
export const forgetInboxLater = (keepMs: number) =>
  start(forgetInboxWorkflow, [Date.now() + keepMs + 1000]).catch((error: unknown) =>
    console.error(
      `[contacto] No se programó el borrado de la bandeja local (${errorName(error)}); se borra al guardar la ` +
        `siguiente`,
    ),
  );
