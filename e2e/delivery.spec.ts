import type { Page } from '@playwright/test';
import {
  expect,
  stayOnThankYouView,
  test,
  timeContactAction,
  waitForFormScript,
} from './support/fixtures';
import { runsFor } from './support/leads';
import { alertsAbout, keyIn, waitForAlerts } from './support/alerts';
import { records, setScenario, uniqueMail, type StubStep } from './support/stub';
import { E2E_CONFIG } from './support/test-env';

/*
 * What the API does not take live, the lead's workflow delivers later, by
 * itself: no flush, no scheduler, no other visitor (the servers wait
 * CONTACT_OUTBOX_BACKOFF_SECONDS=3 between rounds).
 */

/** Fills the form as a new lead while the API answers `steps`; resolves with the wait the visitor saw. */
async function sendWhile(page: Page, steps: StubStep[], tag: string) {
  const lead = {
    name: `Lucía Entrega ${tag}`,
    mail: uniqueMail(`delivery-${tag}`),
    phone: '5511223344',
    reason: 'Quiero vender más en línea.',
  };
  await setScenario(lead.mail, steps);
  await stayOnThankYouView(page);
  await page.goto('/');
  await waitForFormScript(page);
  const form = page.locator('#contacto form');
  for (const [name, value] of Object.entries(lead))
    await form.locator(`[name="${name}"]`).fill(value);
  const waited = timeContactAction(page);
  await form.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible({
    timeout: 15_000,
  });
  return { lead, waited: await waited };
}

test.describe("the lead's workflow", () => {
  for (const [fault, steps] of [
    ['is down (503)', [{ status: 503 }]],
    ['hangs', [{ hang: true }]],
  ] as const) {
    test(`the API ${fault}: thanked all the same, the agency alerted once, delivered once with the same key when it is back`, async ({
      page,
    }) => {
      test.setTimeout(90_000);
      const { lead, waited } = await sendWhile(page, [...steps], fault.split(' ')[0] ?? 'x');
      // Thanked while the API had taken nothing (a hanging one never answers): the action answered on its own
      // deadline. That it does so within the form's 4 s is lib/contact/actions.test.ts's to prove, where no other
      // process's load is counted; here the time is a figure, not a check (CI run 17 measured 4,350 ms on a busy
      // machine, from the browser's side).
      expect((await records(lead.mail)).stored).toHaveLength(0);
      test.info().annotations.push({ type: 'figures', description: `thanked after ${waited} ms` });

      const [alert] = await waitForAlerts(lead.mail, 1);
      expect(alert?.envelopeTo).toEqual([E2E_CONFIG.alertTo]);
      expect(alert?.subject).toBe(`Solicitud de contacto pendiente de entrega: ${lead.name}`);
      // The reason is quoted under its heading, so none of its lines can pass for the template's.
      for (const line of [
        `Nombre: ${lead.name}`,
        `Teléfono: ${lead.phone}`,
        `Motivo:\n> ${lead.reason}`,
      ])
        expect(alert?.text).toContain(line);
      const key = alert && keyIn(alert);
      expect(key).toMatch(/^[0-9a-f-]{36}$/);

      // The API comes back: the workflow's next round delivers it, on its own.
      await setScenario(lead.mail, [{ success: true }]);
      await expect
        .poll(async () => (await records(lead.mail)).stored.length, { timeout: 45_000 })
        .toBe(1);
      const { attempts, stored } = await records(lead.mail);
      expect(stored).toEqual([
        {
          key,
          enquiry: expect.objectContaining({ name: lead.name, mail: lead.mail, phone: lead.phone }),
        },
      ]);
      expect(new Set(attempts.map((a) => a.idempotencyKey))).toEqual(new Set([key]));
      // Delivered: the engine forgets it at once, as the privacy notice says.
      await expect.poll(() => runsFor(lead.mail), { timeout: 20_000 }).toEqual([]);

      // Nothing more is sent, and the agency was told once.
      const settled = attempts.length;
      await page.waitForTimeout(5000);
      expect((await records(lead.mail)).attempts.length).toBe(settled);
      expect(await alertsAbout(lead.mail)).toHaveLength(1);
    });
  }

  test('a later round the API refuses ends the run as a dead letter, with no second e-mail: one per lead', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const { lead } = await sendWhile(page, [{ status: 503 }], 'refused');
    await waitForAlerts(lead.mail, 1);
    // An API that verifies reCAPTCHA refuses a token older than 2 minutes.
    await setScenario(lead.mail, [{ status: 400, mes: 'El token de captcha expiró' }]);
    await expect
      .poll(() => runsFor(lead.mail).map((run) => run.outcome?.outcome), { timeout: 45_000 })
      .toEqual(['dead']);
    expect(runsFor(lead.mail)[0]?.outcome).toMatchObject({
      reason: 'refused',
      refusal: 'El token de captcha expiró',
    });

    // A dead letter is never sent again, and the agency, told once already, is not told twice.
    await setScenario(lead.mail, [{ success: true }]);
    const refused = (await records(lead.mail)).attempts.length;
    await page.waitForTimeout(5000);
    expect((await records(lead.mail)).attempts.length).toBe(refused);
    expect((await records(lead.mail)).stored).toHaveLength(0);
    expect(await alertsAbout(lead.mail)).toHaveLength(1);
  });
});
