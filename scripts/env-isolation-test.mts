// Tests never touch real data: with a production-like .env.local in the
// project (a Redis, a contact API and a mail server that this test watches,
// production's cron secret and public IDs), a `next build` and `next start`
// launched with the isolated environment (test-support/isolated-env.ts), an
// enquiry sent while the test's stub API is down, and the flush route called,
// the watched Redis must see no command (its pending entry untouched), the
// watched API no attempt and the watched mail server no connection, while the
// enquiry reaches the test's own stub through the test's own outbox.
//
// The .env.local is written into the test's own copy of the project
// (test-support/harness.ts), never beside a developer's own.
// ENV_ISOLATION_DROP=REDIS_URL,... leaves variables out of the isolated
// environment, to watch this test fail.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import Redis from 'ioredis';
import type { OutboxEntry } from '../lib/contact/outbox/entry';
import { RedisOutboxStore } from '../lib/contact/outbox/redis-store';
import { startRedisServer } from '../test-support/redis-server';
import { buildApp, startNext, startStubApi, stopAll, type Server } from '../test-support/harness';

const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const APP_PORT = 3290 + OFFSET;
const STUB_PORT = 3291 + OFFSET; // the test's contact API
const PROD_STUB_PORT = 3292 + OFFSET; // "production's" contact API, named only in .env.local
const PROD_SMTP_PORT = 3293 + OFFSET; // "production's" mail server, likewise
const APP = `http://127.0.0.1:${APP_PORT}`;
const STUB = `http://127.0.0.1:${STUB_PORT}`;
const PROD_STUB = `http://127.0.0.1:${PROD_STUB_PORT}`;
const DROP = (process.env.ENV_ISOLATION_DROP ?? '').split(',').filter(Boolean);
const TEST_SECRET = 'secreto-de-prueba-aislada';
const PROD_SECRET = 'secreto-de-produccion';
const PROD_PENDING_KEY = 'produccion-pendiente-0001';
const PROD_PUBLIC = ['produccion.env-isolation.test', 'G-PRODUCCION1'];

const work = mkdtempSync(path.join(tmpdir(), 'env-isolation-'));
const servers: Server[] = [];
let stopRedis = () => {};

let cleaned = false;
async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  await stopAll(servers);
  stopRedis();
  rmSync(work, { recursive: true, force: true });
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void cleanUp().then(() => process.exit(130)));

/* ---------- What "production" looks like, watched ---------- */

const redis = await startRedisServer();
stopRedis = redis.stop;
// A pending enquiry in "production's" outbox: a leaky flush would send it to the test's stub and delete it.
const seedStore = new RedisOutboxStore(redis.url);
const pendingEntry: OutboxEntry = {
  key: PROD_PENDING_KEY,
  enquiry: { name: 'Cliente real', mail: 'cliente.real@produccion.test', phone: '5512345678', reason: 'Solicitud real pendiente.', captcha: '' },
  receivedAt: Date.now() - 60_000,
  state: 'pending',
  rounds: 1,
  nextAttemptAt: 0,
  alerted: { pending: false, dead: false },
};
await seedStore.add(pendingEntry);
await seedStore.close();

// Every command anyone else sends to that Redis from now on.
const monitor = await new Redis(redis.url).monitor();
const redisCommands: string[] = [];
monitor.on('monitor', (_time: string, args: string[]) => redisCommands.push(args.join(' ')));

let prodSmtpConnections = 0;
const prodSmtp = net.createServer((socket) => {
  prodSmtpConnections += 1;
  socket.end('421 not a real mail server\r\n');
});
await new Promise<void>((resolve) => prodSmtp.listen(PROD_SMTP_PORT, '127.0.0.1', resolve));

servers.push(await startStubApi(STUB_PORT), await startStubApi(PROD_STUB_PORT));

const envLocal = [
    `REDIS_URL=${redis.url}`,
    `CONTACT_API_BASE_URL=${PROD_STUB}/api/`,
    'CONTACT_SITE_KEY=clave-de-produccion-9f8e7d',
    `CONTACT_INBOX_DIR=${path.join(work, 'produccion')}`,
    'CONTACT_OUTBOX=auto',
    'CONTACT_OUTBOX_BACKOFF_SECONDS=1',
    `CRON_SECRET=${PROD_SECRET}`,
    `ALERT_SMTP_URL=smtp://avisos:secreto@127.0.0.1:${PROD_SMTP_PORT}`,
    'ALERT_EMAIL_TO=ventas@produccion.test',
    'ALERT_EMAIL_FROM=Produccion <avisos@produccion.test>',
    'CONTACT_RATE_LIMIT_MAX=1',
    'TRUST_PROXY_HEADERS=1',
    'VERCEL=1',
    `NEXT_PUBLIC_SITE_URL=https://${PROD_PUBLIC[0]}`,
    `NEXT_PUBLIC_GA_MEASUREMENT_ID=${PROD_PUBLIC[1]}`,
    '',
  ].join('\n');

/* ---------- The test's own build and server, isolated ---------- */

const env = {
  NEXT_PUBLIC_SITE_URL: APP,
  CONTACT_API_BASE_URL: `${STUB}/api/`,
  CONTACT_SITE_KEY: 'clave-de-prueba',
  CONTACT_INBOX_DIR: path.join(work, 'prueba'),
  CONTACT_OUTBOX_BACKOFF_SECONDS: '1',
  CRON_SECRET: TEST_SECRET,
};
if (DROP.length) console.log(`Left out of the isolated environment on purpose: ${DROP.join(', ')}`);

