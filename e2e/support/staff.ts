import { expect, type Page } from '@playwright/test';
import { readRawMail } from '../../test-support/raw-mail';
import { SMTP_URL } from './test-env';

/** The staff area's settings for a test server: these addresses may sign in. */
export const staffEnv = (emails: string[]) => ({
  STAFF_EMAILS: emails.join(', '),
  STAFF_SESSION_SECRET: 'secreto-de-las-sesiones-del-equipo-e2e-0123456789',
});

export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Mail = { to: string[]; raw: string };
export const mails = async () => (await (await fetch(`${SMTP_URL}/__mails`)).json()) as Mail[];

/**
 * The sign-in link mailed to `staff` after the sink held `after` mails, that no step has used yet. The sink keeps
 * every mail of the run, and a retried test runs in a new worker that has used nothing: only mails sent after its
 * request count, or it would follow the link its failed attempt asked for, from another browser.
 */
const used = new Set<string>();
export async function newLinkFor(staff: string, after: number): Promise<string> {
  const fresh = async () => (await linksTo(staff, after)).find((link) => !used.has(link)) ?? '';
  await expect.poll(fresh, { timeout: 20_000 }).not.toBe('');
  const link = await fresh();
  used.add(link);
  return link;
}

/** The sign-in links mailed to `staff`, oldest first: all of them, or those after the sink's first `after` mails. */
export async function linksTo(staff: string, after = 0): Promise<string[]> {
  return (await mails())
    .slice(after)
    .filter((mail) => mail.to.includes(staff))
    .map(
      (mail) =>
        readRawMail(mail.raw).text.match(/https?:\/\/\S+\/equipo\/entrar\?t=\S+/)?.[0] ?? '',
    )
    .filter(Boolean);
}

/** Asks for a link on the sign-in page, as a person does; the answer it shows. */
export async function askForLink(page: Page, site: string, staff: string): Promise<string> {
  await page.goto(`${site}/equipo`);
  await page.getByLabel('Correo del equipo').fill(staff);
  await pause(1000);
  await page.getByRole('button', { name: 'Enviarme un enlace' }).click();
  const said = page.getByRole('status');
  await expect(said).toHaveText(/le enviamos un enlace|Demasiadas solicitudes/);
  return (await said.textContent()) ?? '';
}

/** Signs `staff` in at `site` as a person does: the form, a pause, the e-mailed link. */
export async function signIn(page: Page, site: string, staff: string) {
  const before = (await mails()).length;
  expect(await askForLink(page, site, staff)).toContain('le enviamos un enlace');
  await page.goto(await newLinkFor(staff, before));
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes' })).toBeVisible();
}
