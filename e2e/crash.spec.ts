import { expect, test, waitForFormScript } from './support/fixtures';
import { runsFor } from './support/leads';
import { startServer } from './support/server';
import { records, setScenario, uniqueMail } from './support/stub';
import { CRASH_PORT, DATA_DIR, E2E_BUILD_ENV } from './support/test-env';

const env = { ...E2E_BUILD_ENV, CONTACT_INBOX_DIR: `${DATA_DIR}/crash` };
// The page comes from this test's own server (the fixtures intercept every other origin).
test.use({ baseURL: `http://127.0.0.1:${CRASH_PORT}` });

test('a server killed while a lead waits for redelivery loses nothing: restarted, it delivers the lead once, by itself', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lead = {
    name: 'Rocío Caída',
    mail: uniqueMail('crash'),
    phone: '5544332211',
    reason: 'Necesito una tienda en línea.',
  };
  await setScenario(lead.mail, [{ status: 503 }]);

  let server = await startServer(CRASH_PORT, env);
  try {
    await page.goto('/');
    await waitForFormScript(page);
    const form = page.locator('#contacto form');
    for (const [name, value] of Object.entries(lead)) await form.locator(`[name="${name}"]`).fill(value);
    await form.getByRole('button', { name: /enviar/i }).click();
    await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible({ timeout: 15_000 });

    // Held by the engine, and redelivery under way: kill the server now, as a crash would.
    await expect.poll(async () => (await records(lead.mail)).attempts.length, { timeout: 20_000 }).toBeGreaterThan(4);
    server.kill();
    const key = (await records(lead.mail)).attempts[0]?.idempotencyKey;
    expect(runsFor(lead.mail, 'crash').map((run) => run.lead.key)).toEqual([key]);

    // The API is back while the server is down; the restarted server's world picks the run up.
    await setScenario(lead.mail, [{ success: true }]);
    server = await startServer(CRASH_PORT, env);
    await expect.poll(async () => (await records(lead.mail)).stored.length, { timeout: 60_000 }).toBe(1);
    const { attempts, stored } = await records(lead.mail);
    expect(stored.map((s) => s.key)).toEqual([key]);
    expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([key]));
    // Delivered: the engine forgets it at once.
    await expect.poll(() => runsFor(lead.mail, 'crash'), { timeout: 20_000 }).toEqual([]);
  } finally {
    server.kill();
  }
});