let buildLog = '';
const serverLog = path.join(work, 'server.log');
try {
  const dir = await buildApp(
    // The .env.local's values differ every run (ports, folders), so this is always a build of its own.
    { name: 'env-isolation', publicEnv: { NEXT_PUBLIC_SITE_URL: APP }, prepare: { id: envLocal, run: (copy) => writeFileSync(path.join(copy, '.env.local'), envLocal) } },
    { log: (line) => (buildLog += `${line}\n`), without: DROP },
  );
  servers.push(await startNext(dir, { port: APP_PORT, env, without: DROP, log: serverLog }));
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}

/* ---------- A visitor's enquiry while the test's API is down, then the scheduler ---------- */

const html = await (await fetch(`${APP}/`)).text();
// The Server Action's id, as the page's own JavaScript knows it (as in scripts/load-test.ts).
let actionId: string | undefined;
for (const [, src] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) {
  const js = await (await fetch(new URL(src!, APP))).text();
  actionId = js.match(/createServerReference\)\("([0-9a-f]{40,})"/)?.[1] ?? actionId;
}
if (!actionId) throw new Error('Server Action id not found in the page scripts');

const mail = `aislado-${Date.now().toString(36)}@example.mx`;
// The signature of the form on screen, as the island fetches it, 3 s old when sent (a person's pace).
const { token } = (await (await fetch(`${APP}/api/contact/token`)).json()) as { token: string };
await new Promise((resolve) => setTimeout(resolve, 3300));
// Down long enough for the live attempts and the background retry: the enquiry must wait in the test's outbox.
await fetch(`${STUB}/__outage`, { method: 'POST', body: JSON.stringify({ ms: 6000 }) });
const body = new FormData();
body.append('_1_name', 'Visitante de prueba');
body.append('_1_mail', mail);
body.append('_1_phone', '5512345678');
body.append('_1_reason', 'Solicitud de la prueba de aislamiento.');
body.append('_1_captcha', '');
body.append('_1_campo_extra', '');
body.append('_1_firma', token);
body.append('0', '[{"status":"idle"},"$K1"]');
const answer = await (await fetch(`${APP}/`, { method: 'POST', headers: { Accept: 'text/x-component', 'Next-Action': actionId, Origin: APP }, body })).text();
const visitorState = answer.match(/"status":"(sent|failed|invalid|confirm)"/)?.[1] ?? 'none';

const flush = (secret: string) => fetch(`${APP}/api/outbox/flush`, { headers: { Authorization: `Bearer ${secret}` } });
const prodSecretStatus = (await flush(PROD_SECRET)).status;
await new Promise((resolve) => setTimeout(resolve, 6500));
let testSecretStatus = 0;
let storedByTestStub = 0;
for (let i = 0; i < 10 && storedByTestStub === 0; i++) {
  testSecretStatus = (await flush(TEST_SECRET)).status;
  const summary = (await (await fetch(`${STUB}/__summary`)).json()) as { storedByMail: Record<string, number> };
  storedByTestStub = summary.storedByMail[mail] ?? 0;
  if (!storedByTestStub) await new Promise((resolve) => setTimeout(resolve, 1000));
}
const testSummary = (await (await fetch(`${STUB}/__summary`)).json()) as { storedByMail: Record<string, number> };
const prodSummary = (await (await fetch(`${PROD_STUB}/__summary`)).json()) as { attempts: number };

/* ---------- The checks ---------- */

monitor.disconnect();
const readStore = new RedisOutboxStore(redis.url);
const stillPending = await readStore.get(PROD_PENDING_KEY);
await readStore.close();

// next build says which .env files it loaded (next start says so only in dev): ours must be there, or this proves nothing.
const checks: Array<[string, boolean, string]> = [
  ['next build read the test’s .env.local', /Environments:.*\.env\.local/.test(buildLog), ''],
  ['the visitor was thanked (the enquiry waits in the test’s outbox)', visitorState === 'sent', visitorState],
  ['the test’s stub API stored the enquiry exactly once', storedByTestStub === 1, String(storedByTestStub)],
  ['the flush route answers to the test’s CRON_SECRET', testSecretStatus === 200, String(testSecretStatus)],
  ['the flush route refuses production’s CRON_SECRET', prodSecretStatus === 401, String(prodSecretStatus)],
  ['the watched Redis got no command', redisCommands.length === 0, `${redisCommands.length}: ${redisCommands.slice(0, 5).join(' | ')}`],
  ['its pending entry is still there, untouched', isDeepStrictEqual(stillPending, pendingEntry), stillPending ? 'changed' : 'gone'],
  ['the test’s stub never got production’s pending enquiry', !testSummary.storedByMail[pendingEntry.enquiry.mail], ''],
  ['the watched contact API got no attempt', prodSummary.attempts === 0, String(prodSummary.attempts)],
  ['the watched mail server got no connection', prodSmtpConnections === 0, String(prodSmtpConnections)],
  ['the page carries none of production’s NEXT_PUBLIC_ values', PROD_PUBLIC.every((value) => !html.includes(value)), ''],
];
const said = (log: string) => log.split('\n').filter((line) => /Environments:|\[contacto\]/.test(line)).map((line) => `  ${line.trim()}`);
console.log(`\nWhat next build and next start said:\n${[...said(buildLog), ...said(readFileSync(serverLog, 'utf8'))].join('\n')}\n`);
for (const [name, ok, seen] of checks) console.log(`${ok ? '✓' : '✗'} ${name}${ok ? '' : ` (seen: ${seen})`}`);
const failed = checks.filter(([, ok]) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
prodSmtp.close();
await cleanUp();
process.exit(failed ? 1 : 0);
