import { createHash } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { isolatedProcessEnv } from '../test-support/isolated-env';
import { startLeadReceivers, type WebhookHit } from '../test-support/lead-receivers';
import { waitForAlerts } from './support/alerts';
import { expect, stayOnThankYouView, test, waitForFormScript } from './support/fixtures';
import { sendAsPersonWithoutScripts } from './support/form-post';
import { leadsCli, runsFor, runsHolding, webhookRunsFrom } from './support/leads';
import { startServer } from './support/server';
import { records, setScenario, uniqueMail } from './support/stub';
import { DATA_DIR, E2E_BUILD_ENV, FORWARD_PORT } from './support/test-env';

/*
 * Each confirmed lead is sent on beside the contact API (lib/contact/lead/
 * forward-workflow.ts): to the agency's webhook, signed as Standard Webhooks
 * says, and to Meta's Conversions API, each as a durable run of its own,
 * retried on the leads' backoff (3 s here). Spam, QA, refused and failed
 * sends never are. Stand-ins of the receiver and the Graph API run in this
 * worker; the server is the e2e build with them configured.
 */
const SECRET = `whsec_${Buffer.from('secreto-e2e-del-webhook-32-bytes').toString('base64')}`;
const PIXEL_ID = '123456789012345';
const BASE = `http://127.0.0.1:${FORWARD_PORT}`;
const AD = '/?gclid=e2e-fwd-Cj0K&utm_source=google&utm_campaign=tortas-cdmx';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
let visitors = 0;
/** Each send its own visitor for the abuse limit (5 per address): the server takes the last X-Forwarded-For entry. */
const visitor = () => ({ 'x-forwarded-for': `198.19.${process.pid % 250}.${(visitors += 1)}` });
const person = (mail: string) => ({
  name: 'Rosa Reenvío',
  mail,
  phone: '+52 55 1234 5678',
  reason: 'Quiero anuncios para mi tortería.',
});

test.describe.configure({ mode: 'serial' });
let receivers: Awaited<ReturnType<typeof startLeadReceivers>>;
let server: { url: string; kill: () => void };
test.beforeAll(async () => {
  receivers = await startLeadReceivers();
  server = await startServer(
    FORWARD_PORT,
    {
      ...E2E_BUILD_ENV,
      NEXT_PUBLIC_SITE_URL: BASE,
      CONTACT_INBOX_DIR: `${DATA_DIR}/forward`,
      LEAD_WEBHOOK_URL: receivers.webhookUrl,
      LEAD_WEBHOOK_SECRET: SECRET,
      NEXT_PUBLIC_META_PIXEL_ID: PIXEL_ID,
      META_CAPI_ACCESS_TOKEN: 'EAAE2Etoken0123456789abcdef',
      META_GRAPH_API_URL: receivers.graphUrl,
      META_TEST_EVENT_CODE: 'TEST4242',
    },
    'e2e/.server-forward.log',
  );
});
test.afterAll(async () => {
  server?.kill();
  await receivers?.stop();
});
test.use({ baseURL: BASE });

const hitsFor = (mail: string) => receivers.webhook.filter((hit) => hit.mail === mail);
const deliveredTo = (mail: string) => hitsFor(mail).filter((hit) => hit.status === 200);
type MetaEvent = {
  event_name?: string;
  event_id?: string;
  user_data?: { em?: string[]; ph?: string[]; fbc?: string; client_user_agent?: string };
  path: string;
  testCode?: unknown;
};
const metaLeadsFor = (mail: string): MetaEvent[] =>
  receivers.graph
    .flatMap((hit) =>
      (hit.body.data as Array<Omit<MetaEvent, 'path'>>).map((event) => ({
        ...event,
        path: hit.path,
        testCode: hit.body.test_event_code,
      })),
    )
    .filter((event) => event.user_data?.em?.[0] === sha256(mail));
type WebhookBody = {
  type: string;
  data: {
    key: string;
    enquiry: Record<string, string>;
    phone: Record<string, string> | null;
    source: { first: Record<string, unknown> | null; last: Record<string, unknown> | null };
  };
};

/** What the receiver verifies, with the standardwebhooks package's own verifier; throws if the signature is wrong. */
function verified(hit: WebhookHit | undefined): WebhookBody {
  if (!hit) throw new Error('no webhook request');
  const headers = {
    'webhook-id': String(hit.headers['webhook-id']),
    'webhook-timestamp': String(hit.headers['webhook-timestamp']),
    'webhook-signature': String(hit.headers['webhook-signature']),
  };
  return new Webhook(SECRET).verify(hit.body, headers) as WebhookBody;
}

