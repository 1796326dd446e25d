import 'server-only';
import { after } from 'next/server';
import type { AlertConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { withTimeout } from '@/lib/with-timeout';
import { sendOutboxFullAlert } from './outbox/alert';
import type { OutboxEntry } from './outbox/entry';
import { removeFromOutbox, type Outbox } from './outbox/outbox';
import { BACKGROUND_DEADLINE_MS, DRAIN_MAX_ENTRIES, STORE_WAIT_MS } from './outbox/policy';
import { redeliverOnce } from './outbox/round';
import { redeliverDue } from './outbox/sweep';
import type { ContactApi, UpstreamReport } from './upstream';

/** What deliver.ts leaves for after the visitor's answer: the outbox's upkeep, never the visitor's wait. */

/**
 * The API has it, or said no to the visitor: removed from the outbox after
 * the answer (a stuck store never holds it), then a few others go too. Where
 * after() cannot take work, removed now, within STORE_WAIT_MS.
 */
export async function settled(outbox: Outbox, key: string, holder: string, api: ContactApi, endsAt: number): Promise<void> {
  if (afterAnswer(() => removeThenRedeliver(outbox, key, holder, api, endsAt))) return;
  await withTimeout(removeFromOutbox(outbox.store, key, holder), STORE_WAIT_MS).catch(() => {});
}

async function removeThenRedeliver(outbox: Outbox, key: string, holder: string, api: ContactApi, endsAt: number): Promise<void> {
  // Left behind (a stuck store), it is replayed later with the same key, which the API stores only once.
  await withTimeout(removeFromOutbox(outbox.store, key, holder), STORE_WAIT_MS).catch(() => {});
  await redeliverOthers(outbox, api, endsAt);
}

/**
 * Runs in after(): a second round while the function still has time (the
 * alert included, if it goes pending). While the API's circuit is open no
 * call is made, and the live round's failure is what the entry records.
 */
export async function retryOnceInBackground(
  outbox: Outbox,
  entry: OutboxEntry,
  holder: string,
  api: ContactApi,
  endsAt: number,
  live: UpstreamReport,
): Promise<void> {
  try {
    const deadlineMs = Math.max(0, Math.min(BACKGROUND_DEADLINE_MS, endsAt - Date.now()));
    // A 429 (or a Retry-After) asked for a pause: no second call now, the live round is settled as it is.
    const skip = live.retryAfterMs !== undefined;
    // One attempt: the live round just made its own retries.
    await redeliverOnce(entry, holder, { store: outbox.store, config: outbox.config, api, deadlineMs, maxAttempts: 1, settleWith: live, skipCall: skip });
  } catch (error) {
    // The lease runs out and the next flush picks the entry up.
    console.error(`[contacto] Falló el reintento en segundo plano de ${entry.key} (${errorName(error)})`);
  }
}

/** Runs in after(), on every path with an outbox: a few due entries of earlier visitors go too, in the time left. */
export async function redeliverOthers(outbox: Outbox, api: ContactApi, endsAt: number): Promise<void> {
  try {
    await redeliverDue({ store: outbox.store, config: outbox.config, api, endsAt, max: DRAIN_MAX_ENTRIES });
  } catch (error) {
    // The flush (or the next visitor) tries them again.
    console.error(`[contacto] Falló el reenvío de pendientes tras una solicitud (${errorName(error)})`);
  }
}

/**
 * after(), which must never cost the visitor their answer: it throws outside
 * a request (a script, a test), and then the work is skipped and logged; the
 * outbox still holds whatever was not delivered, for the flush.
 */
export function afterAnswer(task: () => Promise<void>): boolean {
  try {
    after(task);
    return true;
  } catch (error) {
    console.error(`[contacto] No se pudo dejar trabajo para después de la respuesta (${errorName(error)}); la bandeja de salida lo retoma`);
    return false;
  }
}

export async function alertOutboxFull(outbox: Outbox, alert: AlertConfig): Promise<void> {
  try {
    await sendOutboxFullAlert(alert, await outbox.store.usage());
  } catch (error) {
    console.error(`[contacto] No se pudo avisar que la bandeja de salida está llena (${errorName(error)})`);
  }
}
