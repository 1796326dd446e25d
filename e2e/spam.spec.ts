import { spawnSync } from 'node:child_process';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { isolatedProcessEnv } from '../test-support/isolated-env';
import { expect, stayOnThankYouView, test } from './support/fixtures';
import {
  bodyOf,
  formControls,
  postForm,
  READ_AGAIN_MS,
  sendAsPersonWithoutScripts,
  type Control,
} from './support/form-post';
import { runsFor } from './support/leads';
import { startServer } from './support/server';
import { records, uniqueMail } from './support/stub';
import { DATA_DIR, E2E_BUILD_ENV, E2E_CONFIG, E2E_PORT, PROXY_PORT } from './support/test-env';

/*
 * Only people reach the agency. Four kinds of scripts, each of which reached
 * the contact API before the spam filter, and three kinds of people, each of
 * whom must be thanked and delivered once at no cost. The bots post the way
 * the browser posts the form without JavaScript, as a script would.
 */
/** The suspected spam the main server held back for this e-mail address (its lead runs waiting to be released). */
function quarantined(mail: string): Array<{ key: string; spamRule?: string }> {
  return runsFor(mail)
    .filter((run) => run.lead.spamRule && (run.status === 'running' || run.status === 'pending'))
    .map((run) => ({ key: run.lead.key, spamRule: run.lead.spamRule }));
}

/** Anything held for this e-mail address: lead runs of any kind. */
function storedAnywhere(mail: string): number {
  return runsFor(mail).length;
}

/** Each bot posts from an address of its own (the main server takes the last X-Forwarded-For entry), so none shares another test's limit. */
const fromOwnAddress = () => ({
  'x-forwarded-for': `198.19.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`,
});

const botValues = (mail: string) => ({
  name: 'Juan Robot Pérez',
  mail,
  phone: '5512345678',
  reason: 'Quiero una página web para mi negocio.',
});

/** What a script that fills every control writes in a text box it does not know: something plausible. */
function fillEverything(controls: Control[], mail: string): Record<string, string> {
  const known: Record<string, string> = botValues(mail);
  return Object.fromEntries(
    controls.map((control) => [
      control.name,
      known[control.name] ??
        (control.type === 'hidden'
          ? control.value
          : control.type === 'email'
            ? mail
            : 'Juan Robot'),
    ]),
  );
}

