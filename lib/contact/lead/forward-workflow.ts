import { getWorkflowMetadata, sleep } from 'workflow';
import { forgetAfter } from './forget-step';
import type { Forward, Target } from './forward';
import { continueForwarding } from './forward-continue-step';
import { sendForward } from './forward-steps';
import { DEAD_AFTER_MS, ROUNDS_PER_RUN, waitBeforeRound } from './lead';

/** How a forwarding run ended: its return value, read by `npm run leads`. */
export type ForwardOutcome =
  | { outcome: 'sent'; rounds: number }
  | { outcome: 'refused'; status: number }
  | { outcome: 'expired' }
  | { outcome: 'continued' };

/**
 * One lead to one target, apart from the contact API so it never delays the visitor or the delivery. Whatever the end,
 * the run's data (enquiry, visitor's address) is forgotten at once.
 */
export async function forwardWorkflow(
  forward: Forward,
  target: Target,
  backoffSeconds: readonly number[],
  from: number,
): Promise<ForwardOutcome> {
  'use workflow';
  const outcome = await sendRounds(forward, target, backoffSeconds, from);
  await forgetAfter(getWorkflowMetadata().workflowRunId, Date.now());
  return outcome;
}

async function sendRounds(
  forward: Forward,
  target: Target,
  backoffSeconds: readonly number[],
  from: number,
): Promise<ForwardOutcome> {
  let retryAfterMs = 0;
  for (let round = from; ; round += 1) {
    if (round > 0) {
      const wait = waitBeforeRound(round, backoffSeconds, retryAfterMs, Math.random());
      if (Date.now() + wait - forward.receivedAt > DEAD_AFTER_MS) {
        console.error(
          `[contacto] ERROR: ${target === 'webhook' ? 'el webhook' : 'la API de Conversiones de Meta'} no recibió ${forward.key} en 24 horas; se deja de intentar`,
        );
        return { outcome: 'expired' };
      }
      await sleep(wait);
    }
    const result = await sendForward(forward, target);
    if (result.outcome === 'sent') return { outcome: 'sent', rounds: round + 1 };
    if (result.outcome === 'refused') return result;
    retryAfterMs = result.retryAfterMs ?? 0;
    if (round + 1 - from >= ROUNDS_PER_RUN) {
      await continueForwarding(forward, target, backoffSeconds, round + 1);
      return { outcome: 'continued' };
    }
  }
}
