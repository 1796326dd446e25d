import 'server-only';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { getContactConfig, type OutboxConfig } from '@/lib/env/server';
import { alertIfOwed } from './alert';
import { getOutbox, listEntries } from './outbox';
import type { OutboxStore } from './outbox-store';
import { isDue, isPurgeable, LEASE_MS, owedAlert, settle } from './policy';
import { postEnquiry } from './upstream';

/**
 * Redelivery: every due entry goes to the API again with its original body
 * and Idempotency-Key; entries given up become dead letters, old dead letters
 * are purged, and alert e-mails that failed are sent again. Called by the
 * scheduler through /api/outbox/flush, or by `npm run outbox -- flush`.
 */

/** What the flush answers: counts only, never personal data. */
export type FlushCounts = { delivered: number; pending: number; dead: number };

export type FlushOptions = {
  store: OutboxStore;
  config: Pick<OutboxConfig, 'backoffSeconds' | 'alert'>;
  /** The contact API; without one nothing can be delivered (alerts and purges still run). */
  api: { baseUrl: string; siteKey: string } | null;
  /** Stop taking new entries after this long (the route's function has 60 s). */
  budgetMs?: number;
  fetchImpl?: typeof fetch;
  now?: () => number;
};

// A few at a time: the API is probably just back, and each delivery may take 7.5 s.
const CONCURRENCY = 4;

/** `Authorization: Bearer <CRON_SECRET>`, compared in constant time; no secret set means no one. */
export function isAuthorizedFlush(authorization: string | null, secret: string | undefined): boolean {
  if (!secret || !authorization) return false;
  // Hashing first gives equal lengths, so the comparison's time says nothing about the secret.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`));
}

export async function flushStore(options: FlushOptions): Promise<FlushCounts> {
  const { store, config, api, budgetMs = 45_000, fetchImpl, now = Date.now } = options;
  const started = now();
  const keys = await store.keys();
  let delivered = 0;

  const work = async (key: string) => {
    const seen = await store.get(key);
    const at = now();
    if (!seen || (seen.lease && seen.lease.until > at)) return;
    const needed = isPurgeable(seen, at) || (api && isDue(seen, at)) || (config.alert && owedAlert(seen));
    if (!needed) return;

    const holder = randomUUID();
    let entry = await store.claim(key, holder, at, at + LEASE_MS);
    if (!entry) return; // someone else has it

    if (isPurgeable(entry, at)) {
      if (await store.remove(key, holder)) console.info(`[contacto] Solicitud no entregada ${key} borrada tras 30 días`);
      return;
    }
    if (api && isDue(entry, at)) {
      const report = await postEnquiry(entry.enquiry, { ...api, idempotencyKey: key, fetchImpl });
      const next = settle(entry, report, 'replay', now(), config.backoffSeconds);
      if (!next) {
        if (await store.remove(key, holder)) delivered += 1;
        console.info(`[contacto] Solicitud ${key} entregada desde la bandeja de salida (${report.attempts} intento(s))`);
        return;
      }
      console.warn(`[contacto] Solicitud ${key} ${next.state === 'dead' ? 'pasa a no entregada' : 'sigue pendiente'} (${next.lastFailure})`);
      entry = next;
    }
    await store.release(await alertIfOwed(entry, config.alert), holder);
  };

  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < keys.length && now() - started < budgetMs) {
        const key = keys[next++] as string;
        try {
          await work(key);
        } catch (error) {
          // One entry's trouble (a store error) must not stop the others; its lease runs out.
          console.error(`[contacto] Falló el reenvío de ${key}:`, error instanceof Error ? error.message : 'error');
        }
      }
    }),
  );

  const counts = await countEntries(store);
  return { delivered, pending: counts.pending, dead: counts.dead };
}

export async function countEntries(store: OutboxStore): Promise<{ pending: number; dead: number }> {
  const entries = await listEntries(store);
  return {
    pending: entries.filter((entry) => entry.state === 'pending').length,
    dead: entries.filter((entry) => entry.state === 'dead').length,
  };
}

/** The configured outbox, flushed towards the configured contact API. */
export async function flushOutbox(): Promise<FlushCounts> {
  const outbox = getOutbox();
  if (!outbox) return { delivered: 0, pending: 0, dead: 0 };
  const contact = getContactConfig();
  const api = contact.mode === 'api' ? { baseUrl: contact.baseUrl, siteKey: contact.siteKey } : null;
  const counts = await flushStore({ store: outbox.store, config: outbox.config, api });
  console.info(`[contacto] Bandeja de salida: ${counts.delivered} entregada(s), ${counts.pending} pendiente(s), ${counts.dead} no entregada(s)`);
  return counts;
}
