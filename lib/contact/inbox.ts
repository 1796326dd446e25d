import 'server-only';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ContactEnquiry } from './schema';
import type { LeadSource } from '@/lib/contact/source';

// The inbox without a contact API, one JSON line per enquiry. Personal data: the folder we make and the file are the
// owner's alone (an existing folder is left as it is: the operator may share it). A full inbox refuses an enquiry (the
// visitor sees WhatsApp and the phone) rather than delete a kept one. Past `keepMs` (the privacy notice's period) a
// line is forgotten at each save, and by the engine (forget-workflow.ts).
export const INBOX_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const INBOX_MAX_FILES = 20;
/** The inbox's files: the one written to, and those set aside when it reached its size. */
const CURRENT = 'enquiries.jsonl';
const SET_ASIDE = /^enquiries-[\dT-]+Z(-\d+)?\.jsonl$/;
export const isInboxFile = (name: string): boolean => name === CURRENT || SET_ASIDE.test(name);
export class InboxFullError extends Error {
  override name = 'InboxFullError';
  constructor() {
    super('la bandeja local está llena');
  }
}

// One write at a time per process, so no append is lost to a rewrite (globalThis: action and steps are bundled apart).
const WRITES = Symbol.for('contacto.bandeja');
function serially<T>(work: () => Promise<T>): Promise<T> {
  const chain = globalThis as { [WRITES]?: Promise<unknown> };
  const done = (chain[WRITES] ?? Promise.resolve()).then(work, work);
  chain[WRITES] = done.catch(() => undefined);
  return done;
}

export const saveToInbox = (...args: Parameters<typeof save>) => serially(() => save(...args));
async function save(
  enquiry: ContactEnquiry,
  dir: string,
  idempotencyKey: string,
  keepMs: number,
  source?: LeadSource,
) {
  const folder = path.resolve(/* turbopackIgnore: true */ process.cwd(), dir);
  const file = path.join(folder, CURRENT);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await forget(folder, Date.now() - keepMs);
  const { captcha, ...fields } = enquiry;
  const entry = {
    receivedAt: new Date().toISOString(),
    idempotencyKey,
    ...fields,
    captcha: Boolean(captcha),
  };
  const line = `${JSON.stringify(source ? { ...entry, source } : entry)}\n`;
  await makeRoom(folder, file, Buffer.byteLength(line));
  const handle = await open(file, 'a', 0o600);
  try {
    // An existing file readable by others is narrowed; failing to must not lose the enquiry.
    const { mode } = await handle.stat();
    if (mode & 0o077) await handle.chmod(0o600).catch(() => {});
    await handle.appendFile(line, 'utf8');
  } finally {
    await handle.close();
  }
  return file;
}

/** Sets the current file aside when `bytes` more would pass its size; InboxFullError when no file may be added. */
async function makeRoom(folder: string, file: string, bytes: number): Promise<void> {
  const size = (await stat(file).catch(() => undefined))?.size ?? 0;
  if (size === 0 || size + bytes <= INBOX_FILE_MAX_BYTES) return;
  const setAside = (await readdir(folder)).filter((name) => SET_ASIDE.test(name)).length;
  if (setAside + 1 >= INBOX_MAX_FILES) throw new InboxFullError();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  // Another request may have set it aside a moment ago: then this one appends to the new file.
  await rename(file, path.join(folder, `enquiries-${stamp}.jsonl`)).catch(
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? undefined : Promise.reject(error)),
  );
}

/** Deletes the set-aside files last written before `since` (ms), and the current file's lines received before it. */
export const forgetOlderThan = (dir: string, since: number) =>
  serially(() => forget(path.resolve(/* turbopackIgnore: true */ process.cwd(), dir), since));

async function forget(folder: string, since: number): Promise<void> {
  const file = path.join(folder, CURRENT);
  for (const name of (await readdir(folder).catch(() => [] as string[])).filter((name) =>
    SET_ASIDE.test(name),
  )) {
    const setAside = path.join(folder, name);
    if ((await stat(setAside)).mtimeMs < since) await rm(setAside, { force: true });
  }
  const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const kept = lines.filter((line) => receivedAt(line) >= since);
  if (kept.length < lines.length)
    await writeFile(file, kept.map((line) => `${line}\n`).join(''), { mode: 0o600 });
}

/** A line's receivedAt (ms); a line that is not one of ours is never ours to forget. */
function receivedAt(line: string): number {
  try {
    return Date.parse((JSON.parse(line) as { receivedAt?: string }).receivedAt ?? '') || Infinity;
  } catch {
    return Infinity;
  }
}
