import 'server-only';
import type { OutboxConfig } from '@/lib/env/server';
import { contactApiBreaker, type CircuitBreaker } from '../breaker';
import { postEnquiry, type ContactApi, type UpstreamReport } from '../upstream';
import { alertIfOwed } from './alert';
import type { OutboxEntry } from './entry';
import { removeFromOutbox } from './outbox';
import { maxRetryAfterMs, settle } from './policy';
import type { OutboxStore } from './store';

export type RoundConfig = Pick<OutboxConfig, 'backoffSeconds' | 'alert'>;

export type RoundOptions = {
  store: OutboxStore;
  config: RoundConfig;
  api: ContactApi;
  /** The round ends by then, retries included (the upstream client's default otherwise). */
  deadlineMs?: number;
  /** Settle with this report, without a call, when no call is made (the API's circuit is open, or `skipCall`). */
  settleWith?: UpstreamReport;
  /** Make no call: settle with `settleWith` (the live round asked for a pause). */
  skipCall?: boolean;
  /** Attempts in this round (the upstream client's 4 otherwise). */
  maxAttempts?: number;
  breaker?: CircuitBreaker;
  /** A scheduled flush: probes the API even while its circuit cools off. */
  forceProbe?: boolean;
  fetchImpl?: typeof fetch;
  now?: () => number;
};

/**
 * One redelivery round of an entry `holder` holds, the same for the live
 * request's background retry and for the flush: post it with its own key,
 * settle the outcome, then remove it (delivered) or write it back with its
 * next attempt and any alert it owes. True when it was delivered and removed.
 */
export async function redeliverOnce(entry: OutboxEntry, holder: string, options: RoundOptions): Promise<boolean> {
  const { store, config, api, deadlineMs, settleWith, skipCall = false, maxAttempts, breaker = contactApiBreaker, forceProbe, fetchImpl, now = Date.now } =
    options;
  const called = skipCall
    ? null
    : await postEnquiry(entry.enquiry, {
        ...api,
        idempotencyKey: entry.key,
        breaker,
        forceProbe,
        maxRetryAfterMs: maxRetryAfterMs(config.backoffSeconds),
        fetchImpl,
        ...(maxAttempts === undefined ? {} : { maxAttempts }),
        ...(deadlineMs === undefined ? {} : { deadlineMs }),
      });
  const report = called && called.attempts > 0 ? called : settleWith;
  if (!report) {
    // No call was made (the circuit is open, or another round is its probe): not a round, let go as it was.
    await store.release(entry, holder);
    return false;
  }
  const next = settle(entry, report, now(), config.backoffSeconds);
  if (!next) {
    console.info(`[contacto] Solicitud ${entry.key} entregada al reintentar (${report.attempts} intento(s))`);
    return removeFromOutbox(store, entry.key, holder);
  }
  console.warn(`[contacto] Solicitud ${entry.key} ${next.state === 'dead' ? 'pasa a no entregada' : 'sigue pendiente'} (${next.lastFailure})`);
  await store.release(await alertIfOwed(next, config.alert), holder);
  return false;
}
