/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { INBOX_FILE_MAX_BYTES, INBOX_MAX_FILES, InboxFullError, saveToInbox } from '../inbox';
import { FileOutboxStore } from './file-store';
import { newEntry } from './policy';

/** What the disk holds is bounded, and nothing an interrupted write leaves behind stays. */

const enquiry = { name: 'Mariana Peña', mail: 'mariana@example.mx', phone: '5512345678', reason: 'Quiero una página.', captcha: '' };
const T0 = Date.UTC(2025, 0, 15, 16, 0, 0);

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'disk-bounds-'));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  jest.restoreAllMocks();
});

/** A temporary file as a crash mid-write leaves it, `ageMs` old. */
function leftover(folder: string, ageMs: number): string {
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `.${randomUUID()}.${randomUUID()}.tmp`);
  writeFileSync(file, '');
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(file, at, at);
  return file;
}

describe('temporary files left by an interrupted write', () => {
  it('are removed when a server starts (instrumentation), a fresh one being written is not', async () => {
    const outbox = path.join(root, 'outbox');
    const old = leftover(outbox, 5 * 60_000);
    const fresh = leftover(outbox, 0);
    const saved = { ...process.env };
    Object.assign(process.env, { NEXT_RUNTIME: 'nodejs', CONTACT_INBOX_DIR: root, CONTACT_OUTBOX: 'auto' });
    delete process.env.CONTACT_API_BASE_URL;
    delete process.env.REDIS_URL;
    delete process.env.VERCEL;
    const logs: string[] = [];
    for (const level of ['info', 'warn', 'error'] as const) jest.spyOn(console, level).mockImplementation((...args) => void logs.push(args.join(' ')));
    try {
      let register: () => Promise<void> = async () => {};
      jest.isolateModules(() => {
        ({ register } = jest.requireActual('@/instrumentation') as { register: () => Promise<void> });
      });
      await register();
    } finally {
      process.env = saved;
    }
    const names = readdirSync(outbox);
    expect(names).not.toContain(path.basename(old));
    expect(names).toContain(path.basename(fresh));
    expect(logs.join('\n')).toMatch(/1 archivo\(s\) temporal\(es\) de una escritura interrumpida borrado\(s\)/);
  });

  it('a write that fails (a full disk) leaves no temporary file', async () => {
    const store = new FileOutboxStore(root);
    await store.add(newEntry(randomUUID(), enquiry, T0, 'live'));
    // The disk fills up between opening the temporary file and writing it.
    const realOpen = fs.open;
    jest.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
      const handle = await realOpen(...args);
      if (String(args[0]).endsWith('.tmp')) {
        handle.writeFile = async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
        };
      }
      return handle;
    });
    await expect(store.add(newEntry(randomUUID(), enquiry, T0, 'live'))).rejects.toThrow(/ENOSPC/);
    expect(readdirSync(path.join(root, 'outbox')).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(await store.keys()).toHaveLength(1);
  });
});

describe('the local inbox', () => {
  it('sets the file aside at its size, and refuses (never deletes) once it holds its number of files', async () => {
    const folder = path.join(root, 'inbox');
    mkdirSync(folder);
    writeFileSync(path.join(folder, 'enquiries.jsonl'), 'x'.repeat(INBOX_FILE_MAX_BYTES - 10));
    await saveToInbox(enquiry, folder, randomUUID());
    const names = readdirSync(folder).sort();
    expect(names).toHaveLength(2);
    expect(names.filter((name) => /^enquiries-.*Z\.jsonl$/.test(name))).toHaveLength(1);

    for (let n = 2; n < INBOX_MAX_FILES; n++) writeFileSync(path.join(folder, `enquiries-2025-01-0${n % 9}T00-00-0${n % 10}-000Z-${n}.jsonl`), '');
    writeFileSync(path.join(folder, 'enquiries.jsonl'), 'x'.repeat(INBOX_FILE_MAX_BYTES));
    const before = readdirSync(folder).length;
    await expect(saveToInbox(enquiry, folder, randomUUID())).rejects.toBeInstanceOf(InboxFullError);
    expect(readdirSync(folder)).toHaveLength(before);
  });
});
