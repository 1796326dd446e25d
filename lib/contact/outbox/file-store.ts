import 'server-only';
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, open, opendir, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { OUTBOX_LIMIT_DEFAULTS, type OutboxLimits } from '@/lib/env/server';
import { fits, OutboxFullError, StoredTooLateError, type OutboxStore, type OutboxUsage } from './store';
import { isOutboxEntry, type OutboxEntry } from './entry';

/**
 * The outbox in files, for a self-hosted single server and `npm run dev`:
 * one JSON file per entry in `{CONTACT_INBOX_DIR}/outbox/`, each written to
 * a temporary file, fsynced and renamed over the old one, so a crash leaves
 * either the old entry or the new one, never half of one, and never touches
 * another entry. A lock file per entry (created exclusively) makes
 * claim/release/remove atomic between processes (the server and
 * `npm run outbox`).
 * Entries are personal data: the folder is the owner's alone (0700), and so
 * is every file written in it (0600).
 * What it holds is counted from the folder (names and sizes, never the
 * entries), at most every USAGE_FRESH_MS, and kept up to date in between by
 * this process's own writes.
 */

// Keys are our own UUIDs; anything else must never become a path.
const KEY = /^[0-9a-f-]{36}$/;
// A lock older than this was left by a crash: the critical sections last milliseconds.
const STALE_LOCK_MS = 10_000;
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;
// A temporary file older than this was left by a crash or a full disk: a write takes milliseconds.
const STALE_TEMPORARY_MS = 60_000;
const USAGE_FRESH_MS = 5000;

export class FileOutboxStore implements OutboxStore {
  readonly folder: string;
  private folderNarrowed = false;
  private counted: { usage: OutboxUsage; at: number } | undefined;

  constructor(
    dir: string,
    private readonly limits: OutboxLimits = OUTBOX_LIMIT_DEFAULTS,
  ) {
    this.folder = path.resolve(/* turbopackIgnore: true */ process.cwd(), dir, 'outbox');
  }

  async add(entry: OutboxEntry, { storeBy }: { storeBy?: number } = {}): Promise<void> {
    await mkdir(this.folder, { recursive: true, mode: FOLDER_MODE });
    if (!this.folderNarrowed) {
      this.folderNarrowed = true;
      // A folder made by hand may be readable by others; failing to narrow it must not lose the enquiry.
      await chmod(this.folder, FOLDER_MODE).catch(() => {});
    }
    const usage = await this.usage();
    const bytes = Buffer.byteLength(JSON.stringify(entry));
    if (!fits(entry, bytes, usage)) throw new OutboxFullError();
    await this.write(entry, storeBy);
    if (this.counted) this.counted.usage = { ...usage, entries: usage.entries + 1, bytes: usage.bytes + bytes };
  }

  async usage(): Promise<OutboxUsage> {
    if (this.counted && Date.now() - this.counted.at < USAGE_FRESH_MS) return this.counted.usage;
    let entries = 0;
    let bytes = 0;
    try {
      for await (const item of await opendir(this.folder)) {
        if (!item.name.endsWith('.json')) continue;
        const size = await stat(path.join(this.folder, item.name)).then((info) => info.size, () => null);
        if (size === null) continue; // removed meanwhile
        entries += 1;
        bytes += size;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const usage = { entries, bytes, ...this.limits };
    this.counted = { usage, at: Date.now() };
    return usage;
  }

  async cleanUp(): Promise<number> {
    let removed = 0;
    try {
      for await (const item of await opendir(this.folder)) {
        const stale = item.name.endsWith('.tmp') ? STALE_TEMPORARY_MS : item.name.endsWith('.lock') ? STALE_LOCK_MS : null;
        if (stale === null) continue;
        const file = path.join(this.folder, item.name);
        const age = await stat(file).then((info) => Date.now() - info.mtimeMs, () => 0);
        if (age > stale && (await rm(file, { force: true }).then(() => true, () => false))) removed += 1;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return removed;
  }

  async keys(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return names.filter((name) => name.endsWith('.json')).map((name) => name.slice(0, -'.json'.length));
  }

  async get(key: string): Promise<OutboxEntry | null> {
    if (!KEY.test(key)) return null;
    let raw: string;
    try {
      raw = await readFile(this.file(key), 'utf8');
    } catch {
      return null; // removed meanwhile
    }
    try {
      const entry: unknown = JSON.parse(raw);
      if (isOutboxEntry(entry) && entry.key === key) return entry;
    } catch {}
    // Left in place for a person to look at; every other entry goes on as usual.
    console.error(`[contacto] Entrada ilegible en la bandeja de salida, se omite: ${key}.json`);
    return null;
  }

  async claim(key: string, holder: string, now: number, until: number): Promise<OutboxEntry | null> {
    return this.locked(key, async () => {
      const entry = await this.get(key);
      if (!entry || (entry.lease && entry.lease.holder !== holder && entry.lease.until > now)) return null;
      const claimed = { ...entry, lease: { holder, until } };
      await this.write(claimed);
      return claimed;
    });
  }

  async release(entry: OutboxEntry, holder: string): Promise<boolean> {
    const released = await this.locked(entry.key, async () => {
      const current = await this.get(entry.key);
      if (current?.lease?.holder !== holder) return false;
      const { lease: _lease, ...rest } = entry;
      await this.write(rest);
      return true;
    });
    return released ?? false;
  }

  async remove(key: string, holder: string): Promise<boolean> {
    const removed = await this.locked(key, async () => {
      const current = await this.get(key);
      if (current?.lease?.holder !== holder) return false;
      await unlink(this.file(key));
      this.counted = undefined;
      return true;
    });
    return removed ?? false;
  }

  async close(): Promise<void> {}

  private file(key: string) {
    return path.join(this.folder, `${key}.json`);
  }

  /** `storeBy`: past it, nothing is written (the caller stopped waiting). */
  private async write(entry: OutboxEntry, storeBy?: number) {
    if (!KEY.test(entry.key)) throw new Error('clave de entrada inválida');
    const temporary = path.join(this.folder, `.${entry.key}.${randomUUID()}.tmp`);
    try {
      const handle = await open(temporary, 'w', FILE_MODE);
      try {
        await handle.writeFile(JSON.stringify(entry), 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (storeBy !== undefined && Date.now() > storeBy) throw new StoredTooLateError();
      await rename(temporary, this.file(entry.key));
    } catch (error) {
      // A full disk or a late write leaves no half-written temporary behind.
      await rm(temporary, { force: true }).catch(() => {});
      throw error;
    }
    // The rename itself is durable only once the folder is synced.
    const folder = await open(this.folder, 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
  }

  private async locked<T>(key: string, work: () => Promise<T | null>): Promise<T | null> {
    if (!KEY.test(key)) return null;
    const lock = path.join(this.folder, `.${key}.lock`);
    for (let tries = 0; ; tries++) {
      try {
        const handle = await open(lock, 'wx', FILE_MODE);
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null; // no folder, no entry
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(lock).then((info) => Date.now() - info.mtimeMs, () => 0);
        if (age > STALE_LOCK_MS) await rm(lock, { force: true });
        else if (tries > 200) return null; // busy for 2 s: someone else is on it
        else await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }
    try {
      return await work();
    } finally {
      await rm(lock, { force: true });
    }
  }
}
