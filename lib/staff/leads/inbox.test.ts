/**
 * @jest-environment node
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { forgetInInbox, withoutMail } from './inbox';

const line = (name: string, mail: string) =>
  JSON.stringify({
    receivedAt: '2025-01-15T16:00:00.000Z',
    idempotencyKey: name,
    name,
    mail,
    phone: '5512345678',
    reason: 'Una página',
    captcha: false,
  });

describe('a person’s lines in the local inbox', () => {
  it('go, whatever the case or spaces of the address; everyone else’s stay as they were', () => {
    const text = `${line('Mariana', 'Mariana@Example.mx ')}\n${line('Jorge', 'jorge@example.mx')}\n${line('Mariana otra vez', 'mariana@example.mx')}\n`;
    expect(withoutMail(text, ' MARIANA@example.MX')).toEqual({
      text: `${line('Jorge', 'jorge@example.mx')}\n`,
      removed: 2,
    });
  });

  it('go when a write was cut short and the line is not JSON, if its address is there whole', () => {
    const cut = line('Mariana', 'mariana@example.mx').slice(0, -30);
    const text = `${cut}\n${line('Jorge', 'jorge@example.mx')}\n`;
    expect(withoutMail(text, 'mariana@example.mx').removed).toBe(1);
    expect(withoutMail(text, 'ana@example.mx').removed).toBe(0);
  });

  it('do not take a line whose other fields mention the address', () => {
    const text = `${JSON.stringify({ name: 'Jorge', mail: 'jorge@example.mx', reason: 'Me recomendó mariana@example.mx' })}\n`;
    expect(withoutMail(text, 'mariana@example.mx')).toEqual({ text, removed: 0 });
  });
});

describe('purging the inbox folder', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'inbox-forget-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('rewrites the current file and those set aside, keeps them the owner’s alone, and leaves other files alone', async () => {
    const mariana = line('Mariana', 'mariana@example.mx');
    const jorge = line('Jorge', 'jorge@example.mx');
    writeFileSync(path.join(dir, 'enquiries.jsonl'), `${mariana}\n${jorge}\n`);
    writeFileSync(path.join(dir, 'enquiries-2025-01-15T16-00-00-000Z.jsonl'), `${mariana}\n`);
    writeFileSync(path.join(dir, 'notas.jsonl'), `${mariana}\n`);

    expect(await forgetInInbox(dir, 'mariana@example.mx')).toEqual({ files: 2, lines: 2 });

    expect(readFileSync(path.join(dir, 'enquiries.jsonl'), 'utf8')).toBe(`${jorge}\n`);
    expect(readFileSync(path.join(dir, 'enquiries-2025-01-15T16-00-00-000Z.jsonl'), 'utf8')).toBe(
      '',
    );
    expect(readFileSync(path.join(dir, 'notas.jsonl'), 'utf8')).toBe(`${mariana}\n`);
    expect(statSync(path.join(dir, 'enquiries.jsonl')).mode & 0o777).toBe(0o600);
  });

  it('finds nothing to do in a folder that does not exist', async () => {
    expect(await forgetInInbox(path.join(dir, 'nada'), 'mariana@example.mx')).toEqual({
      files: 0,
      lines: 0,
    });
  });
});
