import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { ROOT } from '../test-support/harness';
import { startPostgres, type Postgres } from '../test-support/postgres';
import { expect, reachOurServers, test } from './support/fixtures';
import { sendAsPersonWithoutScripts } from './support/form-post';
import { runsFor } from './support/leads';
import { startServer } from './support/server';
import { askForLink, linksTo, pause, signIn } from './support/staff';
import { records, uniqueMail } from './support/stub';
import { DATA_DIR, E2E_BUILD_ENV, STAFF_PORTS } from './support/test-env';

/*
 * A staff member's day in /equipo, in a real browser, on the local world and on two servers sharing one PostgreSQL:
 * sign in from the e-mailed link, find a person the spam filter held back, deliver them (the contact API receives
 * them once), export the list, forget another person, sign out. The person waits between steps as people do.
 */
test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

const SECRET = 'secreto-de-las-sesiones-del-equipo-e2e-0123456789';
const staffOf = (world: string) => `equipo-${world}@agencia.e2e.test`;
const STAFF_ENV = {
  STAFF_EMAILS: ['local', 'pg', 'proxy', 'reinicio'].map(staffOf).join(', '),
  STAFF_SESSION_SECRET: SECRET,
};
const env = (name: string, port: number) => ({
  ...E2E_BUILD_ENV,
  ...STAFF_ENV,
  NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
  CONTACT_INBOX_DIR: `${DATA_DIR}/staff-${name}`,
});
// The local world's server stands behind one proxy of ours, as a self-hosted one should: the client is the last
// X-Forwarded-For entry, which the proxy writes (here the test writes it for the strangers; Next for the browser).
const LOCAL_ENV = () => ({ ...env('local', STAFF_PORTS[0]), TRUST_PROXY_HEADERS: '1' });
const LOCAL_LOG = 'e2e/.server-staff-local.log';

let postgres: Postgres | undefined;
const servers: Array<{ url: string; kill: () => void }> = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  postgres = await startPostgres();
  const shared = {
    WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
    WORKFLOW_POSTGRES_URL: postgres.url,
    CONTACT_FORM_SECRET: 'secreto-del-formulario-compartido-0123456789',
  };
  const [local, first, second] = STAFF_PORTS;
  servers.push(
    ...(await Promise.all([
      startServer(local, LOCAL_ENV(), LOCAL_LOG),
      startServer(first, { ...env('pg1', first), ...shared }, 'e2e/.server-staff-pg1.log'),
      startServer(second, { ...env('pg2', second), ...shared }, 'e2e/.server-staff-pg2.log'),
    ])),
  );
});
test.afterAll(async () => {
  for (const server of servers) server.kill();
  await postgres?.stop();
});

/** A person the spam filter holds back: a web address in the name is one of its rules. */
async function heldBack(request: APIRequestContext, site: string, tag: string) {
  const person = {
    name: `Ana ${tag} www.floreria-ana.mx`,
    mail: uniqueMail(`equipo-${tag}`),
    // A number of its own: the page shows the agency's, which a shared test number could match.
    phone: `33${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`,
    reason: `Quiero vender flores en línea (${tag}).`,
  };
  const answer = await sendAsPersonWithoutScripts(request, site, person);
  expect(answer.kind).toBe('thanks');
  return person;
}

/** Odd lists and cursors with a session: the lists (maybe an empty page of them), or the CSV, never a 500. */
async function oddListsAnswerPlainly(page: Page, site: string) {
  const answers: string[] = [];
  for (const query of [
    'lista=__proto__',
    'lista=spam&desde=%00',
    'lista=dead&desde=no-es-un-cursor',
    'lista=pending&desde=9999-99-99T99:99:99.999Z|x',
    `lista=spam&desde=${'z'.repeat(4000)}`,
    'lista=spam&lista=dead&desde=a&desde=b',
  ]) {
    const answer = await page.request.get(`${site}/equipo?${query}`, { maxRedirects: 0 });
    const listed = (await answer.text()).includes('Solicitudes');
    answers.push(`${answer.status()} ${listed ? 'lists' : 'no lists'} ${query.slice(0, 60)}`);
  }
  for (const query of ['lista=__proto__', 'lista=%00', 'lista=dead&lista=spam'])
    answers.push(
      `${(await page.request.get(`${site}/equipo/exportar?${query}`)).status()} CSV ${query}`,
    );
  expect(answers.filter((answer) => !/^200 (lists|CSV)/.test(answer))).toEqual([]);
}

