import { RetryableError, sleep } from 'workflow';
import { getWorld } from 'workflow/runtime';
import { getContactConfig, getDeliveryConfig, getWorkflowWorld } from '@/lib/env/server';
import { forgetOlderThan } from '../inbox';
import { forgetRun } from '@/lib/engine/forget-run';
import { INBOX } from './lead';

/**
 * Waits until `at` (ms), then deletes everything the engine keeps of run `runId` once it has ended; for INBOX, the
 * inbox's lines past their period.
 */
export async function forgetWorkflow(runId: string, at: number): Promise<void> {
  'use workflow';
  if (at > Date.now()) await sleep(new Date(at));
  if (runId === INBOX) await forgetInboxLines();
  else await forgetEndedRun(runId);
}

async function forgetInboxLines(): Promise<void> {
  'use step';
  const config = getContactConfig();
  if (config.mode === 'inbox') await forgetOlderThan(config.dir, Date.now() - getDeliveryConfig().keepMs);
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);
async function forgetEndedRun(runId: string): Promise<'forgotten' | 'gone' | 'kept-by-vercel'> {
  'use step';
  // forgetAfter starts none on Vercel; one started before it, rerun on latest from the dashboard, ends here instead of
  // failing again.
  if (getWorkflowWorld().kind === 'vercel') return 'kept-by-vercel';
  // The lead's run records its own end just after starting this one: never delete a run still being written.
  const status = await getWorld()
    .runs.get(runId)
    .then(
      (run) => run.status,
      (error: Error) => (/not ?found/i.test(`${error.name} ${error.message}`) ? 'forgotten' : Promise.reject(error)),
    );
  // Already gone: `npm run leads -- purge` got there first.
  if (status === 'forgotten') return 'gone';
  if (!ENDED.has(status)) throw new RetryableError('la ejecución de la solicitud sigue abierta', { retryAfter: '5s' });
  await forgetRun(runId);
  console.info(`[contacto] Datos de la ejecución ${runId} borrados, como dice el aviso de privacidad`);
  return 'forgotten';
}
forgetEndedRun.maxRetries = 20;
