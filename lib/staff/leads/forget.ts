import 'server-only';
import { getRun, start } from 'workflow/api';
import { forgetRun } from '@/lib/engine/forget-run';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import { engineStorage, FORGET_WORKFLOW_ID } from '@/lib/engine/storage';
import { getDeliveryConfig, getInboxDir } from '@/lib/env/server';
import { forgetInInbox } from './inbox';
import { forwardRunsOf, leadRuns, type World } from './runs';
import { normalMail } from '@/lib/contact/fields';

/** What forgetting a person did, and what it could not reach. */
export type ForgetReport = {
  mail: string;
  /** Their lead runs found: deleted, or on Vercel cancelled if live and left to the platform. */
  leads: number;
  /** Of those, still being delivered or held: cancelled first, so never delivered. */
  cancelled: number;
  /** Their copies on the way to the webhook or Meta, stopped (and deleted where the world allows). */
  forwards: number;
  /** Whether the runs themselves were deleted: not on Vercel, whose API has no delete (its retention keeps them). */
  runsDeleted: boolean;
  /** Their lines in the local inbox (CONTACT_INBOX_DIR). */
  inbox: { dir: string; files: number; lines: number };
  /** What is out of reach from here, to be asked for where it is. */
  beyondReach: (
    'contact-api' | 'alert-mails' | 'exported-csv' | 'webhook-copies' | 'vercel-runs'
  )[];
};

/** Passes: each finds the runs a continuation started while the last one was being cancelled. */
const PASSES = 5;
/** A step's own bound is 10 s (the API's and receivers' timeouts); a step still "running" past this crashed. */
const STEP_SETTLE_MS = 15_000;

/**
 * A person's request to be forgotten (Mexico's ARCO right): their lead runs and their copies being sent on (cancelled
 * first if still running), and their local inbox lines. On Vercel the runs are cancelled but stay with the platform.
 */
export async function forget(
  address: string,
  world: World = engineStorage(),
): Promise<ForgetReport> {
  const mail = normalMail(address);
  const deletes = getWorkflowWorld().kind !== 'vercel';
  const report: ForgetReport = {
    mail,
    leads: 0,
    cancelled: 0,
    forwards: 0,
    runsDeleted: deletes,
    inbox: { dir: getInboxDir(), files: 0, lines: 0 },
    beyondReach: [
      'contact-api',
      'alert-mails',
      'exported-csv',
      'webhook-copies',
      ...(deletes ? [] : ['vercel-runs' as const]),
    ],
  };
  // A run cancelled in the middle of a step still finishes that step, and a continuation step (ROUNDS_PER_RUN)
  // starts a fresh run of the person's lead or copy. So each cancelled run's step is waited for, and the runs
  // are looked for again, until a pass finds none: nothing of theirs is left to start another.
  const done = new Set<string>();
  for (let pass = 0; pass < PASSES; pass += 1) {
    const theirs: { runId: string; live: boolean; forward: boolean }[] = [];
    for await (const run of leadRuns(world)) {
      if (done.has(run.runId) || normalMail(run.lead.enquiry.mail) !== mail) continue;
      theirs.push({
        runId: run.runId,
        live: run.state === 'pending' || run.state === 'spam',
        forward: false,
      });
    }
    for await (const run of forwardRunsOf(mail, world))
      if (!done.has(run.runId)) theirs.push({ ...run, forward: true });
    if (!theirs.length) break;
    for (const { runId } of theirs.filter((run) => run.live)) {
      await getRun(runId).cancel();
      await stepsSettled(world, runId, STEP_SETTLE_MS);
    }
    for (const { runId, live, forward } of theirs) {
      if (deletes) {
        // A run stopped just now keeps an empty, cancelled record so that no message left in the queue
        // re-creates it (lib/engine/forget-run.ts); the engine forgets that record after the usual period.
        await forgetRun(runId, { tombstone: live });
        if (live)
          await start({ workflowId: FORGET_WORKFLOW_ID }, [
            runId,
            Date.now() + getDeliveryConfig().keepMs,
          ]);
      }
      done.add(runId);
      if (forward) report.forwards += 1;
      else {
        report.leads += 1;
        if (live) report.cancelled += 1;
      }
    }
  }
  report.inbox = { ...report.inbox, ...(await forgetInInbox(report.inbox.dir, mail)) };
  return report;
}

/** Waits until none of the run's steps is running: a cancelled run may still be finishing one. */
async function stepsSettled(world: World, runId: string, withinMs: number): Promise<void> {
  for (
    const until = Date.now() + withinMs;
    Date.now() < until;
    await new Promise((resolve) => setTimeout(resolve, 250))
  ) {
    const { data } = await world.steps.list({
      runId,
      resolveData: 'none',
      pagination: { limit: 100 },
    });
    if (!data.some((step) => step.status === 'running')) return;
  }
}
