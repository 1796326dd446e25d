import type { Page } from '@playwright/test';
import {
  expect,
  stayOnThankYouView,
  test,
  timeContactAction,
  waitForFormScript,
} from './support/fixtures';
import { records, setScenario, uniqueMail, type StubStep } from './support/stub';

/**
 * The action must answer within 9 s whatever the contact API does (Vercel's limit is 10 s): far from its own
 * deadlines, so that a busy machine cannot pass for a fault. That the visitor is thanked within the form's 4 s when
 * the engine holds the lead is lib/contact/actions.test.ts's to prove, where no other process's load is counted.
 */
const ACTION_DEADLINE_MS = 9000;

type Expected = { sees: RegExp; attempts: number | [number, number]; stored: number };
/**
 * With the engine, an API that gives no usable answer no longer costs the
 * lead: the visitor is thanked and the lead's workflow delivers later. The retry in
 * after() may already be adding attempts while the test reads them.
 */
const KEPT: Expected = { sees: /gracias por contactarnos/i, attempts: [1, 8], stored: 0 };

const scenarios: Array<{
  name: string;
  steps: StubStep[];
  expected: Expected;
  withOutbox?: Expected;
}> = [
  {
    name: 'drops every connection',
    steps: [{ destroy: true }],
    expected: { sees: /no pudimos enviar/i, attempts: 4, stored: 0 },
    withOutbox: KEPT,
  },
  {
    name: 'hangs without answering',
    steps: [{ hang: true }],
    expected: { sees: /no pudimos enviar/i, attempts: [1, 2], stored: 0 },
    withOutbox: KEPT,
  },
  {
    name: 'answers slowly but within the deadline',
    steps: [{ delayMs: 2000, success: true }],
    expected: { sees: /gracias por contactarnos/i, attempts: 1, stored: 1 },
  },
  {
    name: 'answers 503 on every attempt',
    steps: [{ status: 503 }],
    expected: { sees: /no pudimos enviar/i, attempts: 4, stored: 0 },
    withOutbox: KEPT,
  },
  {
    name: 'answers 503 then success',
    steps: [{ status: 503 }, { success: true }],
    expected: { sees: /gracias por contactarnos/i, attempts: 2, stored: 1 },
  },
  {
    name: 'answers success: false with a mes',
    steps: [{ success: false, mes: 'Ya recibimos una solicitud con este correo hoy.' }],
    expected: { sees: /ya recibimos una solicitud con este correo hoy/i, attempts: 1, stored: 0 },
  },
  {
    name: 'answers a 4xx with a mes',
    steps: [{ status: 400, mes: 'Token de captcha vencido, intenta de nuevo.' }],
    expected: { sees: /token de captcha vencido/i, attempts: 1, stored: 0 },
  },
  {
    name: 'answers HTML instead of JSON',
    steps: [{ status: 200, raw: '<!doctype html><h1>Mantenimiento</h1>' }],
    expected: { sees: /no pudimos enviar/i, attempts: 1, stored: 0 },
    withOutbox: KEPT,
  },
  {
    name: 'answers truncated JSON',
    steps: [{ status: 200, raw: '{"success": true, "mes": "Recib' }],
    expected: { sees: /no pudimos enviar/i, attempts: 1, stored: 0 },
    withOutbox: KEPT,
  },
  {
    name: 'answers a 10 MB body',
    steps: [{ status: 200, bytes: 10 * 1024 * 1024 }],
    expected: { sees: /no pudimos enviar/i, attempts: 1, stored: 0 },
    withOutbox: KEPT,
  },
];

async function submit(page: Page, values: Record<string, string>) {
  const form = page.locator('#contacto form');
  for (const [name, value] of Object.entries(values))
    await form.locator(`[name="${name}"]`).fill(value);
  await form.getByRole('button', { name: /enviar/i }).click();
}

test.describe('contact API faults', () => {
  for (const scenario of scenarios) {
    const { name, steps } = scenario;
    // Run again by the outbox-off project where the engine changes the outcome.
    test(
      `the contact API ${name}`,
      { tag: scenario.withOutbox ? '@engine' : [] },
      async ({ page, outbox }) => {
        test.setTimeout(40_000);
        const expected =
          outbox === 'auto' ? (scenario.withOutbox ?? scenario.expected) : scenario.expected;
        const values = {
          name: 'Ana Fallas',
          mail: uniqueMail('fault'),
          phone: '5512345678',
          reason: 'Quiero más clientes este mes.',
        };
        await setScenario(values.mail, steps);
        await stayOnThankYouView(page);
        await page.goto('/');
        await waitForFormScript(page);

        const waited = timeContactAction(page);
        await submit(page, values);
        const shown = expected.sees.source.includes('gracias')
          ? page.getByRole('heading', { name: expected.sees })
          : page.locator('#contacto form').getByRole('status');
        await expect(shown).toContainText(expected.sees, { timeout: 15_000 });
        const took = await waited;
        expect(took).toBeGreaterThan(0);
        const { attempts, stored } = await records(values.mail);
        const [min, max] = Array.isArray(expected.attempts)
          ? expected.attempts
          : [expected.attempts, expected.attempts];
        expect(attempts.length).toBeGreaterThanOrEqual(min);
        expect(attempts.length).toBeLessThanOrEqual(max);
        expect(new Set(attempts.map((a) => a.idempotencyKey)).size).toBe(1);
        expect(stored).toHaveLength(expected.stored);
        expect(took).toBeLessThan(ACTION_DEADLINE_MS);
        if (expected.stored === 0 && expected !== KEPT) {
          for (const [field, value] of Object.entries(values)) {
            await expect(page.locator(`#contacto [name="${field}"]`)).toHaveValue(value);
          }
        }
        // Held by the engine: let its next round deliver it instead of retrying a fault for a day.
        if (expected === KEPT) await setScenario(values.mail, [{ success: true }]);
        test.info().annotations.push({
          type: 'figures',
          description: `${name}: ${attempts.length} attempt(s), ${took} ms`,
        });
        console.log(
          `[fault] ${name}: visitor sees ${expected.sees}; ${attempts.length} attempt(s); action ${took} ms; stored ${stored.length}`,
        );
      },
    );
  }
});