const WORLDS = [
  { name: 'the local world', staff: staffOf('local'), signInAt: 0, workAt: 0 },
  { name: 'two servers sharing one PostgreSQL', staff: staffOf('pg'), signInAt: 1, workAt: 2 },
];

for (const world of WORLDS) {
  test(`a staff member's day on ${world.name}`, async ({ page, request }) => {
    const signInSite = servers[world.signInAt]?.url ?? '';
    const site = servers[world.workAt]?.url ?? '';
    await reachOurServers(page);
    const spam = await heldBack(request, site, 'entregar');
    const other = await heldBack(request, site, 'olvidar');

    await signIn(page, signInSite, world.staff);
    await oddListsAnswerPlainly(page, site);
    // The session is the site's, not one server's: the other server of the pair reads the same cookie.
    await page.goto(`${site}/equipo?lista=spam`);
    const row = page.getByRole('listitem').filter({ hasText: spam.mail });
    await expect(row).toContainText(spam.name);
    await expect(row).toContainText('El nombre contiene una dirección web');
    await expect(row).toContainText(/Se descarta el \d{4}-\d\d-\d\d/);

    // Delivered once, as any lead. A run that has not reached its wait yet says so: the person tries again.
    await pause(1500);
    const said = page.getByRole('status').filter({ hasText: 'Solicitud' });
    for (let tries = 1; ; tries += 1) {
      await row.getByRole('button', { name: 'Entregar' }).click();
      await expect(said).toContainText(/liberada|aún no empieza/);
      if ((await said.textContent())?.includes('liberada')) break;
      expect(tries).toBeLessThan(5);
      await pause(2000);
    }
    await expect
      .poll(async () => (await records(spam.mail)).stored.length, { timeout: 30_000 })
      .toBe(1);

    // The list as CSV, for Excel: UTF-8 with its BOM.
    await page.goto(`${site}/equipo?lista=spam`);
    await pause(1000);
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Exportar CSV' }).click();
    const csv = readFileSync((await (await download).path()) ?? '', 'utf8');
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv).toContain(other.mail);

    // Forgotten: gone from every list, and the page says what it could not reach.
    await page.getByLabel('Correo de la persona').fill(other.mail);
    await pause(1500);
    await page.getByRole('button', { name: 'Olvidar' }).click();
    await expect(page.getByRole('status').filter({ hasText: other.mail })).toContainText('borrada');
    await page.goto(`${site}/equipo?lista=spam`);
    await expect(page.getByText(other.mail)).toHaveCount(0);
    expect((await records(spam.mail)).stored).toHaveLength(1);
    expect((await records(other.mail)).attempts).toHaveLength(0);

    // Signed out: that cookie opens nothing any more, on either server.
    const cookies = await page.context().cookies();
    await page.getByRole('button', { name: 'Salir' }).click();
    await expect(page.getByLabel('Correo del equipo')).toBeVisible();
    await page.context().addCookies(cookies);
    for (const server of new Set([signInSite, site])) {
      await page.goto(`${server}/equipo?lista=spam`);
      await expect(page.getByLabel('Correo del equipo')).toBeVisible();
      await expect(page.getByText(spam.mail)).toHaveCount(0);
    }
  });
}

/*
 * Every door of the build, tried without a session, as a script would: each route the build serves (its own, the
 * framework's, the engine's) with GET and POST, and each Server Action by its id on each page that has it. None may
 * answer with any part of a seeded lead; and the actions that act on leads must not have acted.
 */