test.describe('bots: none reaches the contact API', () => {
  test('1. a script that fills every control of the form and posts at once: kept apart as spam, answered like a person', async ({
    request,
    baseURL,
  }) => {
    const mail = uniqueMail('bot-all-at-once');
    const controls = formControls(await (await request.get('/')).text());
    const answer = await postForm(
      request,
      baseURL as string,
      fillEverything(controls, mail),
      fromOwnAddress(),
    );
    expect(answer.kind).toBe('thanks');
    expect((await records(mail)).attempts).toHaveLength(0);
    expect(quarantined(mail).map((entry) => entry.spamRule)).toEqual(['honeypot']);
  });

  test('2. the same script, waiting 8 s before it posts: kept apart as spam', async ({
    request,
    baseURL,
  }) => {
    const mail = uniqueMail('bot-all-8s');
    const controls = formControls(await (await request.get('/')).text());
    await new Promise((resolve) => setTimeout(resolve, 8000));
    const answer = await postForm(
      request,
      baseURL as string,
      fillEverything(controls, mail),
      fromOwnAddress(),
    );
    expect(answer.kind).toBe('thanks');
    expect((await records(mail)).attempts).toHaveLength(0);
    expect(quarantined(mail)).toHaveLength(1);
  });

  test('3. a script that fills only the four known fields and posts 300 ms after loading the page: asked to confirm, stored nowhere', async ({
    request,
    baseURL,
  }) => {
    const mail = uniqueMail('bot-four-300ms');
    const controls = formControls(await (await request.get('/')).text());
    await new Promise((resolve) => setTimeout(resolve, 300));
    const answer = await postForm(
      request,
      baseURL as string,
      bodyOf(controls, botValues(mail)),
      fromOwnAddress(),
    );
    expect(answer.kind).toBe('confirm');
    // It never confirms: nothing of it is anywhere.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await records(mail)).attempts).toHaveLength(0);
    expect(storedAnywhere(mail)).toBe(0);
  });

  test('4. a script that posts without loading the page in its session: kept apart as spam', async ({
    playwright,
    request,
    baseURL,
  }) => {
    const mail = uniqueMail('bot-cold');
    // What such a script carries: the action's fields, copied from the form once, and the four it knows.
    const actionFields = Object.fromEntries(
      formControls(await (await request.get('/')).text())
        .filter((control) => control.name.startsWith('$ACTION'))
        .map((control) => [control.name, control.value]),
    );
    const cold = await playwright.request.newContext();
    const answer = await postForm(
      cold,
      baseURL as string,
      { ...actionFields, ...botValues(mail), captcha: '' },
      fromOwnAddress(),
    );
    await cold.dispose();
    expect(answer.kind).toBe('thanks');
    expect((await records(mail)).attempts).toHaveLength(0);
    expect(quarantined(mail).map((entry) => entry.spamRule)).toEqual(['honeypot-missing']);
  });

  test('5. a script that posts without a signature, then posts the answer back at once, three times over: never reaches the API', async ({
    request,
    baseURL,
  }) => {
    const mail = uniqueMail('bot-confirm-dance');
    const from = fromOwnAddress();
    let answer = await postForm(
      request,
      baseURL as string,
      bodyOf(formControls(await (await request.get('/')).text()), botValues(mail)),
      from,
    );
    for (let round = 0; round < 3; round++) {
      expect(answer.kind).toBe('confirm');
      answer = await postForm(
        request,
        baseURL as string,
        bodyOf(formControls(answer.html), {}),
        from,
      );
    }
    expect(answer.kind).toBe('confirm');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await records(mail)).attempts).toHaveLength(0);
    expect(storedAnywhere(mail)).toBe(0);
  });

  test("6. a script that posts something invalid, then a valid enquiry 8 ms later with the answer's signature: never reaches the API", async ({
    request,
    baseURL,
  }) => {
    const mail = uniqueMail('bot-invalid-valid');
    const from = fromOwnAddress();
    const controls = formControls(await (await request.get('/')).text());
    const invalid = await postForm(
      request,
      baseURL as string,
      bodyOf(controls, { ...botValues(mail), mail: 'no-es-un-correo' }),
      from,
    );
    expect(invalid.html).toContain('name="firma"');
    await new Promise((resolve) => setTimeout(resolve, 8));
    const answer = await postForm(
      request,
      baseURL as string,
      bodyOf(formControls(invalid.html), botValues(mail)),
      from,
    );
    expect(answer.kind).toBe('confirm');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await records(mail)).attempts).toHaveLength(0);
  });

  test('7. one signature from /api/contact/token, once old enough, reused for 3 enquiries: at most 1 reaches the API', async ({
    request,
    baseURL,
  }) => {
    const from = fromOwnAddress();
    const { token } = (await (
      await request.get('/api/contact/token', { headers: from })
    ).json()) as { token: string };
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const controls = formControls(await (await request.get('/')).text());
    const mails = ['a', 'b', 'c'].map((which) => uniqueMail(`bot-reuse-${which}`));
    const kinds: string[] = [];
    for (const mail of mails)
      kinds.push(
        (
          await postForm(
            request,
            baseURL as string,
            bodyOf(controls, { ...botValues(mail), firma: token }),
            from,
          )
        ).kind,
      );
    expect(kinds).toEqual(['thanks', 'confirm', 'confirm']);
    let reached = 0;
    for (const mail of mails) reached += (await records(mail)).attempts.length;
    expect(reached).toBe(1);
  });

  test('8. a signature fetched from another address: asked to confirm, stored nowhere', async ({
    request,
    baseURL,
  }) => {
    const mail = uniqueMail('bot-elsewhere');
    const { token } = (await (
      await request.get('/api/contact/token', { headers: fromOwnAddress() })
    ).json()) as {
      token: string;
    };
    await new Promise((resolve) => setTimeout(resolve, 3500));
    const controls = formControls(await (await request.get('/')).text());
    const answer = await postForm(
      request,
      baseURL as string,
      bodyOf(controls, { ...botValues(mail), firma: token }),
      {
        'x-forwarded-for': '198.18.0.99',
      },
    );
    expect(answer.kind).toBe('confirm');
    expect((await records(mail)).attempts).toHaveLength(0);
    expect(storedAnywhere(mail)).toBe(0);
  });

  test('9. a signature forged offline from CONTACT_SITE_KEY (the key once derived from it): asked to confirm, stored nowhere', async ({
    request,
    baseURL,
  }) => {
    // The old derivation: SHA-256 of "contacto:firma:<site key>".
    const key = createHash('sha256').update(`contacto:firma:${E2E_CONFIG.contactSiteKey}`).digest();
    const mac = (text: string) =>
      createHmac('sha256', key).update(text).digest().subarray(0, 16).toString('base64url');
    const issued = (Date.now() - 60_000).toString(36);
    const from = fromOwnAddress();
    // The shape it once signed (kind and time), and today's (a nonce, and the address the server reads in
    // the HMAC): were the key still derived so, the second would be valid and this test would fail.
    const old = `t.${issued}`;
    const today = `t.${issued}.${randomBytes(8).toString('base64url')}`;
    const forgeries = {
      old: `${old}.${mac(old)}`,
      today: `${today}.${mac(`${today}|${from['x-forwarded-for']}`)}`,
    };
    const controls = formControls(await (await request.get('/')).text());
    for (const [shape, forged] of Object.entries(forgeries)) {
      const mail = uniqueMail(`bot-forged-${shape}`);
      const answer = await postForm(
        request,
        baseURL as string,
        bodyOf(controls, { ...botValues(mail), firma: forged }),
        from,
      );
      expect(answer.kind, shape).toBe('confirm');
      expect((await records(mail)).attempts, shape).toHaveLength(0);
      expect(storedAnywhere(mail), shape).toBe(0);
    }
  });

  test('a link-only message is kept apart; `npm run leads -- spam` lists it and `release` delivers it, once', async ({
    page,
  }) => {
    test.setTimeout(300_000);
    const mail = uniqueMail('spam-release');
    await stayOnThankYouView(page);
    await page.goto('/');
    // A person would read first; the form then sends at once.
    await page.waitForTimeout(3000);
    const form = page.locator('#contacto form');
    await form.locator('[name="name"]').fill('Roberto Enlaces');
    await form.locator('[name="mail"]').fill(mail);
    await form.locator('[name="phone"]').fill('5512345678');
    await form
      .locator('[name="reason"]')
      .fill('https://mi-negocio.example.com https://otro.example.com');
    await form.getByRole('button', { name: /enviar/i }).click();
    await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible();
    const [entry] = quarantined(mail);
    expect(entry?.spamRule).toBe('only-links');
    expect((await records(mail)).attempts).toHaveLength(0);

    // The CLI reaches the server's engine at its own PORT, as a staff member's would.
    const env = isolatedProcessEnv({ ...E2E_BUILD_ENV, PORT: String(E2E_PORT) });
    // Some 5 s on an idle machine; a busy one (the whole suite on 2 cores) has taken over 60.
    const leads = (...args: string[]) =>
      spawnSync('npm', ['run', '--silent', 'leads', '--', ...args], {
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
    const said = (run: ReturnType<typeof leads>) =>
      `${run.stdout}${run.stderr}${run.error ? ` (${run.error.message})` : ''}`;
    const listed = leads('spam');
    expect(listed.status, said(listed)).toBe(0);
    expect(listed.stdout).toContain(entry?.key);
    expect(listed.stdout).toContain(mail);

    const released = leads('release', entry?.key ?? '');
    expect(released.status, said(released)).toBe(0);
    // The run resumes into the same delivery as any lead's.
    await expect.poll(async () => (await records(mail)).stored.length, { timeout: 30_000 }).toBe(1);
    const { attempts, stored } = await records(mail);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]?.idempotencyKey).toBe(entry?.key);
    expect(stored).toHaveLength(1);
    // The run records its end just after the API's answer.
    await expect.poll(() => quarantined(mail), { timeout: 10_000 }).toHaveLength(0);
  });
});

