import { expect, type Page } from '@playwright/test';
import { readRawMail } from '../../test-support/raw-mail';
import { SMTP_URL } from './test-env';

/** The staff area's settings for a test server: these addresses may sign in. */
export const staffEnv = (emails: string[]) => ({
  STAFF_EMAILS: emails.join(', '),
  STAFF_SESSION_SECRET: 'secreto-de-las-sesiones-del-equipo-e2e-0123456789',
});

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The sign-in link mailed to `staff` that no step has used yet (the mail sink keeps every mail of the run). */
const used = new Set<string>();
async function newLinkFor(staff: string): Promise<string> {
  const fresh = async () => {
    const all = (await (await fetch(`${SMTP_URL}/__mails`)).json()) as Array<{
      to: string[];
      raw: string;
    }>;
    const links = all
      .filter((mail) => mail.to.includes(staff))
      .map(
        (mail) =>
          readRawMail(mail.raw).text.match(/https?:\/\/\S+\/equipo\/entrar\?t=\S+/)?.[0] ?? '',
      );
    return links.find((link) => link && !used.has(link)) ?? '';
  };
  await expect.poll(fresh, { timeout: 20_000 }).not.toBe('');
  const link = await fresh();
  used.add(link);
  return link;
}

/** Signs `staff` in at `site` as a person does: the form, a pause, the e-mailed link. */
export async function signIn(page: Page, site: string, staff: string) {
  await page.goto(`${site}/equipo`);
  await page.getByLabel('Correo del equipo').fill(staff);
  await pause(1000);
  await page.getByRole('button', { name: 'Enviarme un enlace' }).click();
  await expect(page.getByRole('status')).toContainText('le enviamos un enlace');
  await page.goto(await newLinkFor(staff));
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes' })).toBeVisible();
}