test('with no session, no route or action of the site gives away a held lead, or acts on it', async ({
  request,
}) => {
  const site = servers[0]?.url ?? '';
  const person = await heldBack(request, site, 'puertas');
  const secrets = [person.name, person.mail, person.phone, person.reason];
  await expect.poll(() => runsFor(person.mail, 'staff-local').length, { timeout: 20_000 }).toBe(1);
  const key = runsFor(person.mail, 'staff-local')[0]?.lead.key ?? '';

  const routes = JSON.parse(
    readFileSync(path.join(ROOT, '.next/app-path-routes-manifest.json'), 'utf8'),
  ) as Record<string, string>;
  const paths = [...new Set(Object.values(routes))].map((route) =>
    route.replace(/\[[^\]]+\]/g, 'x'),
  );
  paths.push(
    '/equipo/exportar?lista=spam',
    '/equipo/exportar?lista=dead',
    '/equipo/exportar?lista=pending',
  );
  paths.push(
    `/equipo/entrar?t=${key}`,
    '/equipo?lista=spam',
    '/equipo?lista=dead',
    '/equipo?lista=pending',
  );
  const leaks: string[] = [];
  const check = (what: string, body: string) => {
    for (const secret of secrets) if (body.includes(secret)) leaks.push(`${what}: ${secret}`);
  };
  for (const route of paths) {
    const get = await request.get(`${site}${route}`, { maxRedirects: 0 });
    check(`GET ${route}`, await get.text());
    const post = await request.post(`${site}${route}`, {
      form: { correo: person.mail, clave: key },
      maxRedirects: 0,
    });
    check(`POST ${route}`, await post.text());
  }

  const manifest = JSON.parse(
    readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8'),
  ) as {
    node: Record<string, { workers: Record<string, unknown>; exportedName: string }>;
  };
  const pageOf = (worker: string) => routes[worker.replace(/^app/, '')] ?? '/';
  let actions = 0;
  // Each action as a browser's own form post names it (the id as a field), so it runs, and by the header a script
  // would use. The area's guarded actions must answer by sending back to sign-in: they ran, and stopped at the guard.
  const guarded = ['releaseSpam', 'forgetPerson'];
  const bounced: string[] = [];
  for (const [id, { workers, exportedName }] of Object.entries(manifest.node)) {
    for (const worker of Object.keys(workers)) {
      const page = pageOf(worker);
      for (const asForm of [true, false]) {
        const form = new FormData();
        if (asForm) form.set(`$ACTION_ID_${id}`, '');
        form.set('correo', person.mail);
        form.set('clave', key);
        const answer = await fetch(`${site}${page}`, {
          method: 'POST',
          headers: { Origin: site, ...(asForm ? {} : { 'Next-Action': id }) },
          body: form,
          redirect: 'manual',
        });
        check(`action ${exportedName} on ${page}`, await answer.text());
        const to = answer.headers.get('location') ?? answer.headers.get('x-action-redirect') ?? '';
        if (asForm && guarded.includes(exportedName) && to.startsWith('/equipo'))
          bounced.push(exportedName);
        actions += 1;
      }
    }
  }
  expect([...new Set(bounced)].sort()).toEqual(guarded.sort());
  expect(actions).toBeGreaterThanOrEqual(5);
  expect(paths.length).toBeGreaterThanOrEqual(20);
  expect(leaks).toEqual([]);
  // Still held, neither released nor forgotten, and never sent to the contact API.
  const [run] = runsFor(person.mail, 'staff-local');
  expect(run?.lead.spamRule).toBeTruthy();
  expect(['running', 'pending']).toContain(run?.status);
  expect((await records(person.mail)).attempts).toHaveLength(0);
});

/*
 * A page of another site, open in a signed-in staff member's browser, posts the area's own action: Next refuses a
 * Server Action whose Origin is not the site's, and the session cookie (SameSite=Lax) would not go with a cross-site
 * post anyway. The same request from the site's own origin is the control: it does release.
 */
