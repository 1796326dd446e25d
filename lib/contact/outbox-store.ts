import type { OutboxEntry } from './outbox-entry';

/**
 * What both outbox stores do, with the same meaning (outbox.contract.test.ts
 * checks it). A leaf module: the stores and outbox.ts import it, and nothing
 * here imports them back.
 */
export interface OutboxStore {
  /** Stores a new entry as it is (lease included). Throws when it cannot be stored. */
  add(entry: OutboxEntry): Promise<void>;
  /** The keys of every stored entry. */
  keys(): Promise<string[]>;
  /** One entry, or null when it is gone or unreadable (logged). */
  get(key: string): Promise<OutboxEntry | null>;
  /** Takes the entry for `holder` until `until`, unless another holder's lease runs past `now`. */
  claim(key: string, holder: string, now: number, until: number): Promise<OutboxEntry | null>;
  /** Writes the entry back and lets go of it, if `holder` still holds it. */
  release(entry: OutboxEntry, holder: string): Promise<boolean>;
  /** Deletes the entry, if `holder` still holds it. */
  remove(key: string, holder: string): Promise<boolean>;
  close(): Promise<void>;
}
