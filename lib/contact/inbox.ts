import 'server-only';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { ContactEnquiry } from './schema';

/**
 * The local inbox used when no contact API is configured (a fresh clone,
 * `npm run dev`): one JSON line per enquiry in a git-ignored folder.
 * Enquiries are personal data: the folder (when made here) and the file are
 * the owner's alone. An existing folder is left as it is: it may be one the
 * operator chose and shares on purpose.
 */
export async function saveToInbox(enquiry: ContactEnquiry, dir: string, idempotencyKey: string): Promise<string> {
  const folder = path.resolve(/* turbopackIgnore: true */ process.cwd(), dir);
  const file = path.join(folder, 'enquiries.jsonl');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const { captcha, ...fields } = enquiry;
  const line = JSON.stringify({ receivedAt: new Date().toISOString(), idempotencyKey, ...fields, captcha: Boolean(captcha) });
  const handle = await open(file, 'a', 0o600);
  try {
    // A file left readable by others by an older version is narrowed; failing to must not lose the enquiry.
    const { mode } = await handle.stat();
    if (mode & 0o077) await handle.chmod(0o600).catch(() => {});
    await handle.appendFile(`${line}\n`, 'utf8');
  } finally {
    await handle.close();
  }
  return file;
}