const person = (tag: string) => ({
  name: 'Ana Persona',
  mail: uniqueMail(tag),
  phone: '+52 55 1234 567',
  reason: 'Quiero una página web para mi florería.',
});
const formOf = (page: Page) => page.locator('#contacto form');
const thanks = (page: Page) => page.getByRole('heading', { name: /gracias por contactarnos/i });

/** Records whether the form ever asked to confirm, from the first frame. */
async function watchForConfirm(page: Page) {
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.body?.textContent?.includes('Para confirmar el envío'))
        (window as unknown as { askedToConfirm: boolean }).askedToConfirm = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  return async () =>
    page.evaluate(() =>
      Boolean((window as unknown as { askedToConfirm?: boolean }).askedToConfirm),
    );
}

test.describe('people: thanked, delivered once, at no cost', () => {
  test('with JavaScript, a person who starts typing 3 s after the page appears is never asked anything more', async ({
    page,
  }) => {
    const visitor = person('person-typing');
    const askedToConfirm = await watchForConfirm(page);
    await stayOnThankYouView(page);
    await page.goto('/');
    await page.waitForTimeout(3000);
    for (const [field, value] of Object.entries(visitor))
      await formOf(page).locator(`[name="${field}"]`).pressSequentially(value, { delay: 20 });
    await formOf(page)
      .getByRole('button', { name: /enviar/i })
      .click();
    await expect(thanks(page)).toBeVisible();
    expect(await askedToConfirm()).toBe(false);
    expect((await records(visitor.mail)).stored).toHaveLength(1);
    expect((await records(visitor.mail)).attempts).toHaveLength(1);
  });

  test('with JavaScript, autofill 1 s after the page is ready and an immediate send: a silent wait, no extra step', async ({
    page,
  }) => {
    const visitor = person('person-autofill');
    const askedToConfirm = await watchForConfirm(page);
    await stayOnThankYouView(page);
    await page.goto('/');
    await page.waitForLoadState('load');
    await page.waitForTimeout(1000);
    // What a browser's autofill does: every field at once, with input events.
    await formOf(page).evaluate((form, values) => {
      for (const [name, value] of Object.entries(values)) {
        const field = form.querySelector<HTMLInputElement | HTMLTextAreaElement>(
          `[name="${name}"]`,
        );
        if (!field) continue;
        const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set;
        setter?.call(field, value);
        field.dispatchEvent(new Event('input', { bubbles: true }));
        field.dispatchEvent(new Event('change', { bubbles: true }));
      }
    }, visitor);
    const clickedAt = Date.now();
    await formOf(page)
      .getByRole('button', { name: /enviar/i })
      .click();
    await expect(thanks(page)).toBeVisible({ timeout: 15_000 });
    expect(await askedToConfirm()).toBe(false);
    const { attempts } = await records(visitor.mail);
    expect(attempts).toHaveLength(1);
    // Sent no sooner than 3 s after the form appeared: the send waited, silently.
    expect(Date.now() - clickedAt).toBeGreaterThan(500);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('a person is asked to confirm once, with every value kept, and the confirmation is delivered once', async ({
      page,
    }) => {
      const visitor = person('person-nojs');
      await stayOnThankYouView(page);
      await page.goto('/');
      for (const [field, value] of Object.entries(visitor))
        await formOf(page).locator(`[name="${field}"]`).fill(value);
      await formOf(page)
        .getByRole('button', { name: /enviar/i })
        .click();
      await expect(formOf(page).getByRole('status')).toHaveText(
        'Para confirmar el envío, presiona «Enviar» otra vez.',
      );
      for (const [field, value] of Object.entries(visitor))
        await expect(formOf(page).locator(`[name="${field}"]`)).toHaveValue(value);
      expect((await records(visitor.mail)).attempts).toHaveLength(0);
      await page.waitForTimeout(READ_AGAIN_MS);
      await formOf(page)
        .getByRole('button', { name: /enviar/i })
        .click();
      await expect(thanks(page)).toBeVisible();
      expect((await records(visitor.mail)).attempts).toHaveLength(1);
    });
  });

  test('the keyboard and the accessibility tree know four text boxes and the button; the honeypot is in neither', async ({
    page,
  }) => {
    await page.goto('/');
    const form = formOf(page);
    await expect(form.getByRole('textbox')).toHaveCount(4);
    // Filled in, so the button is enabled (it is disabled while the form is invalid, and skipped by Tab).
    for (const [field, value] of Object.entries(person('keyboard')))
      await form.locator(`[name="${field}"]`).fill(value);
    await form.locator('[name="name"]').focus();
    const visited: string[] = [];
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Tab');
      visited.push(
        await page.evaluate(
          () =>
            document.activeElement?.getAttribute('name') ??
            document.activeElement?.textContent?.trim() ??
            '',
        ),
      );
    }
    expect(visited).toEqual(['mail', 'phone', 'reason', 'Enviar']);
  });
});

