import 'server-only';
import { getContactConfig, getOutboxConfig, type ContactConfig, type OutboxConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { flushOutbox, type FlushCounts } from './flush';
import { getOutbox } from './outbox';

/**
 * A self-hosted `next start` flushes its own outbox every minute, so nothing
 * waits for a scheduler someone forgot to set up. Never on Vercel (functions
 * do not live between requests; its cron calls the flush route), never
 * without an outbox or a contact API to deliver to.
 */

export const SELF_FLUSH_INTERVAL_MS = 60_000;

/** Whether this server flushes its own outbox. */
export function wantsSelfFlush(contact: ContactConfig, outbox: Pick<OutboxConfig, 'store' | 'onVercel'>): boolean {
  return contact.mode === 'api' && outbox.store.kind !== 'none' && !outbox.onVercel;
}

/**
 * Calls `flush` every `intervalMs`, one at a time: when the timer fires while
 * a flush is still running, that turn is skipped. The timer does not keep
 * the process alive, and a failed flush is logged, never thrown. Returns a
 * function that stops it.
 */
export function everyMinute(flush: () => Promise<unknown>, intervalMs = SELF_FLUSH_INTERVAL_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    flush()
      .catch((error: unknown) => {
        console.error(`[contacto] Falló el reenvío automático de la bandeja de salida (${errorName(error)})`);
      })
      .finally(() => {
        running = false;
      });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** A flush that logs its counts only when it delivered something: a quiet minute says nothing. */
async function quietFlush(): Promise<FlushCounts> {
  return flushOutbox({ logIdle: false });
}

/**
 * Starts the minute flush when this server should have one (see
 * wantsSelfFlush). True when started. `flush` is for tests.
 */
export function startSelfFlush(flush: () => Promise<unknown> = quietFlush): boolean {
  if (!wantsSelfFlush(getContactConfig(), getOutboxConfig()) || !getOutbox()) return false;
  everyMinute(flush);
  return true;
}
