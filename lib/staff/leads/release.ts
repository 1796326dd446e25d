import 'server-only';
import { resumeHook } from 'workflow/api';
import { HookNotFoundError } from 'workflow/errors';
import { releaseToken } from '@/lib/contact/lead/lead';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import { engineStorage } from '@/lib/engine/storage';
import { leadRuns, type LeadRun, type World } from './runs';

/** What releasing a suspected spam came to: released, or why not. */
export type ReleaseResult =
  | { result: 'released'; runId: string; takenUp: boolean }
  /** Local world: the server that delivers is not answering at its door (nothing is released). */
  | { result: 'server-down'; serverUrl: string; dir: string }
  | { result: 'unknown' | 'not-spam' | 'not-waiting-yet' | 'expired' | 'already-released' };

/**
 * Delivers a suspected spam like any lead: resumes the hook its run waits on. `serverUrl`, from a process that is not
 * the server (the command line), is the local world's door: checked first, because without the server the local world
 * delivers nothing. `waitMs`: how long to watch for a server taking the run up (`takenUp`).
 */
export async function release(
  key: string,
  {
    serverUrl,
    waitMs = 20_000,
    world = engineStorage(),
  }: { serverUrl?: string; waitMs?: number; world?: World } = {},
): Promise<ReleaseResult> {
  const where = getWorkflowWorld();
  if (serverUrl && where.kind === 'local' && !(await serverAnswers(serverUrl)))
    return { result: 'server-down', serverUrl, dir: where.dir };
  try {
    const hook = await resumeHook(releaseToken(key), { released: true });
    return {
      result: 'released',
      runId: hook.runId,
      takenUp: await movedOn(world, hook.runId, waitMs),
    };
  } catch (error) {
    if (!HookNotFoundError.is(error)) throw error;
  }
  // No hook to resume: why, from the lead's run.
  let found: LeadRun | undefined;
  for await (const run of leadRuns(world)) if (run.lead.key === key) found = run;
  return {
    result: !found
      ? 'unknown'
      : !found.lead.spamRule
        ? 'not-spam'
        : found.state === 'spam'
          ? 'not-waiting-yet'
          : found.state === 'spam-expired'
            ? 'expired'
            : 'already-released',
  };
}

/** Whether the server's workflow endpoint answers its health check (the local world delivers nothing without it). */
export async function serverAnswers(base: string): Promise<boolean> {
  try {
    const response = await fetch(
      `${base.replace(/\/+$/, '')}/.well-known/workflow/v1/flow?__health`,
      {
        method: 'POST',
        signal: AbortSignal.timeout(3000),
      },
    );
    return response.ok && ((await response.json()) as { healthy?: unknown }).healthy === true;
  } catch {
    return false;
  }
}

/** After a release: true once the run moved past it (an event after the hook's), i.e. a server took it up. */
async function movedOn(world: World, runId: string, withinMs: number): Promise<boolean> {
  for (
    const until = Date.now() + withinMs;
    Date.now() < until;
    await new Promise((resolve) => setTimeout(resolve, 500))
  ) {
    const { data } = await world.events.list({
      runId,
      resolveData: 'none',
      pagination: { limit: 1, sortOrder: 'desc' },
    });
    if (data[0] && data[0].eventType !== 'hook_received') return true;
  }
  return false;
}
