import type { Page } from '@playwright/test';
import { expect, stayOnThankYouView, test, timeContactAction, waitForFormScript } from './support/fixtures';
import { alertsAbout, flush, keyIn, waitForAlerts } from './support/outbox';
import { records, setScenario, uniqueMail, type StubStep } from './support/stub';
import { E2E_CONFIG } from './support/test-env';

// Each test flushes the whole outbox: one at a time, so no test's flush delivers another's enquiry mid-check.
test.describe.configure({ mode: 'serial' });

/** Fills the form as a new lead while the API answers `steps`; resolves with the wait the visitor saw. */
async function sendWhile(page: Page, steps: StubStep[], tag: string) {
  const lead = { name: `Lucía Outbox ${tag}`, mail: uniqueMail(`outbox-${tag}`), phone: '5511223344', reason: 'Quiero vender más en línea.' };
  await setScenario(lead.mail, steps);
  await stayOnThankYouView(page);
  await page.goto('/');
  await waitForFormScript(page);
  const form = page.locator('#contacto form');
  for (const [name, value] of Object.entries(lead)) await form.locator(`[name="${name}"]`).fill(value);
  const waited = timeContactAction(page);
  await form.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible({ timeout: 15_000 });
  return { lead, waited: await waited };
}

/** Flushes until the stub has stored this lead's enquiry (another flush may hold it for a moment). */
async function flushUntilStored(base: string, mail: string) {
  await expect
    .poll(async () => {
      expect((await flush(base)).status).toBe(200);
      return (await records(mail)).stored.length;
    }, { timeout: 30_000, intervals: [1000] })
    .toBeGreaterThan(0);
}

test.describe('the outbox', () => {
  for (const [fault, steps] of [
    ['is down (503)', [{ status: 503 }]],
    ['hangs', [{ hang: true }]],
  ] as const) {
    test(`the API ${fault}: thanked within 4 s, the agency alerted, one flush delivers it once with the same key`, async ({
      page,
      baseURL,
    }) => {
      const { lead, waited } = await sendWhile(page, [...steps], fault.split(' ')[0] ?? 'x');
      expect(waited).toBeLessThan(4000);
      expect((await records(lead.mail)).stored).toHaveLength(0);

      // The pending alert goes out after the visitor's answer (and after one more try in the background).
      const [alert] = await waitForAlerts(lead.mail, 1);
      expect(alert?.envelopeTo).toEqual([E2E_CONFIG.alertTo]);
      expect(alert?.subject).toBe(`Solicitud de contacto pendiente de entrega: ${lead.name}`);
      // The reason is quoted under its heading, so none of its lines can pass for the template's.
      for (const line of [`Nombre: ${lead.name}`, `Teléfono: ${lead.phone}`, `Motivo:\n> ${lead.reason}`]) expect(alert?.text).toContain(line);
      const key = alert && keyIn(alert);
      expect(key).toMatch(/^[0-9a-f-]{36}$/);

      // The API comes back; the scheduler flushes.
      await setScenario(lead.mail, [{ success: true }]);
      const before = (await records(lead.mail)).attempts.length;
      await flushUntilStored(baseURL as string, lead.mail);
      const { attempts, stored } = await records(lead.mail);
      expect(stored).toEqual([{ key, enquiry: expect.objectContaining({ name: lead.name, mail: lead.mail, phone: lead.phone }) }]);
      expect(attempts.length).toBe(before + 1);
      expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([key]));

      // A second flush sends nothing more.
      const second = await flush(baseURL as string);
      expect(second.status).toBe(200);
      expect(Object.keys(second.body).sort()).toEqual(['dead', 'delivered', 'pending', 'spam']);
      expect((await records(lead.mail)).attempts.length).toBe(before + 1);
      expect(await alertsAbout(lead.mail)).toHaveLength(1);
    });
  }

  test('a replay the API refuses becomes a dead letter, with no second e-mail: one per lead', async ({ page, baseURL }) => {
    const { lead } = await sendWhile(page, [{ status: 503 }], 'refused');
    await waitForAlerts(lead.mail, 1);
    // An API that verifies reCAPTCHA refuses a token older than 2 minutes.
    await setScenario(lead.mail, [{ status: 400, mes: 'El token de captcha expiró' }]);
    const before = (await records(lead.mail)).attempts.length;
    await expect
      .poll(async () => {
        await flush(baseURL as string);
        return (await records(lead.mail)).attempts.length;
      }, { timeout: 30_000, intervals: [1000] })
      .toBeGreaterThan(before);
    expect((await records(lead.mail)).stored).toHaveLength(0);

    // Dead letters are never sent again, and the agency, told once already, is not told twice.
    await setScenario(lead.mail, [{ success: true }]);
    const refused = (await records(lead.mail)).attempts.length;
    expect((await flush(baseURL as string)).status).toBe(200);
    expect((await records(lead.mail)).attempts.length).toBe(refused);
    expect(await alertsAbout(lead.mail)).toHaveLength(1);
  });

  test('the flush without the secret, or with a wrong one, answers 401 and sends nothing', async ({ page, baseURL }) => {
    const { lead } = await sendWhile(page, [{ status: 503 }], 'secret');
    await waitForAlerts(lead.mail, 1);
    await setScenario(lead.mail, [{ success: true }]);
    const before = (await records(lead.mail)).attempts.length;
    for (const authorization of [
      null,
      'Bearer ',
      'Bearer wrong-secret',
      `Bearer ${E2E_CONFIG.cronSecret}x`,
      `Basic ${E2E_CONFIG.cronSecret}`,
      E2E_CONFIG.cronSecret,
    ]) {
      const answer = await flush(baseURL as string, authorization);
      expect([authorization, answer.status]).toEqual([authorization, 401]);
      expect(answer.body).toEqual({ error: 'no autorizado' });
    }
    expect((await records(lead.mail)).attempts.length).toBe(before);
    // With the secret, it goes.
    await flushUntilStored(baseURL as string, lead.mail);
  });
});
