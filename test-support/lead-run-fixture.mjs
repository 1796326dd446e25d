// For lib/contact/lead/forget.test.ts: writes one lead's run into a world through the world's
// own API, as start() and the engine write it, and prints its id:
// `node test-support/lead-run-fixture.mjs <local world's folder | postgres://…> <mail> running|completed|cancelled|waiting-moved`.
// With `<runId> resend` instead, it replays what the queue does when it sends a run's first message again (after a
// sleep): run_started carrying the run's input, which re-creates a run that is gone. It prints the run's status after.
// A child process because the worlds are ESM only, which Jest's CommonJS
// runtime cannot load. The world's queue is never started: nothing runs.
import { dehydrateStepReturnValue, dehydrateWorkflowArguments } from '@workflow/core/serialization';
import { createLocalWorld } from '@workflow/world-local';
import { createWorld } from '@workflow/world-postgres';
import { ulid } from 'ulid';

const [where, mail, end] = process.argv.slice(2);
const world = where.startsWith('postgres://')
  ? createWorld({ connectionString: where })
  : createLocalWorld({ dataDir: where, recoverActiveRuns: false });

if (end === 'resend') {
  const runId = mail;
  const input = await dehydrateWorkflowArguments(
    [{ key: 'k', enquiry: { mail: 'resent@example.mx' } }],
    runId,
    undefined,
  );
  const eventData = {
    deploymentId: 'dpl_test',
    workflowName: 'workflow//./lib/contact/lead/workflow//leadWorkflow',
    input,
  };
  const said = await world.events.create(runId, { eventType: 'run_started', eventData }).then(
    ({ run }) => run.status,
    (error) => error.name,
  );
  await world.close?.();
  console.log(said);
  process.exit(0);
}

if (end === 'waiting-moved') {
  // A lead waiting between rounds, written by a build whose steps lived in files of their own (before the lead's
  // life moved into lib/contact/lead/workflow.ts): its log names the step by its old id. Prints `runId key`.
  const lead = {
    key: crypto.randomUUID(),
    enquiry: {
      name: 'Rocío Mudanza',
      mail,
      phone: '+525544332211',
      reason: 'Necesito una tienda en línea.',
      captcha: '',
    },
    receivedAt: Date.now(),
    backoffSeconds: [1],
    keepMs: 30 * 24 * 60 * 60 * 1000,
    round: 1,
    alerted: true,
    forwarded: true,
  };
  const { readFileSync } = await import('node:fs');
  const pkg = new URL('../node_modules/@workflow/world-local/package.json', import.meta.url);
  const { version } = JSON.parse(readFileSync(pkg, 'utf8'));
  const input = await dehydrateWorkflowArguments([lead], `wrun_${ulid()}`, undefined);
  const { run } = await world.events.create(null, {
    eventType: 'run_created',
    eventData: {
      deploymentId: `dpl_local@${version}`,
      workflowName: 'workflow//./lib/contact/lead/workflow//leadWorkflow',
      input,
    },
  });
  const event = (data) => world.events.create(run.runId, data);
  const [step, wait] = [`step_${ulid()}`, `wait_${ulid()}`];
  await event({ eventType: 'run_started' });
  const stepName = 'step//./lib/contact/lead/deliver-step//deliverRound';
  await event({ eventType: 'step_created', correlationId: step, eventData: { stepName, input } });
  await event({ eventType: 'step_started', correlationId: step });
  const result = await dehydrateStepReturnValue(
    { outcome: 'unavailable', failures: 'http-503' },
    run.runId,
    undefined,
  );
  await event({ eventType: 'step_completed', correlationId: step, eventData: { result } });
  await event({
    eventType: 'wait_created',
    correlationId: wait,
    eventData: { resumeAt: new Date(Date.now() + 1000) },
  });
  await world.close?.();
  console.log(`${run.runId} ${lead.key}`);
  process.exit(0);
}

const lead = {
  key: crypto.randomUUID(),
  enquiry: {
    name: 'Mariana Peña',
    mail,
    phone: '5512345678',
    reason: 'Quiero una página para mi cafetería en Coyoacán.',
    captcha: '',
  },
  receivedAt: Date.now(),
  backoffSeconds: [60, 300],
  keepMs: 30 * 24 * 60 * 60 * 1000,
  spamRule: 'only-links',
};
const input = await dehydrateWorkflowArguments([lead], `wrun_${ulid()}`, undefined);
const { run } = await world.events.create(null, {
  eventType: 'run_created',
  eventData: {
    deploymentId: 'dpl_test',
    workflowName: 'workflow//./lib/contact/lead/workflow//leadWorkflow',
    input,
  },
});
const { runId } = run;
const event = (data) => world.events.create(runId, data);
const [hook, step, wait] = [`hook_${ulid()}`, `step_${ulid()}`, `wait_${ulid()}`];

// A held-back spam: its release hook (released and disposed once completed), a delivery round, a wait, a stream chunk.
await event({ eventType: 'run_started' });
await event({
  eventType: 'hook_created',
  correlationId: hook,
  eventData: { token: `lead-release:${lead.key}`, isWebhook: false },
});
if (end === 'completed') {
  await event({
    eventType: 'hook_received',
    correlationId: hook,
    eventData: { payload: await dehydrateStepReturnValue({ released: true }, runId, undefined) },
  });
  await event({ eventType: 'hook_disposed', correlationId: hook });
}
await event({
  eventType: 'step_created',
  correlationId: step,
  eventData: { stepName: 'step//./lib/contact/lead/deliver-step//deliverRound', input },
});
await event({ eventType: 'step_started', correlationId: step });
await event({
  eventType: 'step_completed',
  correlationId: step,
  eventData: { result: await dehydrateStepReturnValue({ outcome: 'retry' }, runId, undefined) },
});
await event({
  eventType: 'wait_created',
  correlationId: wait,
  eventData: { resumeAt: new Date(Date.now() + 60_000) },
});
await world.writeToStream(`strm_${ulid()}_user`, runId, `${mail}\n`);
if (end !== 'running') await event({ eventType: 'wait_completed', correlationId: wait });
if (end === 'completed') {
  const output = await dehydrateStepReturnValue(
    { outcome: 'dead', reason: 'expired', deadAt: Date.now() },
    runId,
    undefined,
  );
  await event({ eventType: 'run_completed', eventData: { output } });
}
if (end === 'cancelled') await event({ eventType: 'run_cancelled' });
await world.close?.();
console.log(runId);
