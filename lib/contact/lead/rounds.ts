import { sleep } from 'workflow';
import { DEAD_AFTER_MS, ROUNDS_PER_RUN, waitBeforeRound, type Try } from './lead';

// The one retry idiom of the lead's workflow and of its forwarding copies: rounds of one step, a wait between them, a
// fresh run every ROUNDS_PER_RUN rounds, and 24 hours in all. Our loop, not the engine's step retries, decides when to
// try again: a round's outcome sets the next wait, honours Retry-After and counts the 24 hours, so the steps never
// throw; the engine retries only what it alone sees fail (a lost delivery, a step cut off: lib/engine/rescue.ts).
// Called from a workflow's body: `sleep`, `Date.now` and `Math.random` are the engine's, replayed alike.

export type Rounds = {
  /** The first round of this run: 0 tries at once, 1 follows the live attempt, more in a fresh run. */
  from: number;
  /** When the visitor sent it: undelivered 24 hours later, it is given up. */
  receivedAt: number;
  /** The waits between rounds, in seconds; the last one repeats. */
  backoffSeconds: readonly number[];
  /** A Retry-After (ms) the round before `from` was given. */
  retryAfterMs?: number;
  /** One round: a step that never throws. */
  attempt: () => Promise<Try>;
  /** After a round that did not deliver (the lead tells the agency once). */
  afterFailure?: () => Promise<void>;
  /** A step that starts a fresh run going on from `round`, with the Retry-After the last round was given. */
  goOnInNewRun: (round: number, retryAfterMs: number) => Promise<void>;
};

/** How the rounds ended: delivered in round `rounds - 1`, the receiver's final no, 24 hours spent, or a fresh run. */
export type RoundsEnd =
  | { outcome: 'delivered'; rounds: number }
  | { outcome: 'refused'; refusal?: string }
  | { outcome: 'expired'; lastFailure: string }
  | { outcome: 'continued' };

export async function tryInRounds(plan: Rounds): Promise<RoundsEnd> {
  let retryAfterMs = plan.retryAfterMs ?? 0;
  let lastFailure = '';
  for (let round = plan.from; ; round += 1) {
    if (round > 0) {
      const wait = waitBeforeRound(round, plan.backoffSeconds, retryAfterMs, Math.random());
      if (Date.now() + wait - plan.receivedAt > DEAD_AFTER_MS)
        return { outcome: 'expired', lastFailure };
      await sleep(wait);
    }
    const result = await plan.attempt();
    if (result.outcome === 'delivered') return { outcome: 'delivered', rounds: round + 1 };
    if (result.outcome === 'refused') return { outcome: 'refused', refusal: result.refusal };
    retryAfterMs = result.retryAfterMs ?? 0;
    lastFailure = result.failures;
    await plan.afterFailure?.();
    if (round + 1 - plan.from >= ROUNDS_PER_RUN) {
      await plan.goOnInNewRun(round + 1, retryAfterMs);
      return { outcome: 'continued' };
    }
  }
}
