import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, test, waitForFormScript } from './support/fixtures';
import { runsFor } from './support/leads';
import { startServer } from './support/server';
import { records, setScenario, uniqueMail } from './support/stub';
import { CRASH_PORT, DATA_DIR, E2E_BUILD_ENV } from './support/test-env';

const env = { ...E2E_BUILD_ENV, CONTACT_INBOX_DIR: `${DATA_DIR}/crash` };
// The page comes from this test's own server (the fixtures intercept every other origin).
test.use({ baseURL: `http://127.0.0.1:${CRASH_PORT}` });
// Both tests start and stop the server on CRASH_PORT with the same data.
test.describe.configure({ mode: 'serial' });

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
    for (const [name, value] of Object.entries(lead))
      await form.locator(`[name="${name}"]`).fill(value);
    await form.getByRole('button', { name: /enviar/i }).click();
    await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible({
      timeout: 15_000,
    });

    // Held by the engine, and redelivery under way: kill the server now, as a crash would.
    await expect
      .poll(async () => (await records(lead.mail)).attempts.length, { timeout: 20_000 })
      .toBeGreaterThan(4);
    server.kill();
    const key = (await records(lead.mail)).attempts[0]?.idempotencyKey;
    expect(runsFor(lead.mail, 'crash').map((run) => run.lead.key)).toEqual([key]);

    // The API is back while the server is down; the restarted server's world picks the run up.
    await setScenario(lead.mail, [{ success: true }]);
    server = await startServer(CRASH_PORT, env);
    await expect
      .poll(async () => (await records(lead.mail)).stored.length, { timeout: 60_000 })
      .toBe(1);
    const { attempts, stored } = await records(lead.mail);
    expect(stored.map((s) => s.key)).toEqual([key]);
    expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([key]));
    // Delivered: the engine forgets it at once.
    await expect.poll(() => runsFor(lead.mail, 'crash'), { timeout: 20_000 }).toEqual([]);
  } finally {
    server.kill();
  }
});

test('a lead waiting across a deploy that moved its steps is delivered once by the new build', async () => {
  test.setTimeout(120_000);
  const mail = uniqueMail('upgrade');
  await setScenario(mail, [{ success: true }]);
  // Written as the build before lib/contact/lead/workflow.ts held the lead's steps wrote it: on our own servers a
  // run is not pinned to its build, so the new one cannot replay it (REPLAY_DIVERGENCE); the rescue starts it again.
  const fixture = path.join(__dirname, '..', 'test-support', 'lead-run-fixture.mjs');
  const [runId, key] = execFileSync(
    process.execPath,
    [fixture, `${DATA_DIR}/crash/workflow`, mail, 'waiting-moved'],
    {
      encoding: 'utf8',
    },
  )
    .trim()
    .split(' ');
  expect(runsFor(mail, 'crash').map((run) => run.runId)).toEqual([runId]);

  const server = await startServer(CRASH_PORT, env);
  try {
    await expect.poll(async () => (await records(mail)).stored.length, { timeout: 60_000 }).toBe(1);
    const { attempts, stored } = await records(mail);
    expect(stored.map((s) => s.key)).toEqual([key]);
    expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([key]));
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect((await records(mail)).stored).toHaveLength(1);
  } finally {
    server.kill();
  }
});
