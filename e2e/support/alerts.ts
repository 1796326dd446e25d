import { expect } from '@playwright/test';
import { readRawMail, type RawMail } from '../../test-support/raw-mail';
import { SMTP_URL } from './test-env';

/** The alert e-mails the agency received about the lead with this e-mail address. */
export async function alertsAbout(
  mail: string,
): Promise<Array<RawMail & { envelopeTo: string[] }>> {
  const all = (await (await fetch(`${SMTP_URL}/__mails`)).json()) as Array<{
    to: string[];
    raw: string;
  }>;
  return all
    .map(({ to, raw }) => ({ ...readRawMail(raw), envelopeTo: to }))
    .filter((m) => m.text.includes(`Correo: ${mail}`));
}

/** Waits for the n-th alert about this lead (the server sends it after answering the visitor). */
export async function waitForAlerts(mail: string, count: number, timeout = 20_000) {
  await expect
    .poll(async () => (await alertsAbout(mail)).length, { timeout })
    .toBeGreaterThanOrEqual(count);
  return alertsAbout(mail);
}

/** The key an alert names (Clave: ...). */
export const keyIn = (alert: RawMail) => alert.text.match(/Clave: ([0-9a-f-]{36})/)?.[1];
