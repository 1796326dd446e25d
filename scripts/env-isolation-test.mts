// Tests never touch real data: with a production-like .env.local in the
// project (test-support/production-env.ts: a Redis, a contact API and a mail
// server that this test watches, production's Workflow SDK world in
// PostgreSQL and public IDs), a `next build` and `next start` launched with
// the isolated environment (test-support/isolated-env.ts), and an enquiry sent
// while the test's stub API is down, the watched Redis must see no command,
// the watched PostgreSQL, API and mail server no connection, while the enquiry
// reaches the test's own stub through the test's own local world.
//
// The build is the no-tags one the end-to-end and quality runs use, made with
// that .env.local in its copy (test-support/harness.ts), never beside a
// developer's own. ENV_ISOLATION_DROP=REDIS_URL,... leaves variables out of
// the isolated environment, in a build of its own, to watch this test fail.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { startRedisServer } from '../test-support/redis-server';
import { NO_TAGS_APP } from '../e2e/support/test-env';
import {
  BUILD_LOG,
  buildApp,
  startNext,
  startStubApi,
  stopAll,
  type Server,
} from '../test-support/harness';
import {
  PROD_HOOKS_PORT,
  PROD_PG_PORT,
  PROD_PUBLIC,
  PROD_REDIS_PORT,
  PROD_SMTP_PORT,
  PROD_STUB_PORT,
} from '../test-support/production-env';

const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const APP_PORT = 3290 + OFFSET;
const STUB_PORT = 3291 + OFFSET; // the test's contact API
const APP = `http://127.0.0.1:${APP_PORT}`;
const STUB = `http://127.0.0.1:${STUB_PORT}`;
const PROD_STUB = `http://127.0.0.1:${PROD_STUB_PORT}`;
const DROP = (process.env.ENV_ISOLATION_DROP ?? '').split(',').filter(Boolean);

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
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => void cleanUp().then(() => process.exit(130)));

/* ---------- What "production" looks like, watched ---------- */

const redis = await startRedisServer(PROD_REDIS_PORT);
stopRedis = redis.stop;
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
let prodPgConnections = 0;
const prodPg = net.createServer((socket) => {
  prodPgConnections += 1;
  socket.destroy();
});
await new Promise<void>((resolve) => prodPg.listen(PROD_PG_PORT, '127.0.0.1', resolve));

let prodHookRequests = 0;
const prodHooks = net.createServer((socket) => {
  prodHookRequests += 1;
  socket.destroy();
});
await new Promise<void>((resolve) => prodHooks.listen(PROD_HOOKS_PORT, '127.0.0.1', resolve));

servers.push(await startStubApi(STUB_PORT), await startStubApi(PROD_STUB_PORT));

/* ---------- The test's own build and server, isolated ---------- */

const env = {
  NEXT_PUBLIC_SITE_URL: APP,
  CONTACT_API_BASE_URL: `${STUB}/api/`,
  CONTACT_SITE_KEY: 'clave-de-prueba',
  CONTACT_INBOX_DIR: path.join(work, 'prueba'),
  CONTACT_OUTBOX_BACKOFF_SECONDS: '1',
};
if (DROP.length) console.log(`Left out of the isolated environment on purpose: ${DROP.join(', ')}`);

let buildLog = '';
const serverLog = path.join(work, 'server.log');
try {
  // With variables left out on purpose, a build of its own: the no-tags one must stay as the other runs expect it.
  const spec = DROP.length ? { ...NO_TAGS_APP, name: 'env-isolation' } : NO_TAGS_APP;
  const dir = await buildApp(spec, { without: DROP });
  buildLog = readFileSync(path.join(dir, BUILD_LOG), 'utf8');
  servers.push(await startNext(dir, { port: APP_PORT, env, without: DROP, log: serverLog }));
} catch (error) {
  console.error(error);
  await cleanUp();
  process.exit(1);
}

/* ---------- A visitor's enquiry while the test's API is down ---------- */

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
// Down long enough for the live attempts and a round or two: the enquiry must wait in the test's world.
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
const answer = await (
  await fetch(`${APP}/`, {
    method: 'POST',
    headers: { Accept: 'text/x-component', 'Next-Action': actionId, Origin: APP },
    body,
  })
).text();
const visitorState = answer.match(/"status":"(sent|failed|invalid|confirm)"/)?.[1] ?? 'none';

let storedByTestStub = 0;
for (let i = 0; i < 30 && storedByTestStub === 0; i++) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const summary = (await (await fetch(`${STUB}/__summary`)).json()) as {
    storedByMail: Record<string, number>;
  };
  storedByTestStub = summary.storedByMail[mail] ?? 0;
}
// A delivered lead is sent on to the configured webhook and Graph API within a second or two: give it time to.
await new Promise((resolve) => setTimeout(resolve, 4000));
const testSummary = (await (await fetch(`${STUB}/__summary`)).json()) as {
  storedByMail: Record<string, number>;
};
const prodSummary = (await (await fetch(`${PROD_STUB}/__summary`)).json()) as { attempts: number };

/* ---------- The checks ---------- */

monitor.disconnect();

// next build says which .env files it loaded (next start says so only in dev): ours must be there, or this proves nothing.
const checks: Array<[string, boolean, string]> = [
  ['next build read the test’s .env.local', /Environments:.*\.env\.local/.test(buildLog), ''],
  [
    'the visitor was thanked (the enquiry waits in the test’s world)',
    visitorState === 'sent',
    visitorState,
  ],
  [
    'the test’s stub API stored the enquiry exactly once',
    storedByTestStub === 1,
    String(storedByTestStub),
  ],
  [
    'the lead’s run is in the test’s own local world',
    existsSync(path.join(work, 'prueba', 'workflow', 'runs')),
    '',
  ],
  [
    'the watched PostgreSQL (production’s world) got no connection',
    prodPgConnections === 0,
    String(prodPgConnections),
  ],
  [
    'the watched Redis got no command',
    redisCommands.length === 0,
    `${redisCommands.length}: ${redisCommands.slice(0, 5).join(' | ')}`,
  ],
  [
    'the test’s stub got nothing but the test’s enquiry',
    Object.keys(testSummary.storedByMail).every((stored) => stored === mail),
    '',
  ],
  [
    'the watched contact API got no attempt',
    prodSummary.attempts === 0,
    String(prodSummary.attempts),
  ],
  [
    'the watched mail server got no connection',
    prodSmtpConnections === 0,
    String(prodSmtpConnections),
  ],
  [
    'the watched lead webhook and Graph API got no connection',
    prodHookRequests === 0,
    String(prodHookRequests),
  ],
  [
    'the page carries none of production’s NEXT_PUBLIC_ values',
    PROD_PUBLIC.every((value) => !html.includes(value)),
    '',
  ],
];
const said = (log: string) =>
  log
    .split('\n')
    .filter((line) => /Environments:|\[contacto\]|\[Workflow\]|\[world-local\]|Error/.test(line))
    .map((line) => `  ${line.trim()}`);
console.log(
  `\nWhat next build and next start said:\n${[...said(buildLog), ...said(readFileSync(serverLog, 'utf8'))].join('\n')}\n`,
);
for (const [name, ok, seen] of checks)
  console.log(`${ok ? '✓' : '✗'} ${name}${ok ? '' : ` (seen: ${seen})`}`);
const failed = checks.filter(([, ok]) => !ok).length;
console.log(`${checks.length - failed} passed, ${failed} failed`);
prodSmtp.close();
prodPg.close();
prodHooks.close();
await cleanUp();
process.exit(failed ? 1 : 0);
