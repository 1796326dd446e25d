import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './support/fixtures';
import { sendAsPersonWithoutScripts } from './support/form-post';
import { startServer } from './support/server';
import { uniqueMail } from './support/stub';
import { DATA_DIR, E2E_BUILD_ENV, INBOX_PORT } from './support/test-env';

/*
 * The local inbox (no contact API configured, as in a fresh clone) keeps no
 * enquiry past the privacy notice's period, even when nothing is ever written
 * to it again: the engine itself forgets the line. The period is cut to 20 s.
 */
const KEEP_SECONDS = 20;
const INBOX_DIR = `${DATA_DIR}/inbox-retention`;
// No contact API, said explicitly: nothing from a .env file can fill it in.
const env = {
  ...E2E_BUILD_ENV,
  CONTACT_API_BASE_URL: '',
  CONTACT_SITE_KEY: '',
  CONTACT_INBOX_DIR: INBOX_DIR,
  CONTACT_KEEP_DAYS: String(KEEP_SECONDS / 86_400),
};
const BASE = `http://127.0.0.1:${INBOX_PORT}`;
const inbox = () => {
  const file = path.join(INBOX_DIR, 'enquiries.jsonl');
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
};

let server: { url: string; kill: () => void };
test.beforeAll(async () => {
  server = await startServer(INBOX_PORT, env);
});
test.afterAll(() => server?.kill());

test('an enquiry in the local inbox is forgotten once its period is over, with nothing written after it', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const mail = uniqueMail('bandeja-local');
  const answer = await sendAsPersonWithoutScripts(request, BASE, {
    name: 'Rosa Inbox',
    mail,
    phone: '5512345678',
    reason: 'Quiero una página web.',
  });
  expect(answer.kind).toBe('thanks');
  const savedAt = Date.now();
  expect(inbox()).toContain(mail);
  // Kept meanwhile...
  await new Promise((resolve) => setTimeout(resolve, (KEEP_SECONDS / 2) * 1000));
  expect(inbox()).toContain(mail);
  // ...and gone once the period is over, though no other enquiry came to make the inbox tidy itself.
  await expect.poll(inbox, { timeout: 60_000, intervals: [1000] }).not.toContain(mail);
  expect(Date.now() - savedAt).toBeGreaterThanOrEqual(KEEP_SECONDS * 1000 - 2000);
});
