import 'server-only';
import { createHash } from 'node:crypto';
import { mkdir, readdir, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { limitConfigOrDefaults } from '@/lib/abuse/client';
import { consumeInStore, heldLimiter, used, type SharedLimiter } from '@/lib/abuse/limiter';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import { getInboxDir } from '@/lib/env/server';
import { withTimeout } from '@/lib/server/with-timeout';

// What must hold on every server that may serve the site, and after a restart: the links spent, the sessions ended.
// Kept where the abuse limit keeps its counts when they are shared (Redis, else the Postgres world's database). On
// the local world, which is one machine's folder (every server that shares its leads shares that machine), in files
// under CONTACT_INBOX_DIR. Anywhere else (Vercel, or another world, without REDIS_URL) nothing is shared by every
// instance, and the staff area does not open (config.ts).

export type LedgerStore = { kind: 'redis' } | { kind: 'postgres' } | { kind: 'files'; dir: string };

/** Where the ledger is kept here; undefined where no place is shared by every instance that may serve the site. */
export function ledgerStore(): LedgerStore | undefined {
  const { redisUrl, postgresUrl, onVercel } = limitConfigOrDefaults();
  if (redisUrl) return { kind: 'redis' };
  if (postgresUrl) return { kind: 'postgres' };
  if (!onVercel && getWorkflowWorld().kind === 'local')
    return { kind: 'files', dir: path.join(getInboxDir(), 'equipo') };
  return undefined;
}

/** Entries one folder may hold: far beyond the links and sessions of 50 staff addresses in a working day. */
const MAX_ENTRIES = 5000;
/** Below this, nothing is swept: a few files cost nothing to keep until they are many. */
const SWEEP_FROM = 200;

export type Ledger = {
  /** Notes `id`: true when noted now, false when it was already. Throws when the store does not answer in `waitMs`. */
  note: (id: string, waitMs: number) => Promise<boolean>;
  /** Whether `id` is noted. Throws when the store does not answer in `waitMs`. */
  noted: (id: string, waitMs: number) => Promise<boolean>;
  /** Drops the store's client (tests). */
  close: () => void;
};

/**
 * A list of ids, each kept `seconds` (as long as what it spends or ends could be used): under `key` in a shared store,
 * in `folder` on the local world.
 */
export function ledger({
  key,
  folder,
  seconds,
  maxEntries = MAX_ENTRIES,
}: {
  key: string;
  folder: string;
  seconds: number;
  maxEntries?: number;
}): Ledger {
  const held: { limiter?: SharedLimiter } = {};
  const shared = () =>
    heldLimiter(held, key, `el registro ${folder}`, {
      ...limitConfigOrDefaults(),
      max: 1,
      windowSeconds: seconds,
    });
  const inFiles = (store: LedgerStore | undefined) =>
    store?.kind === 'files' ? path.join(store.dir, folder) : undefined;
  return {
    note: async (id, waitMs) => {
      const dir = inFiles(ledgerStore());
      return dir
        ? withTimeout(noteInFolder(dir, id, seconds, maxEntries), waitMs)
        : consumeInStore(shared(), id, waitMs);
    },
    noted: async (id, waitMs) => {
      const dir = inFiles(ledgerStore());
      return dir ? withTimeout(inFolder(dir, id), waitMs) : (await used(shared(), id, waitMs)) > 0;
    },
    close: () => {
      held.limiter?.release?.();
      held.limiter = undefined;
    },
  };
}

// One empty file per id, named by its hash. Creating it exclusively (O_EXCL) is atomic, also between processes on
// the machine: of two servers spending one link at once, one creates it and the other finds it there.
const fileOf = (dir: string, id: string) =>
  path.join(dir, createHash('sha256').update(id).digest('hex'));

async function noteInFolder(
  dir: string,
  id: string,
  seconds: number,
  maxEntries: number,
): Promise<boolean> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await sweep(dir, seconds, maxEntries);
  try {
    await writeFile(fileOf(dir, id), '', { flag: 'wx', mode: 0o600 });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function inFolder(dir: string, id: string): Promise<boolean> {
  try {
    await stat(fileOf(dir, id));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/** Drops the entries older than `seconds` once there are many; a folder still full after that takes no more. */
async function sweep(dir: string, seconds: number, maxEntries: number): Promise<void> {
  const names = await readdir(dir);
  if (names.length < Math.min(SWEEP_FROM, maxEntries)) return;
  const oldest = Date.now() - seconds * 1000;
  let kept = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    const written = await stat(file).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
    if (written === undefined) continue;
    if (written >= oldest) kept += 1;
    else await unlink(file).catch(() => {});
  }
  // Never dropped early: an entry dropped before its time would give a spent link or an ended session back.
  if (kept >= maxEntries) throw new Error(`el registro ${path.basename(dir)} está lleno`);
}
