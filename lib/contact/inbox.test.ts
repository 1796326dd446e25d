/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import fsPromises from 'node:fs/promises';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  forgetOlderThan,
  INBOX_FILE_MAX_BYTES,
  INBOX_MAX_FILES,
  InboxFullError,
  saveToInbox,
} from './inbox';

/** The local inbox (no contact API): personal data, private to the owner, bounded, and forgotten on time. */

const enquiry = {
  name: 'Mariana Peña',
  mail: 'mariana@example.mx',
  phone: '5512345678',
  reason: 'Quiero una página.',
  captcha: '',
};
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const modeOf = (file: string) => statSync(file).mode & 0o777;

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'inbox-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the local inbox', () => {
  it('keeps its folder and enquiries.jsonl private to the owner', async () => {
    const file = await saveToInbox(enquiry, path.join(root, 'bandeja'), randomUUID(), KEEP_MS);
    expect(file).toBe(path.join(root, 'bandeja', 'enquiries.jsonl'));
    expect(modeOf(path.join(root, 'bandeja'))).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
  });

  it('narrows an existing enquiries.jsonl readable by others, keeping what it held', async () => {
    const file = path.join(root, 'enquiries.jsonl');
    writeFileSync(file, '{"antes":true}\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    await saveToInbox(enquiry, root, randomUUID(), KEEP_MS);
    expect(modeOf(file)).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('{"antes":true}');
  });

  it('sets the file aside at its size, and refuses (never deletes) once it holds its number of files', async () => {
    const folder = path.join(root, 'inbox');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'enquiries.jsonl'), 'x'.repeat(INBOX_FILE_MAX_BYTES - 10));
    await saveToInbox(enquiry, folder, randomUUID(), KEEP_MS);
    const names = readdirSync(folder).sort();
    expect(names).toHaveLength(2);
    expect(names.filter((name) => /^enquiries-.*Z\.jsonl$/.test(name))).toHaveLength(1);

    for (let n = 2; n < INBOX_MAX_FILES; n++)
      writeFileSync(
        path.join(folder, `enquiries-2025-01-0${n % 9}T00-00-0${n % 10}-000Z-${n}.jsonl`),
        '',
      );
    writeFileSync(path.join(folder, 'enquiries.jsonl'), 'x'.repeat(INBOX_FILE_MAX_BYTES));
    const before = readdirSync(folder).length;
    await expect(saveToInbox(enquiry, folder, randomUUID(), KEEP_MS)).rejects.toBeInstanceOf(
      InboxFullError,
    );
    expect(readdirSync(folder)).toHaveLength(before);
  });

  it("forgets, at each save, what is older than the privacy notice's period: old lines and old set-aside files", async () => {
    const file = path.join(root, 'enquiries.jsonl');
    const old = new Date(Date.now() - KEEP_MS - 60_000).toISOString();
    const recent = new Date(Date.now() - KEEP_MS + 60_000).toISOString();
    writeFileSync(
      file,
      `${JSON.stringify({ receivedAt: old, mail: 'vieja@example.mx' })}\n${JSON.stringify({ receivedAt: recent, mail: 'reciente@example.mx' })}\n`,
    );
    const setAside = path.join(root, 'enquiries-2025-01-01T00-00-00-000Z.jsonl');
    const keptAside = path.join(root, 'enquiries-2025-02-01T00-00-00-000Z.jsonl');
    writeFileSync(setAside, 'viejo\n');
    writeFileSync(keptAside, 'reciente\n');
    const at = (Date.now() - KEEP_MS - 60_000) / 1000;
    utimesSync(setAside, at, at);

    await saveToInbox(enquiry, root, randomUUID(), KEEP_MS);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('vieja@example.mx');
    expect(text).toContain('reciente@example.mx');
    expect(text).toContain(enquiry.mail);
    expect(readdirSync(root).sort()).toEqual([path.basename(keptAside), 'enquiries.jsonl']);
  });

  it('loses no enquiry saved while the engine forgets old lines: the save waits for the rewrite', async () => {
    const file = path.join(root, 'enquiries.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ receivedAt: new Date(Date.now() - KEEP_MS - 60_000).toISOString(), mail: 'vieja@example.mx' })}\n`,
    );
    // The worst moment: the engine's pass has read the file, and a visitor's enquiry arrives before it writes what it keeps.
    const rewrite = fsPromises.writeFile;
    let saving: Promise<string> | undefined;
    const spy = jest
      .spyOn(fsPromises, 'writeFile')
      .mockImplementation(async (...args: Parameters<typeof rewrite>) => {
        // Kept twice as long, the save has nothing to forget itself: only the pass rewrites the file.
        saving ??= saveToInbox(enquiry, root, randomUUID(), KEEP_MS * 2);
        await new Promise((resolve) => setTimeout(resolve, 100));
        return rewrite(...args);
      });
    try {
      await forgetOlderThan(root, Date.now() - KEEP_MS);
      await saving;
    } finally {
      spy.mockRestore();
    }
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('vieja@example.mx');
    expect(text).toContain(enquiry.mail);
  });

  it('forgets old lines with nothing saved (the engine calls it once a period is over), and a missing inbox is no error', async () => {
    const file = path.join(root, 'enquiries.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({ receivedAt: new Date(Date.now() - 60_000).toISOString(), mail: 'vieja@example.mx' })}\n`,
    );
    await forgetOlderThan(root, Date.now() - 30_000);
    expect(readFileSync(file, 'utf8')).toBe('');
    await expect(forgetOlderThan(path.join(root, 'nada'), Date.now())).resolves.toBeUndefined();
  });
});
