import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { buildApp, ROOT, startNext, type Server } from '../test-support/harness';
import { startPostgres, type Postgres } from '../test-support/postgres';
import {
  EXPERIMENT,
  EXPERIMENTS_APP,
  EXPERIMENTS_DATA,
  EXPERIMENTS_ENV,
  EXPERIMENTS_PG_PORTS,
  EXPERIMENTS_PORT,
  EXPERIMENTS_URL,
  SPLIT,
  SUBMIT_B,
  WORDS,
  type VariantId,
} from './support/experiments-app';
import { expect, reachOurServers, stayOnThankYouView, test } from './support/fixtures';
import { expectCssOnce } from './support/css-once';
import {
  bodyOf,
  formControls,
  postForm,
  readAgain,
  readAndWrite,
  sendAsPersonWithoutScripts,
} from './support/form-post';
import { standInGtag } from './support/gtag';
import { runsFor } from './support/leads';
import { signIn, staffEnv } from './support/staff';
import { records, setScenario, uniqueMail } from './support/stub';
import { DATA_DIR, E2E_PORT } from './support/test-env';

/*
 * An A/B experiment on a production build (e2e/support/experiments-app.ts: the agency's
 * lib/content-experiments.ts with `portada` running, 50/30/20). Each variant of / is prerendered;
 * the proxy picks the visitor's before the page, keeps it in a cookie, gives crawlers the control
 * and QA the variant it asks for (lib/proxy/experiments.ts). A lead carries its variant to the
 * lead's record, never to the contact API. The counts themselves are the counters store's
 * (lib/experiments/counters.ts); here, whether a view was counted shows in the cookie's day.
 */

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: EXPERIMENTS_URL });

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const VISITOR_COOKIE = 'experimento';
const QA_COOKIE = 'experimento_qa';
const API_DOWN = [{ status: 503 }, { status: 503 }, { status: 503 }, { status: 503 }];

let server: Server | undefined;
let dir = '';

test.beforeAll(async () => {
  // Built by global-setup.ts before any test (up to date here); minutes when a spec runs alone on a changed tree.
  test.setTimeout(15 * 60_000);
  dir = await buildApp(EXPERIMENTS_APP);
  server = await startNext(dir, {
    port: EXPERIMENTS_PORT,
    env: EXPERIMENTS_ENV,
    log: 'e2e/.server-experiments.log',
  });
});
test.afterAll(async () => {
  await server?.stop();
});

type View = {
  status: number;
  html: string;
  cookies: Record<string, string>;
  cacheControl: string | null;
};

