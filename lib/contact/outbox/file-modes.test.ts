/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { saveToInbox } from '../inbox';
import { FileOutboxStore } from './file-store';
import { newEntry } from './policy';

/** Enquiries are personal data: on disk they are the owner's alone. */

const enquiry = {
  name: 'Mariana Peña',
  mail: 'mariana@example.mx',
  phone: '5512345678',
  reason: 'Quiero una página para mi cafetería en Coyoacán.',
  captcha: '',
};
const T0 = Date.UTC(2025, 0, 15, 16, 0, 0);
const modeOf = (file: string) => statSync(file).mode & 0o777;

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'file-modes-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('the outbox in files', () => {
  it('keeps its folder and each entry file private to the owner', async () => {
    const store = new FileOutboxStore(path.join(root, 'datos'));
    const entry = newEntry(randomUUID(), enquiry, T0, 'live');
    await store.add(entry);
    expect(modeOf(path.join(root, 'datos'))).toBe(0o700);
    expect(modeOf(store.folder)).toBe(0o700);
    expect(modeOf(path.join(store.folder, `${entry.key}.json`))).toBe(0o600);
  });

  it('keeps an entry private when it is written again under its lock', async () => {
    const store = new FileOutboxStore(root);
    const entry = newEntry(randomUUID(), enquiry, T0, 'live');
    await store.add(entry);
    expect(await store.release(entry, 'live')).toBe(true);
    expect(modeOf(path.join(store.folder, `${entry.key}.json`))).toBe(0o600);
  });

  it('narrows an existing folder readable by others', async () => {
    const folder = path.join(root, 'outbox');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755); // whatever the umask
    await new FileOutboxStore(root).add(newEntry(randomUUID(), enquiry, T0, 'live'));
    expect(modeOf(folder)).toBe(0o700);
  });
});

describe('the local inbox', () => {
  it('keeps its folder and enquiries.jsonl private to the owner', async () => {
    const file = await saveToInbox(enquiry, path.join(root, 'bandeja'), randomUUID());
    expect(file).toBe(path.join(root, 'bandeja', 'enquiries.jsonl'));
    expect(modeOf(path.join(root, 'bandeja'))).toBe(0o700);
    expect(modeOf(file)).toBe(0o600);
  });

  it('narrows an existing enquiries.jsonl readable by others, keeping what it held', async () => {
    const file = path.join(root, 'enquiries.jsonl');
    writeFileSync(file, '{"antes":true}\n', { mode: 0o644 });
    chmodSync(file, 0o644);
    await saveToInbox(enquiry, root, randomUUID());
    expect(modeOf(file)).toBe(0o600);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('{"antes":true}');
  });
});
