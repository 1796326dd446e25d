import { expect, test } from './support/fixtures';
import { sendAsPersonWithoutScripts } from './support/form-post';
import { runsFor } from './support/leads';
import { startServer } from './support/server';
import { records, setScenario, uniqueMail } from './support/stub';
import { DATA_DIR, E2E_BUILD_ENV, RETENTION_PORT } from './support/test-env';

/*
 * No personal data outlives the privacy notice's periods, with no scheduler:
 * here the periods are cut to 20 s (CONTACT_KEEP_DAYS), and the engine itself
 * forgets a delivered lead at once, a dead letter and a suspected spam once
 * their period is over.
 */
const KEEP_SECONDS = 20;
const env = {
  ...E2E_BUILD_ENV,
  CONTACT_INBOX_DIR: `${DATA_DIR}/retention`,
  CONTACT_KEEP_DAYS: String(KEEP_SECONDS / 86_400),
};
const BASE = `http://127.0.0.1:${RETENTION_PORT}`;
const person = (mail: string) => ({
  name: 'Teresa Plazos',
  mail,
  phone: '5512345678',
  reason: 'Quiero una tienda en línea.',
});
const runs = (mail: string) => runsFor(mail, 'retention');

test.describe.configure({ mode: 'serial' });
let server: { url: string; kill: () => void };
test.beforeAll(async () => {
  server = await startServer(RETENTION_PORT, env);
});
test.afterAll(() => server?.kill());

test('a dead letter is kept for the period, then forgotten by the engine itself', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const mail = uniqueMail('retention-dead');
  // Down live, then refused on the next round: a dead letter.
  await setScenario(mail, [
    { status: 503 },
    { status: 503 },
    { status: 503 },
    { status: 503 },
    { status: 400, mes: 'Rechazada' },
  ]);
  expect((await sendAsPersonWithoutScripts(request, BASE, person(mail))).kind).toBe('thanks');
  await expect
    .poll(() => runs(mail).map((run) => run.outcome?.outcome), { timeout: 30_000 })
    .toEqual(['dead']);
  const deadAt = Date.now();
  // Kept for the agency meanwhile...
  await new Promise((resolve) => setTimeout(resolve, (KEEP_SECONDS / 2) * 1000));
  expect(runs(mail)).toHaveLength(1);
  // ...and gone once the period is over: nothing of it is left on disk.
  await expect.poll(() => runs(mail), { timeout: 60_000, intervals: [1000] }).toEqual([]);
  expect(Date.now() - deadAt).toBeGreaterThanOrEqual(KEEP_SECONDS * 1000 - 2000);
  expect((await records(mail)).stored).toHaveLength(0);
});

test('a suspected spam waits the period for a release, then is forgotten', async ({ request }) => {
  test.setTimeout(120_000);
  const mail = uniqueMail('retention-spam');
  // A link-only reason: the content rules hold it back.
  const answer = await sendAsPersonWithoutScripts(request, BASE, {
    ...person(mail),
    reason: 'https://a.example https://b.example',
  });
  expect(answer.kind).toBe('thanks');
  await expect.poll(() => runs(mail).length).toBe(1);
  await expect.poll(() => runs(mail), { timeout: 60_000, intervals: [1000] }).toEqual([]);
  expect((await records(mail)).attempts).toHaveLength(0);
});