test('from an ad, without JavaScript, the API down: the alert and the signed webhook both carry the source, at once', async ({
  request,
}) => {
  test.setTimeout(90_000);
  const mail = uniqueMail('fwd-nojs');
  // Down for the live attempts and the engine's first 4 rounds (3 s apart, about 12 s), then it takes it.
  await setScenario(mail, [
    ...Array.from({ length: 8 }, () => ({ status: 503 })),
    { success: true, mes: 'Recibida' },
  ]);
  // The ad's visit sets the source cookies; the person then writes from the same browser.
  await request.get(`${BASE}${AD}`);
  expect((await sendAsPersonWithoutScripts(request, BASE, person(mail), visitor())).kind).toBe(
    'thanks',
  );
  const [alert] = await waitForAlerts(mail, 1);
  expect(alert?.text).toContain('gclid: e2e-fwd-Cj0K');

  // Sent on as soon as the visitor is thanked, while the API is still down: the agency's CRM has it first.
  await expect.poll(() => deliveredTo(mail).length, { timeout: 10_000 }).toBe(1);
  expect((await records(mail)).stored).toHaveLength(0);
  await expect.poll(() => metaLeadsFor(mail).length, { timeout: 10_000 }).toBe(1);
  const body = verified(deliveredTo(mail)[0]);
  expect(body.type).toBe('lead.received');
  expect(body.data.source.last).toMatchObject({
    gclid: 'e2e-fwd-Cj0K',
    utm_source: 'google',
    utm_campaign: 'tortas-cdmx',
  });
  expect(body.data.enquiry).toEqual({
    name: 'Rosa Reenvío',
    mail,
    phone: '+525512345678',
    reason: 'Quiero anuncios para mi tortería.',
  });
  expect(body.data.phone).toEqual({
    e164: '+525512345678',
    whatsapp: 'https://wa.me/525512345678',
  });
  // The API takes it later with the same key; the webhook is not sent again.
  await expect.poll(async () => (await records(mail)).stored.length, { timeout: 45_000 }).toBe(1);
  expect(body.data.key).toBe((await records(mail)).stored[0]?.key);
  expect(deliveredTo(mail)).toHaveLength(1);
  // Another secret does not verify it: the signature is real.
  expect(() =>
    new Webhook(
      `whsec_${Buffer.from('otro-secreto-que-no-es-el-bueno!').toString('base64')}`,
    ).verify(
      deliveredTo(mail)[0]?.body ?? '',
      deliveredTo(mail)[0]?.headers as Record<string, string>,
    ),
  ).toThrow();
});

test('from an ad, with JavaScript: one signed webhook and one Meta Lead, with the event id the browser got', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const mail = uniqueMail('fwd-js');
  await setScenario(mail, [{ success: true, mes: 'Recibida' }]);
  await stayOnThankYouView(page);
  await page.goto(AD);
  await waitForFormScript(page);
  await page.waitForTimeout(3000);
  const form = page.locator('#contacto form');
  for (const [name, value] of Object.entries(person(mail)))
    await form.locator(`[name="${name}"]`).fill(value);
  await form.getByRole('button', { name: /enviar/i }).click();
  await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible({
    timeout: 15_000,
  });

  await expect.poll(() => deliveredTo(mail).length, { timeout: 20_000 }).toBe(1);
  const { key, source } = verified(deliveredTo(mail)[0]).data;
  expect(key).toBe((await records(mail)).stored[0]?.key);
  // The ad's click id and campaign, in the visit and as the first touch.
  for (const touch of [source.last, source.first])
    expect(touch).toMatchObject({
      gclid: 'e2e-fwd-Cj0K',
      utm_source: 'google',
      utm_campaign: 'tortas-cdmx',
      landing: '/',
    });
  await expect.poll(() => metaLeadsFor(mail).length, { timeout: 20_000 }).toBe(1);
  const [event] = metaLeadsFor(mail);
  expect(event).toMatchObject({
    event_name: 'Lead',
    event_id: key,
    action_source: 'website',
    testCode: 'TEST4242',
    path: `/graph/v24.0/${PIXEL_ID}/events`,
  });
  expect(event?.user_data).toMatchObject({
    ph: [sha256('525512345678')],
    client_user_agent: expect.stringContaining('Mozilla'),
  });
  // The browser's Pixel Lead (queued for fbevents.js, which the test intercepts) carries the same id. The Pixel
  // starts with the other tags after the 6 s 'loaded' flag, which a busy machine can reach after the thanks.
  const browserLead = () =>
    page.evaluate(() => {
      const queue =
        (window as unknown as { fbq?: { queue?: ArrayLike<unknown>[] } }).fbq?.queue ?? [];
      const call = queue.find((args) => args[0] === 'track' && args[1] === 'Lead');
      return call ? Array.from(call)[3] : undefined;
    });
  await expect.poll(browserLead, { timeout: 20_000 }).toEqual({ eventID: key });
});

