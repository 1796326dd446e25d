import 'server-only';
import { parseWorkflowName } from 'workflow/observability';
import { DEAD_AFTER_MS, releaseToken, type Lead, type LeadOutcome } from '@/lib/contact/lead/lead';
import { runData } from '@/lib/engine/run-data';
import { engineStorage, type EngineStorage } from '@/lib/engine/storage';
import { normalMail } from '@/lib/contact/fields';

/** The engine's client: the local files, PostgreSQL, or Vercel's API (the SDK's World). */
export type World = EngineStorage;
type Run = Awaited<ReturnType<World['runs']['list']>>['data'][number];

/** Where a lead is: its run's status, with the lead's own outcome once it ended. */
export type LeadState =
  'pending' | 'spam' | 'delivered' | 'dead' | 'spam-expired' | 'continued' | 'cancelled' | 'failed';
export type LeadRun = {
  runId: string;
  state: LeadState;
  lead: Lead;
  outcome?: LeadOutcome;
  /** When the engine forgets it (ms): a dead letter or a spam after CONTACT_KEEP_DAYS. */
  forgetAt?: number;
  /** Until when a held lead is being redelivered (ms): 24 hours after it came. */
  retriedUntil?: number;
};

const isLead = (value: unknown): value is Lead => {
  const lead = value as Partial<Lead> | null;
  const enquiry = lead?.enquiry;
  return (
    typeof lead?.key === 'string' &&
    typeof lead.receivedAt === 'number' &&
    typeof enquiry?.mail === 'string' &&
    typeof enquiry.name === 'string' &&
    typeof enquiry.phone === 'string'
  );
};

/** Whether a lead's run still waits on its release hook (a held-back spam), by the run's id. */
export type HookCheck = (runId: string) => Promise<boolean>;

/** One lookup per run: what a bounded page uses (a page's few running spam runs, whatever the number of hooks). */
export const hookOfRun =
  (world: World): HookCheck =>
  async (runId) => {
    const { data } = await world.hooks.list({
      runId,
      resolveData: 'none',
      pagination: { limit: 20 },
    });
    return data.some((hook) => hook.token.startsWith(releaseToken('')));
  };

/** Every live release hook, read once: what a full pass over the runs uses (as many lookups as pages of hooks). */
export function anyLiveHook(world: World): HookCheck {
  let waiting: Promise<Set<string>> | undefined;
  const read = async () => {
    const found = new Set<string>();
    for (let cursor: string | undefined; ;) {
      const page = await world.hooks.list({
        resolveData: 'none',
        pagination: { limit: 100, cursor },
      });
      for (const hook of page.data)
        if (hook.token.startsWith(releaseToken(''))) found.add(hook.runId);
      if (!page.hasMore || !page.cursor) return found;
      cursor = page.cursor;
    }
  };
  return async (runId) => (await (waiting ??= read())).has(runId);
}

/** A lead's run with its state, or undefined for another workflow's run (or one whose input is not a lead). */
export async function readLeadRun(
  world: World,
  run: Run,
  hasHook: HookCheck,
): Promise<LeadRun | undefined> {
  if (parseWorkflowName(run.workflowName)?.shortName !== 'leadWorkflow') return undefined;
  const { input, output } = await runData(world, run);
  const lead: unknown = Array.isArray(input) ? input[0] : undefined;
  if (!isLead(lead)) return undefined;
  const outcome = output as LeadOutcome | undefined;
  const state: LeadState =
    run.status === 'pending' || run.status === 'running'
      ? // Not started yet (its hook comes with its first replay), or its hook still live: waiting for a release.
        lead.spamRule && (run.status === 'pending' || (await hasHook(run.runId)))
        ? 'spam'
        : 'pending'
      : run.status === 'completed'
        ? (outcome?.outcome ?? 'failed')
        : run.status;
  // Leads from builds that kept no period carry no keepMs: no date is said for them rather than a wrong one.
  const keepMs = typeof lead.keepMs === 'number' ? lead.keepMs : NaN;
  const forgetAt =
    state === 'dead' && outcome?.outcome === 'dead'
      ? outcome.deadAt + keepMs
      : state === 'spam'
        ? lead.receivedAt + keepMs
        : NaN;
  const when = Number.isFinite(forgetAt)
    ? { forgetAt }
    : state === 'pending'
      ? { retriedUntil: lead.receivedAt + DEAD_AFTER_MS }
      : {};
  return { runId: run.runId, state, lead, ...(outcome ? { outcome } : {}), ...when };
}

/** Every lead's run, newest first, a page at a time (nothing held but the page): for counts and the command line. */
export async function* leadRuns(world: World = engineStorage()): AsyncGenerator<LeadRun> {
  const hasHook = anyLiveHook(world);
  for (let cursor: string | undefined; ;) {
    const page = await world.runs.list({
      resolveData: 'all',
      pagination: { limit: 50, cursor, sortOrder: 'desc' },
    });
    for (const run of page.data) {
      const found = await readLeadRun(world, run, hasHook);
      if (found) yield found;
    }
    if (!page.hasMore || !page.cursor) return;
    cursor = page.cursor;
  }
}

/** The runs sending `mail`'s lead on to the webhook or Meta (lib/contact/lead/forward-workflow.ts), and if live. */
export async function* forwardRunsOf(mail: string, world: World = engineStorage()) {
  for (let cursor: string | undefined; ;) {
    const page = await world.runs.list({ resolveData: 'all', pagination: { limit: 50, cursor } });
    for (const run of page.data) {
      if (parseWorkflowName(run.workflowName)?.shortName !== 'forwardWorkflow') continue;
      const { input } = await runData(world, run);
      const forward = (Array.isArray(input) ? input[0] : undefined) as
        { enquiry?: { mail?: unknown } } | undefined;
      if (typeof forward?.enquiry?.mail !== 'string' || normalMail(forward.enquiry.mail) !== mail)
        continue;
      yield { runId: run.runId, live: run.status === 'pending' || run.status === 'running' };
    }
    if (!page.hasMore || !page.cursor) return;
    cursor = page.cursor;
  }
}
