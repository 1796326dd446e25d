import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, waitForFormScript } from './support/fixtures';
import { flush } from './support/outbox';
import { startServer } from './support/server';
import { records, setScenario, uniqueMail } from './support/stub';
import { CRASH_PORT, DATA_DIR, E2E_BUILD_ENV } from './support/test-env';

const env = { ...E2E_BUILD_ENV, CONTACT_INBOX_DIR: `${DATA_DIR}/crash` };
const outboxFolder = path.join(DATA_DIR, 'crash', 'outbox');
// The page comes from this test's own server (the fixtures intercept every other origin).
test.use({ baseURL: `http://127.0.0.1:${CRASH_PORT}` });

test('a server killed while delivering loses nothing: after a restart one flush delivers the enquiry once', async ({ page }) => {
  // The lease of the dead request (15 s) must run out before the flush may take the entry.
  test.setTimeout(120_000);
  const lead = { name: 'Rocío Caída', mail: uniqueMail('crash'), phone: '5544332211', reason: 'Necesito una tienda en línea.' };
  await setScenario(lead.mail, [{ hang: true }]);

  let server = await startServer(CRASH_PORT, env);
  try {
    await page.goto('/');
    await waitForFormScript(page);
    const form = page.locator('#contacto form');
    for (const [name, value] of Object.entries(lead)) await form.locator(`[name="${name}"]`).fill(value);
    await form.getByRole('button', { name: /enviar/i }).click();

    // Stored, and the first attempt is under way: kill the server now.
    await expect.poll(async () => (await records(lead.mail)).attempts.length, { timeout: 15_000 }).toBeGreaterThan(0);
    server.kill();
    const key = (await records(lead.mail)).attempts[0]?.idempotencyKey;
    expect(existsSync(path.join(outboxFolder, `${key}.json`))).toBe(true);

    server = await startServer(CRASH_PORT, env);
    await setScenario(lead.mail, [{ success: true }]);
    await expect
      .poll(async () => {
        expect((await flush(server.url)).status).toBe(200);
        return (await records(lead.mail)).stored.length;
      }, { timeout: 60_000, intervals: [2000] })
      .toBe(1);
    const { attempts, stored } = await records(lead.mail);
    expect(stored.map((s) => s.key)).toEqual([key]);
    expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([key]));
    expect(readdirSync(outboxFolder).filter((name) => name.endsWith('.json'))).toEqual([]);

    const before = attempts.length;
    expect((await flush(server.url)).body).toEqual({ delivered: 0, pending: 0, dead: 0, spam: 0 });
    expect((await records(lead.mail)).attempts.length).toBe(before);
  } finally {
    server.kill();
  }
});
