import { RetryableError, sleep } from 'workflow';
import { getWorld } from 'workflow/runtime';
import { forgetRun } from './forget';

/** Waits until `at` (ms), then deletes everything the engine keeps of run `runId`, once that run has ended. */
export async function forgetWorkflow(runId: string, at: number): Promise<void> {
  'use workflow';
  if (at > Date.now()) await sleep(new Date(at));
  await forgetEndedRun(runId);
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);
async function forgetEndedRun(runId: string): Promise<void> {
  'use step';
  // The lead's run records its own end just after starting this one: never delete a run still being written.
  const status = await getWorld().runs.get(runId).then((run) => run.status, (error: Error) => (/not ?found/i.test(`${error.name} ${error.message}`) ? 'forgotten' : Promise.reject(error)));
  // Already gone: `npm run leads -- purge` got there first.
  if (status === 'forgotten') return;
  if (!ENDED.has(status)) throw new RetryableError('la ejecución de la solicitud sigue abierta', { retryAfter: '5s' });
  await forgetRun(runId);
  console.info(`[contacto] Datos de la ejecución ${runId} borrados, como dice el aviso de privacidad`);
}
forgetEndedRun.maxRetries = 20;
