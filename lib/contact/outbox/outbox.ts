import 'server-only';
import { getOutboxConfig, type OutboxConfig, type OutboxStoreConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { FileOutboxStore } from './file-store';
import { RedisOutboxStore } from './redis-store';
import type { OutboxEntry } from './entry';
import type { OutboxStore } from './store';

export type { OutboxEntry };

/**
 * The outbox: every enquiry for the contact API is stored here before the
 * first attempt and removed once the API has it (or has said no to the
 * visitor). Whoever works on an entry (the live request, a flush) holds a
 * lease on it first, so two of them never send it at once; a lease that is
 * not let go (a crash) simply runs out.
 */

export type Outbox = { store: OutboxStore; config: OutboxConfig };

export function createOutboxStore(config: OutboxStoreConfig): OutboxStore | null {
  switch (config.kind) {
    case 'redis':
      return new RedisOutboxStore(config.redisUrl, config.limits);
    case 'files':
      return new FileOutboxStore(config.dir, config.limits);
    case 'none':
      return null;
  }
}

let outbox: Outbox | null | undefined;

/**
 * The configured outbox, or null when there is none (off, or Vercel without
 * Redis) or it cannot be opened. Never throws: the action then delivers live,
 * as without an outbox, and the log says why.
 */
export function getOutbox(): Outbox | null {
  if (outbox === undefined) {
    try {
      const config = getOutboxConfig();
      const store = createOutboxStore(config.store);
      outbox = store ? { store, config } : null;
    } catch (error) {
      // Not kept: the next request tries again.
      console.error(
        `[contacto] ERROR: no se pudo abrir la bandeja de salida (${errorName(error)}); las solicitudes se entregan sin ella`,
      );
      return null;
    }
  }
  return outbox;
}

const PAGE = 50;

/** Every readable entry, read a page at a time: only the keys and one page are ever in memory. */
export async function* entriesOf(store: OutboxStore): AsyncGenerator<OutboxEntry> {
  const keys = await store.keys();
  for (let start = 0; start < keys.length; start += PAGE) {
    const page = await Promise.all(keys.slice(start, start + PAGE).map((key) => store.get(key)));
    for (const entry of page) if (entry) yield entry;
  }
}

/** The readable entries that pass `keep`, read a page at a time (only those kept stay in memory). */
export async function listEntries(store: OutboxStore, keep: (entry: OutboxEntry) => boolean = () => true): Promise<OutboxEntry[]> {
  const kept: OutboxEntry[] = [];
  for await (const entry of entriesOf(store)) if (keep(entry)) kept.push(entry);
  return kept;
}

/**
 * Deletes the entry `holder` holds: the API has it, or said no to the
 * visitor. Never throws: left pending, it is replayed with the same key,
 * which the API stores only once.
 */
export async function removeFromOutbox(store: OutboxStore, key: string, holder: string): Promise<boolean> {
  try {
    return await store.remove(key, holder);
  } catch (error) {
    console.error(`[contacto] No se pudo quitar ${key} de la bandeja de salida (${errorName(error)})`);
    return false;
  }
}

/** What an interrupted write left behind (a crash, a full disk): removed at start-up, and by every flush. Never throws. */
export async function cleanUpOutbox(): Promise<void> {
  const outbox = getOutbox();
  if (!outbox) return;
  try {
    const removed = await outbox.store.cleanUp();
    if (removed) console.warn(`[contacto] Bandeja de salida: ${removed} archivo(s) temporal(es) de una escritura interrumpida borrado(s)`);
  } catch (error) {
    console.error(`[contacto] No se pudo limpiar la bandeja de salida (${errorName(error)})`);
  }
}