test('a receiver down for 20 s gets the lead once, when it is back', async ({ request }) => {
  test.setTimeout(120_000);
  const mail = uniqueMail('fwd-down');
  await setScenario(mail, [{ success: true, mes: 'Recibida' }]);
  receivers.downFor(20_000);
  expect((await sendAsPersonWithoutScripts(request, BASE, person(mail), visitor())).kind).toBe(
    'thanks',
  );
  await expect.poll(() => deliveredTo(mail).length, { timeout: 60_000, intervals: [1000] }).toBe(1);
  // Tried while down (each answered 503), then once more; and nothing after it was taken.
  expect(hitsFor(mail).filter((hit) => hit.status === 503).length).toBeGreaterThanOrEqual(2);
  await new Promise((resolve) => setTimeout(resolve, 8000));
  expect(deliveredTo(mail)).toHaveLength(1);
  expect(new Set(hitsFor(mail).map((hit) => hit.headers['webhook-id'])).size).toBe(1);
});

for (const when of ['while it retries', 'as it goes on in a fresh run'] as const)
  test(`\`npm run leads -- forget <e-mail>\` stops and forgets a copy still on its way to the webhook, ${when}`, async ({
    request,
  }) => {
    // The command alone may take up to 2 minutes under the whole suite (leadsCli).
    test.setTimeout(240_000);
    const mail = uniqueMail('fwd-forget');
    let forgottenAt = Infinity;
    await setScenario(mail, [{ success: true, mes: 'Recibida' }]);
    receivers.downFor(120_000);
    try {
      expect((await sendAsPersonWithoutScripts(request, BASE, person(mail), visitor())).kind).toBe(
        'thanks',
      );
      // Its webhook run is retrying against the receiver that is down.
      await expect.poll(() => hitsFor(mail).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
      expect(runsHolding(mail, 'forward').length).toBeGreaterThanOrEqual(1);

      if (when === 'as it goes on in a fresh run') {
        // After ROUNDS_PER_RUN rounds the copy goes on in a new run, which begins by waiting: the queue still holds the
        // message that starts it, input and all. Purged then, it once came back to life and sent (lib/engine/forget-run.ts).
        await expect
          .poll(() => Math.max(0, ...webhookRunsFrom(mail, 'forward')), {
            timeout: 60_000,
            intervals: [100],
          })
          .toBeGreaterThan(0);
      }
      // The person asks to be forgotten; the staff run the CLI against this server's engine.
      const env = isolatedProcessEnv({
        ...E2E_BUILD_ENV,
        PORT: String(FORWARD_PORT),
        CONTACT_INBOX_DIR: `${DATA_DIR}/forward`,
      });
      const forgotten = await leadsCli(['forget', mail], env);
      forgottenAt = Date.now();
      const said = `${forgotten.timedOut ? '(timed out) ' : ''}${forgotten.stdout}${forgotten.stderr}`;
      expect(forgotten.status, said).toBe(0);
      expect(forgotten.stdout).toMatch(
        /reenvío\(s\) al webhook o a Meta detenido\(s\) y borrado\(s\)/,
      );
    } finally {
      receivers.downFor(0);
    }
    // The receiver is back: no run holds the forgotten lead any more, and no send of it starts after forgetting it.
    // One already under way when it was forgotten (signed before it) cannot be recalled: it lands, now the receiver is up.
    await expect.poll(() => runsHolding(mail, 'forward'), { timeout: 20_000 }).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 8000));
    const signedAfter = deliveredTo(mail).filter(
      (hit) => Number(hit.headers['webhook-timestamp']) * 1000 > forgottenAt,
    );
    expect(signedAfter).toHaveLength(0);
    expect(deliveredTo(mail).length).toBeLessThanOrEqual(1);
  });

