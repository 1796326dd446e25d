// An attacker's forgery of the engine's messages, for e2e/engine-seal.spec.ts:
// `node test-support/forge-engine.mjs <site's public URL> <manifest.json> <mail> <empty folder>`.
// It does what issue 40 saw done: the Workflow SDK's own client (start() of workflow/api, a local
// world of its own with WORKFLOW_LOCAL_BASE_URL at the site) sends a "start this run" message for
// every workflow the build serves, carrying a lead it made up; then it posts raw step messages and
// the same start with every header a client could write to pass for the machine itself. It prints
// one JSON line per request it saw answered: { path, status, what, queue }.
// A child process because the worlds are ESM only (see lead-run-fixture.mjs).
import { readFileSync } from 'node:fs';
import { ulid } from 'ulid';

const [site, manifestFile, mail, dataDir] = process.argv.slice(2);
Object.assign(process.env, {
  WORKFLOW_TARGET_WORLD: 'local',
  WORKFLOW_LOCAL_DATA_DIR: dataDir,
  WORKFLOW_LOCAL_BASE_URL: site,
});
const answered = [];
const realFetch = globalThis.fetch;
// Every request the engine's client makes, answered: its first attempt is what counts.
globalThis.fetch = async (url, init) => {
  const response = await realFetch(url, init);
  if (String(url).startsWith(site))
    answered.push({
      path: new URL(String(url)).pathname,
      status: response.status,
      what: init?.headers?.['x-forja'] ? 'raw' : 'client',
      queue: init?.headers?.['x-vqs-queue-name'],
    });
  return response;
};
const { start } = await import('workflow/api');

const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
const workflowIds = Object.values(manifest.workflows).flatMap((file) =>
  Object.values(file).map((entry) => entry.workflowId),
);
const stepIds = Object.values(manifest.steps).flatMap((file) =>
  Object.values(file).map((entry) => entry.stepId),
);
const lead = {
  key: crypto.randomUUID(),
  enquiry: {
    name: 'Atacante Falso',
    mail,
    phone: '+52 55 0000 0000',
    reason: 'Solicitud inventada por quien no pasó por el formulario.',
    captcha: '',
  },
  receivedAt: Date.now(),
  backoffSeconds: [1],
  keepMs: 60_000,
  visitor: { ip: '203.0.113.9', userAgent: 'forja', fbc: 'fb.1.1.forja' },
};
for (const workflowId of workflowIds)
  await start({ workflowId }, [lead, lead.key, Date.now()]).catch((error) =>
    console.error(`start ${workflowId}: ${error}`),
  );

// The same kind of message by hand, dressed as the machine itself, and each step run directly.
const message = (queueName, body, headers = {}) =>
  fetch(
    `${site}/.well-known/workflow/v1/${queueName.startsWith('__wkf_step_') ? 'step' : 'flow'}`,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forja': '1',
        'x-vqs-queue-name': queueName,
        'x-vqs-message-id': `msg_${ulid()}`,
        'x-vqs-message-attempt': '1',
        ...headers,
      },
      body: JSON.stringify(body),
    },
  );
const disguises = [
  { host: 'localhost' },
  { host: '127.0.0.1' },
  {
    'x-forwarded-for': '127.0.0.1',
    'x-real-ip': '127.0.0.1',
    forwarded: 'for=127.0.0.1;host=localhost',
  },
  {
    'x-forwarded-host': 'localhost',
    'x-vercel-forwarded-for': '127.0.0.1',
    'x-vercel-id': 'forja',
  },
  { 'x-engine-delivery-key': 'adivinada' },
];
const runId = `wrun_${ulid()}`;
for (const headers of disguises) {
  for (const workflowId of workflowIds)
    await message(`__wkf_workflow_${workflowId}`, { runId }, headers);
}
for (const stepId of stepIds) {
  await message(`__wkf_step_${stepId}`, {
    workflowName: workflowIds[0],
    workflowRunId: runId,
    workflowStartedAt: Date.now(),
    stepId: `step_${ulid()}`,
  });
}
// The engine's client sends its start messages in the background: wait for each one's first answer.
for (
  const stop = Date.now() + 10_000;
  answered.filter((hit) => hit.what === 'client').length < workflowIds.length && Date.now() < stop;
) {
  await new Promise((resolve) => setTimeout(resolve, 100));
}
for (const hit of answered) console.log(JSON.stringify(hit));
process.exit(0);
