import 'server-only';
import { open, readdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { normalMail } from '@/lib/contact/fields';
import { isInboxFile } from '@/lib/contact/inbox';

/**
 * The local inbox's text (one JSON enquiry a line) without the lines of
 * `mail`, compared as people type it (case and spaces aside). A line that is
 * not JSON (a write cut short) goes if its mail field is there whole.
 */
export function withoutMail(text: string, mail: string): { text: string; removed: number } {
  const wanted = normalMail(mail);
  let removed = 0;
  const kept = text.split('\n').filter((line) => {
    if (!line.trim()) return true;
    let matches: boolean;
    try {
      const entry: unknown = JSON.parse(line);
      const value =
        entry && typeof entry === 'object' ? (entry as { mail?: unknown }).mail : undefined;
      matches = typeof value === 'string' && normalMail(value) === wanted;
    } catch {
      matches = normalMail(/"mail":"([^"]*)"/.exec(line)?.[1] ?? '') === wanted;
    }
    if (matches) removed += 1;
    return !matches;
  });
  return { text: kept.join('\n'), removed };
}

/**
 * Removes `mail`'s lines from every inbox file in `dir`: each file is written
 * anew beside it (the owner's alone, as the inbox writes it) and renamed over
 * it, so a crash leaves the old file or the new one, never half of one. If the
 * server appended meanwhile, the file is read again rather than losing that line.
 */
export async function forgetInInbox(
  dir: string,
  mail: string,
): Promise<{ files: number; lines: number }> {
  const names = (await readdir(dir).catch(() => [] as string[])).filter(isInboxFile);
  let files = 0;
  let lines = 0;
  for (const name of names) {
    const file = path.join(dir, name);
    for (let attempt = 1; ; attempt += 1) {
      const before = await stat(file);
      const handle = await open(file, 'r');
      const result = withoutMail(await handle.readFile('utf8').finally(() => handle.close()), mail);
      if (!result.removed) break;
      const temporary = `${file}.${process.pid}.tmp`;
      const out = await open(temporary, 'wx', 0o600);
      await out.writeFile(result.text, 'utf8').finally(() => out.close());
      const after = await stat(file);
      if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) {
        await unlink(temporary);
        if (attempt < 5) continue;
        throw new Error(
          `${file} cambia sin parar (el servidor escribe en él): inténtalo de nuevo con el servidor detenido`,
        );
      }
      await rename(temporary, file);
      files += 1;
      lines += result.removed;
      break;
    }
  }
  return { files, lines };
}
