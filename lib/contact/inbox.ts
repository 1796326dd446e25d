import 'server-only';
import { mkdir, open, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ContactEnquiry } from './schema';

/**
 * The local inbox used when no contact API is configured (a fresh clone,
 * `npm run dev`): one JSON line per enquiry in a git-ignored folder.
 * Enquiries are personal data: the folder (when made here) and the file are
 * the owner's alone. An existing folder is left as it is: it may be one the
 * operator chose and shares on purpose.
 * `enquiries.jsonl` is set aside as `enquiries-<date>.jsonl` when it reaches
 * INBOX_FILE_MAX_BYTES. With INBOX_MAX_FILES files in all, the inbox is full:
 * an enquiry is refused (the visitor sees the failure message with WhatsApp
 * and the phone), never a kept one deleted to make room.
 */

export const INBOX_FILE_MAX_BYTES = 5 * 1024 * 1024;
export const INBOX_MAX_FILES = 20;
const CURRENT = 'enquiries.jsonl';
const SET_ASIDE = /^enquiries-[\dT-]+Z(-\d+)?\.jsonl$/;

export class InboxFullError extends Error {
  constructor() {
    super('la bandeja local está llena');
    this.name = 'InboxFullError';
  }
}

export async function saveToInbox(enquiry: ContactEnquiry, dir: string, idempotencyKey: string): Promise<string> {
  const folder = path.resolve(/* turbopackIgnore: true */ process.cwd(), dir);
  const file = path.join(folder, CURRENT);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const { captcha, ...fields } = enquiry;
  const line = `${JSON.stringify({ receivedAt: new Date().toISOString(), idempotencyKey, ...fields, captcha: Boolean(captcha) })}\n`;
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

/** Sets the current file aside when `bytes` more would take it past its size; throws InboxFullError when no file may be added. */
async function makeRoom(folder: string, file: string, bytes: number): Promise<void> {
  const size = await stat(file).then((info) => info.size, () => 0);
  if (size === 0 || size + bytes <= INBOX_FILE_MAX_BYTES) return;
  const setAside = (await readdir(folder)).filter((name) => SET_ASIDE.test(name)).length;
  if (setAside + 1 >= INBOX_MAX_FILES) throw new InboxFullError();
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  // Another request may have set it aside a moment ago: then this one appends to the new file.
  await rename(file, path.join(folder, `enquiries-${stamp}.jsonl`)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
}
