import type { OutboxEntry } from './entry';

/**
 * What both outbox stores do, with the same meaning (outbox.contract.test.ts
 * checks it). A leaf module: the stores and outbox.ts import it, and nothing
 * here imports them back.
 */
export interface OutboxStore {
  /**
   * Stores a new entry as it is (lease included). Throws OutboxFullError when
   * it would take the store past its limits (a suspected spam: past half of
   * them), StoredTooLateError when the store got to it after `storeBy` (ms
   * since the epoch: the visitor's answer no longer waits for it, so it must
   * not be stored), and any other error when it cannot be stored.
   */
  add(entry: OutboxEntry, options?: { storeBy?: number }): Promise<void>;
  /** The keys of every stored entry (bounded by the store's limits). */
  keys(): Promise<string[]>;
  /** One entry, or null when it is gone or unreadable (logged). */
  get(key: string): Promise<OutboxEntry | null>;
  /** Takes the entry for `holder` until `until`, unless another holder's lease runs past `now`. */
  claim(key: string, holder: string, now: number, until: number): Promise<OutboxEntry | null>;
  /** Writes the entry back and lets go of it, if `holder` still holds it. */
  release(entry: OutboxEntry, holder: string): Promise<boolean>;
  /** Deletes the entry, if `holder` still holds it. */
  remove(key: string, holder: string): Promise<boolean>;
  /** How much it holds now, against its limits. */
  usage(): Promise<OutboxUsage>;
  /** Removes what an interrupted write left behind (temporary files); returns how many. */
  cleanUp(): Promise<number>;
  close(): Promise<void>;
}

export type OutboxUsage = { entries: number; bytes: number; maxEntries: number; maxBytes: number };

/** The store is at its limits: the enquiry is tried live only. */
export class OutboxFullError extends Error {
  constructor() {
    super('la bandeja de salida está llena');
    this.name = 'OutboxFullError';
  }
}

/** The store got to the entry after the visitor's answer stopped waiting for it: not stored. */
export class StoredTooLateError extends Error {
  constructor() {
    super('la bandeja de salida respondió tarde; no se guardó');
    this.name = 'StoredTooLateError';
  }
}

/** Whether one more entry of `bytes` fits: a suspected spam only in the first half, so spam never crowds out a person. */
export function fits(entry: Pick<OutboxEntry, 'state'>, bytes: number, usage: OutboxUsage): boolean {
  const share = entry.state === 'spam' ? 0.5 : 1;
  return usage.entries + 1 <= usage.maxEntries * share && usage.bytes + bytes <= usage.maxBytes * share;
}