test.describe('behind one proxy (TRUST_PROXY_HEADERS=1), the default limit of 5 per 10 minutes', () => {
  test.describe.configure({ mode: 'serial' });
  let server: { url: string; kill: () => void };

  test.beforeAll(async () => {
    server = await startServer(PROXY_PORT, {
      ...E2E_BUILD_ENV,
      TRUST_PROXY_HEADERS: '1',
      CONTACT_INBOX_DIR: `${DATA_DIR}/proxy`,
    });
  });
  test.afterAll(() => server?.kill());

  for (const [what, realAddress, written] of [
    [
      '8 visitors who write their own X-Forwarded-For and X-Real-IP while the proxy appends the same real address',
      () => '203.0.113.7',
      (i: number) => `198.51.100.${i + 1}`,
    ],
    [
      '8 addresses in one IPv6 /64',
      (i: number) => `2001:db8:5:7::${(i + 1).toString(16)}`,
      (i: number) => `192.0.2.${i + 1}`,
    ],
  ] as const) {
    test(`${what}: at most 5 reach the API`, async ({ request }) => {
      test.setTimeout(120_000);
      const mails: string[] = [];
      const kinds: string[] = [];
      for (let i = 0; i < 8; i++) {
        const visitor = person(`proxy-${i}`);
        mails.push(visitor.mail);
        // What nginx's `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for` sends: the client's own, then the address it saw.
        const headers = {
          'x-forwarded-for': `${written(i)}, ${realAddress(i)}`,
          'x-real-ip': written(i),
        };
        kinds.push((await sendAsPersonWithoutScripts(request, server.url, visitor, headers)).kind);
      }
      let reached = 0;
      for (const mail of mails) reached += (await records(mail)).stored.length;
      expect(kinds.filter((kind) => kind === 'thanks')).toHaveLength(5);
      expect(kinds.slice(5)).toEqual(['rate-limited', 'rate-limited', 'rate-limited']);
      expect(reached).toBe(5);
    });
  }
});