/** A page view as a program makes it, without scripts: the server's HTML and the cookies it set. */
async function view(
  address: string,
  headers: Record<string, string> = {},
  site = EXPERIMENTS_URL,
): Promise<View> {
  const response = await fetch(`${site}${address}`, {
    headers: { 'user-agent': CHROME, ...headers },
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const cookies = Object.fromEntries(
    response.headers.getSetCookie().map((line) => {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      return [pair.slice(0, at), decodeURIComponent(pair.slice(at + 1))];
    }),
  );
  return {
    status: response.status,
    html: await response.text(),
    cookies,
    cacheControl: response.headers.get('cache-control'),
  };
}

/** The variant whose title the page's h1 has (the page's description keeps the control's words, as it should). */
function variantIn(html: string): VariantId | undefined {
  const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
  return (Object.keys(WORDS) as VariantId[]).find((id) => WORDS[id] === title);
}

/** The variant the visitor cookie keeps (`id.day.portada:b`). */
const keptVariant = (cookie: string | undefined) =>
  cookie?.match(new RegExp(`\\.${EXPERIMENT}:([a-z0-9-]+)`))?.[1];
/** The day the visitor was last counted, 0 for never. */
const countedDay = (cookie: string | undefined) => Number(cookie?.split('.')[1]);

test('a first visit has its variant in the server HTML, with the cookie that keeps it and no shared caching', async () => {
  const first = await view('/');
  expect(first.status).toBe(200);
  const variant = variantIn(first.html);
  expect(variant).toBeDefined();
  expect(keptVariant(first.cookies[VISITOR_COOKIE])).toBe(variant);
  // Counted: the cookie says today.
  expect(countedDay(first.cookies[VISITOR_COOKIE])).toBeGreaterThan(20_000);
  expect(first.cacheControl).toMatch(/^private/);
  // The form posts the variant, for a visitor without JavaScript too.
  expect(formControls(first.html)).toContainEqual(
    expect.objectContaining({
      type: 'hidden',
      name: 'variante',
      value: `${EXPERIMENT}:${variant}`,
    }),
  );
});

test("each variant's page carries its CSS once, as / does", async () => {
  for (const variant of Object.keys(WORDS) as VariantId[]) {
    const page = await view(`/?variante=${variant}`);
    expect(variantIn(page.html)).toBe(variant);
    expectCssOnce(page.html);
  }
});

test('2,000 first visits split within 3 points of 50/30/20', async () => {
  test.setTimeout(5 * 60_000);
  const seen: Record<string, number> = { control: 0, b: 0, c: 0 };
  const mismatched: string[] = [];
  // CI run 17 lost one of the 2,000 to "TypeError: fetch failed", most likely a kept-alive connection the server
  // closed just as it was reused. A browser sends such a GET again by itself; so does this visitor, once, and keeps
  // the cause of each.
  const sentAgain: string[] = [];
  const firstVisit = async () => {
    const get = () =>
      fetch(`${EXPERIMENTS_URL}/`, {
        headers: { 'user-agent': CHROME },
        signal: AbortSignal.timeout(15_000),
      });
    try {
      return await get();
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
      sentAgain.push(String(error.cause ?? error.message));
      return get();
    }
  };
  let next = 0;
  const visitor = async () => {
    while (next < 2000) {
      const index = next++;
      const response = await firstVisit();
      const cookie = response.headers
        .getSetCookie()
        .find((line) => line.startsWith(`${VISITOR_COOKIE}=`));
      const variant = keptVariant(decodeURIComponent(cookie?.split(';')[0] ?? '')) ?? 'none';
      seen[variant] = (seen[variant] ?? 0) + 1;
      // Every 50th page is read whole: its words are its cookie's variant's.
      if (index % 50 === 0) {
        const html = await response.text();
        if (variantIn(html) !== variant) mismatched.push(`${variant}: ${variantIn(html)}`);
      } else await response.body?.cancel();
    }
  };
  await Promise.all(Array.from({ length: 8 }, visitor));
  test.info().annotations.push({ type: 'figures', description: `sent again: ${sentAgain.length}` });
  // Now and then, not as a rule: a server that drops connections fails here.
  expect(sentAgain.length, sentAgain.join('; ')).toBeLessThanOrEqual(10);
  expect(mismatched).toEqual([]);
  expect(seen.none).toBeUndefined();
  for (const id of Object.keys(SPLIT) as VariantId[])
    expect([id, Math.abs((seen[id] ?? 0) / 20 - SPLIT[id]) <= 3, seen[id]]).toEqual([
      id,
      true,
      seen[id],
    ]);
});

test('a returning visitor keeps their variant, and is counted once that day', async () => {
  const first = await view('/');
  const cookie = `${VISITOR_COOKIE}=${first.cookies[VISITOR_COOKIE]}`;
  for (let i = 0; i < 5; i++) {
    const again = await view('/', { cookie });
    expect(variantIn(again.html)).toBe(variantIn(first.html));
    // Already counted today: nothing to write.
    expect(again.cookies).toEqual({});
  }
});

test('a crawler gets the control, no cookie, and is not counted', async () => {
  const crawled = await view('/', { 'user-agent': GOOGLEBOT });
  expect(variantIn(crawled.html)).toBe('control');
  expect(crawled.cookies).toEqual({});
  expect(crawled.cacheControl).toMatch(/^private/);
  const preview = await view('/', { 'user-agent': 'facebookexternalhit/1.1' });
  expect(variantIn(preview.html)).toBe('control');
  expect(preview.cookies).toEqual({});
});

test('?variante= forces a variant for QA: served, not counted, the visitor cookie untouched', async () => {
  const forced = await view('/?variante=b');
  expect(variantIn(forced.html)).toBe('b');
  expect(forced.html).toContain(SUBMIT_B);
  expect(forced.cookies).toEqual({ [QA_COOKIE]: '1' });
  expect(variantIn((await view(`/?variante=${EXPERIMENT}:c`)).html)).toBe('c');
  // A visitor who has a variant keeps it in their cookie.
  const first = await view('/');
  const cookie = `${VISITOR_COOKIE}=${first.cookies[VISITOR_COOKIE]}`;
  const other = variantIn(first.html) === 'c' ? 'b' : 'c';
  const qa = await view(`/?variante=${other}`, { cookie });
  expect(variantIn(qa.html)).toBe(other);
  expect(Object.keys(qa.cookies)).toEqual([QA_COOKIE]);
  expect(variantIn((await view('/', { cookie })).html)).toBe(variantIn(first.html));
});

test("a variant's own address is sent to /, and says it is not to be indexed", async () => {
  const direct = await fetch(`${EXPERIMENTS_URL}/variante/eyJhbGciOiJIUzI1NiJ9.AQ.x-y_z`, {
    redirect: 'manual',
  });
  expect(direct.status).toBe(307);
  expect(direct.headers.get('location')).toBe('/');
  expect(direct.headers.get('x-robots-tag')).toBe('noindex');
});

test('a lead sent without JavaScript carries its variant to the lead, not to the contact API', async ({
  request,
}) => {
  const person = {
    name: 'Rosa Sin Scripts',
    mail: uniqueMail('ab-nojs'),
    phone: '5522334455',
    reason: 'Una tienda.',
  };
  await setScenario(person.mail, API_DOWN);
  const headers = { 'user-agent': CHROME };
  const page = await request.get('/', { headers });
  const variant = variantIn(await page.text());
  await readAndWrite();
  let answer = await postForm(
    request,
    EXPERIMENTS_URL,
    bodyOf(formControls(await page.text()), person),
    headers,
  );
  expect(answer.kind).toBe('confirm');
  // The answer is the visitor's variant again, rendered from the action's state.
  expect(variantIn(answer.html)).toBe(variant);
  await readAgain();
  answer = await postForm(request, EXPERIMENTS_URL, bodyOf(formControls(answer.html), {}), headers);
  expect(answer.kind).toBe('thanks');
  await expectLeadFrom(person.mail, variant);
});

test('a lead sent with JavaScript carries its variant to the lead, and to GA4 and Ads', async ({
  page,
}) => {
  const gtag = await standInGtag(page);
  await stayOnThankYouView(page);
  const person = {
    name: 'Rosa Con Scripts',
    mail: uniqueMail('ab-js'),
    phone: '5522334466',
    reason: 'Una tienda.',
  };
  await setScenario(person.mail, API_DOWN);
  // QA's way in, for a known variant; its lead is tagged, and would not be counted.
  await page.goto('/?variante=b');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(WORDS.b);
  await expect(submitButton(page)).toBeDisabled({ timeout: 20_000 });
  await page.waitForTimeout(500);
  for (const [name, value] of Object.entries(person))
    await page.locator(`#contacto [name="${name}"]`).fill(value);
  await submitButton(page).click();
  await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible({
    timeout: 15_000,
  });
  await expectLeadFrom(person.mail, 'b');
  await expect.poll(() => gtag.named('generate_lead').length).toBe(1);
  expect(gtag.named('generate_lead')[0]?.params).toMatchObject({
    experiment: EXPERIMENT,
    variant: 'b',
  });
  expect(gtag.named('conversion')[0]?.params).toMatchObject({
    experiment: EXPERIMENT,
    variant: 'b',
  });
});

const submitButton = (page: Page) =>
  page.locator('#contacto form').getByRole('button', { name: /enviar/i });

/** The lead's record (its run, the API being down) names the variant; what the API received does not. */
async function expectLeadFrom(mail: string, variant: string | undefined) {
  expect(variant).toBeDefined();
  await expect.poll(() => runsFor(mail, EXPERIMENTS_DATA).length, { timeout: 20_000 }).toBe(1);
  const [run] = runsFor(mail, EXPERIMENTS_DATA);
  expect(run?.lead.source?.experiments).toEqual([{ name: EXPERIMENT, variant }]);
  const sent = await records(mail);
  expect(sent.attempts.length).toBeGreaterThan(0);
  for (const attempt of sent.attempts) {
    expect(Object.keys(attempt.body ?? {}).sort()).toEqual([
      'captcha',
      'mail',
      'name',
      'phone',
      'reason',
    ]);
    expect(JSON.stringify(attempt.body)).not.toMatch(
      new RegExp(`${EXPERIMENT}|variante|experiment`),
    );
  }
}

test.describe('on two servers sharing one PostgreSQL, and no Redis', () => {
  const STAFF = 'equipo-experimentos@agencia.e2e.test';
  /** Each variant's name on /equipo (the experiment's labels). */
  const LABELS: Record<VariantId, string> = { control: 'Página actual', b: 'Plazo', c: 'Google' };
  let postgres: Postgres | undefined;
  const sites: Server[] = [];

  test.beforeAll(async () => {
    test.setTimeout(120_000);
    postgres = await startPostgres();
    for (const [index, port] of EXPERIMENTS_PG_PORTS.entries()) {
      const env = {
        ...EXPERIMENTS_ENV,
        ...staffEnv([STAFF]),
        NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${port}`,
        // Two machines: a folder each, one database between them.
        CONTACT_INBOX_DIR: path.join(ROOT, DATA_DIR, `experiments-pg-${index}`),
        WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
        WORKFLOW_POSTGRES_URL: postgres.url,
      };
      sites.push(
        await startNext(dir, { port, env, log: `e2e/.server-experiments-pg${index}.log` }),
      );
    }
  });
  test.afterAll(async () => {
    for (const site of sites) await site.stop();
    await postgres?.stop();
  });

  test('they count as one: a visitor once, whichever server they reach; a lead sent to one is read on the other', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const [a, b] = sites.map((site) => site.url);
    if (!a || !b) throw new Error('the two servers did not start');
    const visitors: Record<VariantId, number> = { control: 0, b: 0, c: 0 };
    for (let index = 0; index < 30; index++) {
      const [first, then] = index % 2 ? [b, a] : [a, b];
      const visit = await view('/', {}, first);
      const variant = keptVariant(visit.cookies[VISITOR_COOKIE]) as VariantId;
      expect(variantIn(visit.html)).toBe(variant);
      visitors[variant] += 1;
      // Back the same day through the other server: the same page, and nothing to count again.
      const cookie = `${VISITOR_COOKIE}=${visit.cookies[VISITOR_COOKIE]}`;
      const again = await view('/', { cookie }, then);
      expect(variantIn(again.html)).toBe(variant);
      expect(again.cookies).toEqual({});
    }

    // A person without JavaScript writes from the page server a gave them, and is thanked there.
    const person = {
      name: 'Rosa Dos Servidores',
      mail: uniqueMail('ab-pg'),
      phone: '5522334477',
      reason: 'Una tienda en línea.',
    };
    const answer = await sendAsPersonWithoutScripts(request, a, person, { 'user-agent': CHROME });
    expect(answer.kind).toBe('thanks');
    const leadVariant = variantIn(answer.served);
    if (!leadVariant) throw new Error("the page has no variant's words");
    // A first visit too: the person is one more visitor of that variant.
    visitors[leadVariant] += 1;

    // The staff read the result on server b: every visitor and the lead, from the shared database.
    await reachOurServers(page);
    await signIn(page, b, STAFF);
    // Each row: the variant, its share, its visitors, its leads.
    const expected = (Object.keys(LABELS) as VariantId[]).map((id) => [
      LABELS[id],
      `${SPLIT[id]}%`,
      String(visitors[id]),
      id === leadVariant ? '1' : '0',
    ]);
    const rows = page
      .getByRole('article', { name: `Experimento ${EXPERIMENT}` })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader') });
    await expect
      .poll(
        async () => {
          await page.reload();
          return rows.evaluateAll((all) =>
            all.map((row) =>
              [...row.children].slice(0, 4).map((cell) => cell.textContent?.trim() ?? ''),
            ),
          );
        },
        { timeout: 20_000 },
      )
      .toEqual(expected);
  });
});

test.describe('with no experiment running (the main build)', () => {
  const MAIN = `http://127.0.0.1:${E2E_PORT}`;

  test('/ is the page as built: no Set-Cookie, no rewrite, the prerendered HTML itself', async () => {
    const built = readFileSync(path.join(ROOT, '.next/server/app/index.html'), 'utf8');
    const agents: Array<Record<string, string>> = [{}, { 'user-agent': GOOGLEBOT }];
    for (const headers of agents) {
      const plain = await view('/', headers, MAIN);
      expect(plain.status).toBe(200);
      expect(plain.cookies).toEqual({});
      expect(plain.cacheControl).not.toMatch(/private/);
      expect(plain.html).toBe(built);
    }
    // QA's parameter means nothing without an experiment.
    const forced = await view('/?variante=b', {}, MAIN);
    expect(forced.cookies).toEqual({});
    expect(forced.html).toBe(built);
    expect(formControls(built).map((control) => control.name)).not.toContain('variante');
  });
});
