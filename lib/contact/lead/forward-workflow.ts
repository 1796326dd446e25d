import { Webhook } from 'standardwebhooks';
import { getWorkflowMetadata } from 'workflow';
import { start } from 'workflow/api';
import { getForwardConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { parseRetryAfter } from '@/lib/server/http';
import { forgetAfter } from './forget-workflow';
import { capiEvent, NAMES, webhookBody, type Forward, type Target } from './forward';
import type { RunEnd, Try } from './lead';
import { tryInRounds } from './rounds';

/**
 * One lead to one target, apart from the contact API so it never delays the visitor or the delivery. Whatever the end,
 * the run's data (enquiry, visitor's address) is forgotten at once.
 */
export async function forwardWorkflow(
  forward: Forward,
  target: Target,
  backoffSeconds: readonly number[],
  from: number,
): Promise<RunEnd> {
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
): Promise<RunEnd> {
  const end = await tryInRounds({
    from,
    receivedAt: forward.receivedAt,
    backoffSeconds,
    attempt: () => sendForward(forward, target),
    goOnInNewRun: (round) => continueForwarding(forward, target, backoffSeconds, round),
  });
  if (end.outcome === 'refused')
    return { outcome: 'dead', reason: 'refused', refusal: end.refusal, deadAt: Date.now() };
  if (end.outcome !== 'expired') return end;
  console.error(
    `[contacto] ERROR: ${target === 'webhook' ? 'el webhook' : 'la API de Conversiones de Meta'} no recibió ` +
      `${forward.key} en 24 horas; se deja de intentar`,
  );
  return { outcome: 'dead', reason: 'expired', lastFailure: end.lastFailure, deadAt: Date.now() };
}

/** A fresh run of the forwarding workflow that goes on from round `from` (see ROUNDS_PER_RUN). */
export async function continueForwarding(
  forward: Forward,
  target: Target,
  backoffSeconds: readonly number[],
  from: number,
): Promise<void> {
  'use step';
  const { runId } = await start(forwardWorkflow, [forward, target, backoffSeconds, from]);
  console.info(
    `[contacto] Envío de ${forward.key} al ${NAMES[target]}: sigue en la ejecución ${runId}`,
  );
}

export const GRAPH_API_VERSION = 'v24.0';
/** One send waits this long at most; a receiver that takes longer is tried again in the next round. */
const SEND_TIMEOUT_MS = 10_000;
/**
 * One send, never throwing: whatever goes wrong is a round to try again, but a 4xx other than 408, 425 and 429 is the
 * receiver's final word. A target turned off since counts as sent.
 */
export async function sendForward(forward: Forward, target: Target): Promise<Try> {
  'use step';
  const config = getForwardConfig();
  try {
    if (target === 'webhook') {
      if (!config.webhook) return { outcome: 'delivered' };
      const body = JSON.stringify(webhookBody(forward));
      const now = new Date();
      return await post(config.webhook.url, body, {
        'webhook-id': forward.key,
        'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
        'webhook-signature': new Webhook(config.webhook.secret).sign(forward.key, now, body),
      });
    }
    if (!config.capi) return { outcome: 'delivered' };
    const { pixelId, accessToken, graphUrl, testEventCode } = config.capi;
    const event = { data: [capiEvent(forward)], access_token: accessToken };
    const body = JSON.stringify(
      testEventCode ? { ...event, test_event_code: testEventCode } : event,
    );
    return await post(`${graphUrl}/${GRAPH_API_VERSION}/${pixelId}/events`, body, {});
  } catch (error) {
    return { outcome: 'unavailable', failures: errorName(error) };
  }
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<Try> {
  const signal = AbortSignal.timeout(SEND_TIMEOUT_MS);
  const json = { 'Content-Type': 'application/json' };
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...json, ...headers },
    body,
    redirect: 'error',
    signal,
  });
  // The answer is not needed: release the connection without reading what a receiver might stream.
  await response.body?.cancel().catch(() => undefined);
  if (response.ok) return { outcome: 'delivered' };
  const { status } = response;
  if (status >= 400 && status < 500 && ![408, 425, 429].includes(status))
    return { outcome: 'refused', refusal: `HTTP ${status}` };
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
  return {
    outcome: 'unavailable',
    failures: `http-${status}`,
    ...(retryAfterMs !== undefined && { retryAfterMs }),
  };
}