test('another site cannot make a signed-in browser act', async ({ page, request }) => {
  const site = servers[0]?.url ?? '';
  await reachOurServers(page);
  const person = await heldBack(request, site, 'origen');
  await expect
    .poll(() => runsFor(person.mail, 'staff-local')[0]?.status ?? '', { timeout: 20_000 })
    .toBe('running');
  const key = runsFor(person.mail, 'staff-local')[0]?.lead.key ?? '';
  await signIn(page, site, staffOf('local'));
  const manifest = JSON.parse(
    readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8'),
  ) as {
    node: Record<string, { exportedName: string }>;
  };
  const id =
    Object.entries(manifest.node).find(
      ([, action]) => action.exportedName === 'releaseSpam',
    )?.[0] ?? '';
  // As the browser posts the area's form without scripts: the action's id as a field, the lead's key beside it.
  const post = (origin: string) =>
    page.request.post(`${site}/equipo`, {
      headers: { Origin: origin },
      multipart: { [`$ACTION_ID_${id}`]: '', clave: key },
      maxRedirects: 0,
    });
  const foreign = await post('https://otro-sitio.example');
  expect(foreign.status()).toBeGreaterThanOrEqual(400);
  await pause(2000);
  expect((await records(person.mail)).attempts).toHaveLength(0);
  expect(runsFor(person.mail, 'staff-local')[0]?.lead.spamRule).toBeTruthy();
  // The control: the site's own origin releases it.
  await post(site);
  await expect
    .poll(async () => (await records(person.mail)).stored.length, { timeout: 30_000 })
    .toBe(1);
});

/*
 * Bad input anywhere in the area, with or without a session, gets a plain answer: a word looked up that is no
 * message (prototype names), links and cookies cut, forged or sealed with another secret, odd lists and cursors.
 */
const SEALED_JUNK = [
  'Fe26.1*a*b*c*d*e*f*g',
  'Fe26.2*1*a*b*c*d*e*f~2',
  'Fe26.2**b*c*d*e*f*g',
  '*******~',
];
const paramsOfNoSense = [
  ...['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'invalid&enlace=used'].map(
    (word) => `enlace=${word}`,
  ),
  'lista=__proto__&desde=%00',
  'aviso=constructor&clave=__proto__',
  'salida=%FF&lista=%E0%A4%A',
];

test('bad input in the staff area gets a plain answer, never a 500', async ({ request }) => {
  const site = servers[0]?.url ?? '';
  const answers: string[] = [];
  const wrong: string[] = [];
  const get = async (
    route: string,
    expected: (body: string, location: string) => boolean,
    cookie?: string,
  ) => {
    const answer = await request.get(`${site}${route}`, {
      maxRedirects: 0,
      headers: cookie ? { cookie } : {},
    });
    const said = `${answer.status()} ${route.slice(0, 80)}${cookie ? ` (cookie ${cookie.slice(0, 40)})` : ''}`;
    answers.push(said);
    if (!expected(await answer.text(), answer.headers().location ?? '')) wrong.push(said);
  };
  const signInPage = (body: string) => body.includes('Correo del equipo');
  const linkRefused = (_: string, location: string) => location.includes('enlace=invalid');
  for (const params of paramsOfNoSense) await get(`/equipo?${params}`, signInPage);
  for (const token of [...SEALED_JUNK, '%00', 'x'.repeat(3000)])
    await get(`/equipo/entrar?t=${encodeURIComponent(token)}`, linkRefused);
  for (const value of SEALED_JUNK) {
    const cookie = ['equipo_sesion', 'equipo_conocido', 'equipo_pendiente']
      .map((n) => `${n}=${value}`)
      .join('; ');
    await get('/equipo', signInPage, cookie);
    await get('/equipo/exportar?lista=dead', (body) => !body.includes('Nombre'), cookie);
    await get(`/equipo/entrar?t=${encodeURIComponent(value)}`, linkRefused, cookie);
  }
  await get('/equipo/exportar?lista=__proto__&lista=%00', () => true);
  // Salir, by its action's id, with those cookies: the browser is signed out, whatever it carried.
  const manifest = JSON.parse(
    readFileSync(path.join(ROOT, '.next/server/server-reference-manifest.json'), 'utf8'),
  ) as {
    node: Record<string, { exportedName: string }>;
  };
  const leave =
    Object.entries(manifest.node).find(([, action]) => action.exportedName === 'leave')?.[0] ?? '';
  for (const value of SEALED_JUNK) {
    const answer = await request.post(`${site}/equipo`, {
      headers: { Origin: site, cookie: `equipo_sesion=${value}` },
      multipart: { [`$ACTION_ID_${leave}`]: '' },
      maxRedirects: 0,
    });
    answers.push(`${answer.status()} Salir (cookie ${value})`);
  }
  expect(answers.filter((line) => Number(line.slice(0, 3)) >= 500)).toEqual([]);
  expect(wrong).toEqual([]);
});

