import 'server-only';
import { appendFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ContactEnquiry } from './schema';

/**
 * The local inbox used when no contact API is configured (a fresh clone,
 * `npm run dev`): one JSON line per enquiry in a git-ignored folder.
 */
export async function saveToInbox(enquiry: ContactEnquiry, dir: string, idempotencyKey: string): Promise<string> {
  const folder = path.resolve(/* turbopackIgnore: true */ process.cwd(), dir);
  const file = path.join(folder, 'enquiries.jsonl');
  await mkdir(folder, { recursive: true });
  const { captcha, ...fields } = enquiry;
  const line = JSON.stringify({ receivedAt: new Date().toISOString(), idempotencyKey, ...fields, captcha: Boolean(captcha) });
  await appendFile(file, `${line}\n`, 'utf8');
  return file;
}