test("a receiver that does not answer never holds up the visitor's answer", async ({ request }) => {
  test.setTimeout(60_000);
  const mail = uniqueMail('fwd-slow');
  await setScenario(mail, [{ success: true, mes: 'Recibida' }]);
  receivers.hold();
  try {
    expect((await sendAsPersonWithoutScripts(request, BASE, person(mail), visitor())).kind).toBe(
      'thanks',
    );
    // Thanked, and stored by the API, while the webhook's request is still unanswered.
    expect((await records(mail)).stored).toHaveLength(1);
    expect(hitsFor(mail)).toHaveLength(0);
  } finally {
    receivers.release();
  }
  await expect.poll(() => deliveredTo(mail).length, { timeout: 30_000 }).toBe(1);
});

// A failed send (the visitor asked to retry) starts no run, and the live path sends on only what the API took:
// nothing to forward by construction; conversions.spec.ts checks the browser sends no Lead for it.
test('spam, QA and refused sends reach neither the webhook nor Meta; a released spam does', async ({
  request,
}) => {
  test.setTimeout(240_000); // the release command alone may take 2 minutes under the whole suite (leadsCli)
  const confirmed = uniqueMail('fwd-ok');
  const refused = uniqueMail('fwd-refused');
  const spam = uniqueMail('fwd-spam');
  const qa = `qa-fwd-${Date.now().toString(36)}@agencia.invalid`;
  await setScenario(confirmed, [{ success: true, mes: 'Recibida' }]);
  await setScenario(refused, [{ status: 400, mes: 'Datos rechazados por la API' }]);
  await setScenario(spam, [{ success: true, mes: 'Recibida' }]);
  expect((await sendAsPersonWithoutScripts(request, BASE, person(confirmed), visitor())).kind).toBe(
    'thanks',
  );
  expect(
    (await sendAsPersonWithoutScripts(request, BASE, person(refused), visitor())).html,
  ).toContain('Datos rechazados por la API');
  expect(
    (
      await sendAsPersonWithoutScripts(
        request,
        BASE,
        { ...person(spam), name: 'Gana dinero www.spam-e2e.example' },
        visitor(),
      )
    ).kind,
  ).toBe('thanks');
  expect((await sendAsPersonWithoutScripts(request, BASE, person(qa), visitor())).kind).toBe(
    'thanks',
  );

  await expect
    .poll(() => [deliveredTo(confirmed).length, metaLeadsFor(confirmed).length], {
      timeout: 20_000,
    })
    .toEqual([1, 1]);
  await new Promise((resolve) => setTimeout(resolve, 5000));
  for (const mail of [refused, spam, qa]) {
    expect(hitsFor(mail), mail).toHaveLength(0);
    expect(metaLeadsFor(mail), mail).toHaveLength(0);
  }

  // Staff release the spam, a false positive: it is confirmed now, and sent on once.
  const [held] = runsFor(spam, 'forward');
  const env = isolatedProcessEnv({
    ...E2E_BUILD_ENV,
    PORT: String(FORWARD_PORT),
    CONTACT_INBOX_DIR: `${DATA_DIR}/forward`,
  });
  const released = await leadsCli(['release', held?.lead.key ?? ''], env);
  const said = `${released.timedOut ? '(timed out) ' : ''}${released.stdout}${released.stderr}`;
  expect(released.status, said).toBe(0);
  await expect
    .poll(() => Math.min(deliveredTo(spam).length, metaLeadsFor(spam).length), { timeout: 30_000 })
    .toBeGreaterThanOrEqual(1);
  // One lead, under one id: after a release from the CLI the local world has been seen running each
  // send twice in the same 2 ms; a receiver drops the repeat by webhook-id, Meta by event_id.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  expect(new Set(deliveredTo(spam).map((hit) => hit.headers['webhook-id']))).toEqual(
    new Set([held?.lead.key]),
  );
  expect(new Set(metaLeadsFor(spam).map((event) => event.event_id))).toEqual(
    new Set([held?.lead.key]),
  );
  expect(deliveredTo(spam).length).toBeLessThanOrEqual(2);
  expect(verified(deliveredTo(spam)[0]).data.key).toBe(held?.lead.key);
});