/*
 * Done when: behind a proxy, after 6 link requests from other addresses in a staff member's name, the browser they
 * signed in with before still gets its link by mail, and it works.
 */
test("strangers asking for links in a staff member's name do not keep out the browser they signed in with", async ({
  page,
  browser,
}) => {
  const site = servers[0]?.url ?? '';
  const staff = staffOf('proxy');
  await reachOurServers(page);
  await signIn(page, site, staff);
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page.getByLabel('Correo del equipo')).toBeVisible();

  // Six strangers, each from an address of its own (the proxy's X-Forwarded-For), ask in that person's name.
  const strangers: string[] = [];
  for (let i = 0; i < 6; i++) {
    const context = await browser.newContext({
      extraHTTPHeaders: { 'x-forwarded-for': `198.51.100.${i + 1}` },
    });
    strangers.push(await askForLink(await context.newPage(), site, staff));
    await context.close();
  }
  expect(strangers.at(-1)).toContain('Demasiadas solicitudes');
  // What they had sent is in the inbox before the person asks: the link they get is theirs.
  const sent = strangers.filter((said) => said.includes('le enviamos')).length;
  await expect.poll(async () => (await linksTo(staff)).length, { timeout: 20_000 }).toBe(1 + sent);

  await signIn(page, site, staff);
  await expect(page.getByText(staff)).toBeVisible();
});

/*
 * A signed-in page shows only the site's own words, and after Salir a copy of the cookie opens nothing, even once
 * the server restarts (the local world: one machine, which keeps what must outlive it in its data folder).
 */
test("a signed-in page shows only the site's words, and Salir holds across a restart", async ({
  page,
}) => {
  const site = servers[0]?.url ?? '';
  await reachOurServers(page);
  await signIn(page, site, staffOf('reinicio'));

  const words = 'Llame al 55 1234 5678 para reactivar su cuenta';
  for (const query of [
    `aviso=${encodeURIComponent(words)}`,
    `aviso=liberada&clave=${encodeURIComponent(words)}`,
    `lista=spam&aviso=${encodeURIComponent(words)}&clave=0b0c5f3e-7a51-4c1e-9a0f-2f7c1b9d8e61`,
  ]) {
    await page.goto(`${site}/equipo?${query}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes' })).toBeVisible();
    await expect(page.getByText('Llame al 55')).toHaveCount(0);
  }

  const cookies = await page.context().cookies();
  await page.getByRole('button', { name: 'Salir' }).click();
  await expect(page.getByLabel('Correo del equipo')).toBeVisible();
  servers[0]?.kill();
  servers[0] = await startServer(STAFF_PORTS[0], LOCAL_ENV(), LOCAL_LOG);
  await page.context().addCookies(cookies);
  await page.goto(`${site}/equipo?lista=spam`);
  await expect(page.getByLabel('Correo del equipo')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Solicitudes' })).toHaveCount(0);
});
