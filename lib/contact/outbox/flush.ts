import 'server-only';
import { randomUUID } from 'node:crypto';
import { getContactConfig } from '@/lib/env/server';
import { entriesOf, getOutbox, removeFromOutbox } from './outbox';
import type { OutboxStore } from './store';
import { saveToInbox } from '../inbox';
import { LEASE_MS, releasedEntry } from './policy';
import { redeliverOnce, type RoundConfig } from './round';
import { sweep, type FlushOptions } from './sweep';

/**
 * Redelivery: every due entry goes to the API again with its original body
 * and Idempotency-Key; entries given up become dead letters, old dead letters
 * are purged, and alert e-mails that failed are sent again. Called by the
 * scheduler through /api/outbox/flush, or by `npm run outbox -- flush`.
 */

/** What the flush answers: counts only, never personal data. */
export type FlushCounts = { delivered: number; pending: number; dead: number; spam: number };

export async function flushStore(options: FlushOptions): Promise<FlushCounts> {
  const { store, budgetMs = 45_000, now = Date.now } = options;
  const cleaned = await store.cleanUp().catch(() => 0);
  if (cleaned) console.warn(`[contacto] Bandeja de salida: ${cleaned} archivo(s) temporal(es) de una escritura interrumpida borrado(s)`);
  const delivered = await sweep({ ...options, now, stopAt: now() + budgetMs, maxRounds: Infinity, upkeep: true });
  const counts = await countEntries(store);
  return { delivered, ...counts };
}

/** A page at a time: only the counts are kept. */
export async function countEntries(store: OutboxStore): Promise<{ pending: number; dead: number; spam: number }> {
  const counts = { pending: 0, dead: 0, spam: 0 };
  for await (const entry of entriesOf(store)) counts[entry.state] += 1;
  return counts;
}

export type ReleaseResult = 'delivered' | 'pending' | 'inbox' | 'not-found' | 'not-spam' | 'busy';

/**
 * A suspected spam the agency judged a person's (`npm run outbox -- release <key>`): an
 * ordinary enquiry from now on, delivered at once with its own key (to the local inbox
 * without a contact API), or left pending for the flush, with its alert, if the API fails.
 */
export async function releaseSpam(store: OutboxStore, config: RoundConfig, key: string): Promise<ReleaseResult> {
  const seen = await store.get(key);
  if (!seen) return 'not-found';
  if (seen.state !== 'spam') return 'not-spam';
  const holder = randomUUID();
  const now = Date.now();
  const entry = await store.claim(key, holder, now, now + LEASE_MS);
  if (!entry) return 'busy';
  const released = releasedEntry(entry, holder, now);
  const contact = getContactConfig();
  if (contact.mode === 'inbox') {
    await saveToInbox(released.enquiry, contact.dir, released.key);
    await removeFromOutbox(store, key, holder);
    return 'inbox';
  }
  if (contact.mode !== 'api') {
    await store.release(released, holder);
    return 'pending';
  }
  const api = { baseUrl: contact.baseUrl, siteKey: contact.siteKey };
  return (await redeliverOnce(released, holder, { store, config, api })) ? 'delivered' : 'pending';
}

/**
 * The configured outbox, flushed towards the configured contact API. The
 * counts are logged; with `logIdle: false` (the minute flush) only when
 * something was delivered.
 */
export async function flushOutbox({ logIdle = true }: { logIdle?: boolean } = {}): Promise<FlushCounts> {
  const outbox = getOutbox();
  if (!outbox) return { delivered: 0, pending: 0, dead: 0, spam: 0 };
  const contact = getContactConfig();
  const api = contact.mode === 'api' ? { baseUrl: contact.baseUrl, siteKey: contact.siteKey } : null;
  const counts = await flushStore({ store: outbox.store, config: outbox.config, api });
  if (logIdle || counts.delivered > 0) {
    console.info(
      `[contacto] Bandeja de salida: ${counts.delivered} entregada(s), ${counts.pending} pendiente(s), ${counts.dead} no entregada(s), ${counts.spam} posible(s) spam aparte`,
    );
  }
  return counts;
}
