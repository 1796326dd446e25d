import type { ContactEnquiry } from '../schema';
import type { LeadSource } from '@/lib/contact/source';
import type { CutVerdict } from '@/lib/engine/cut-off';
import type { Visitor } from './forward';

/** One enquiry as the lead's workflow carries it: stored with the run, so never a secret (steps read those). */
export type Lead = {
  /** The Idempotency-Key of every attempt, live or later: the API stores it once. */
  key: string;
  enquiry: ContactEnquiry;
  receivedAt: number;
  /** The waits between rounds, in seconds (CONTACT_OUTBOX_BACKOFF_SECONDS; the last one repeats). */
  backoffSeconds: readonly number[];
  /** How long a dead letter or a suspected spam is kept before it is forgotten (CONTACT_KEEP_DAYS, in ms). */
  keepMs: number;
  /** The live attempt's Retry-After (ms): the first round waits at least this long. */
  retryAfterMs?: number;
  /** For the agency's alerts and exports, never the contact API. */
  source?: LeadSource;
  /** What Meta's Conversions API matches the visitor with, when it is configured. */
  visitor?: Visitor;
  /** Set when the spam filter held it back: the run waits to be released. */
  spamRule?: string;
  /** Carried to a fresh run (ROUNDS_PER_RUN): its next round, whether the agency was told, and the lead sent on. */
  round?: number;
  alerted?: boolean;
  forwarded?: boolean;
};

// One vocabulary for what became of a lead, from the contact API's client to `npm run leads`. A try is 'delivered'
// (the receiver took it), 'refused' (its final no) or 'unavailable' (not now: the workflow tries again). A run ends
// 'delivered', 'dead' (refused, or expired: 24 hours undelivered), 'continued' in a fresh run, or, for a suspected spam
// never released, 'spam-expired'. Builds before 2026-11-27 stored 'accepted' and 'sent' for delivered: see DELIVERED.

export type { Try } from '../upstream-response';

/** How a lead's or a forwarding run ended: its return value, read by `npm run leads`. */
export type RunEnd =
  | { outcome: 'delivered'; rounds: number }
  | {
      outcome: 'dead';
      reason: 'refused' | 'expired';
      refusal?: string;
      lastFailure?: string;
      deadAt: number;
    }
  | { outcome: 'continued' };
export type LeadOutcome = RunEnd | { outcome: 'spam-expired' };

/** A delivered try, as this build or an older one stored it. */
const DELIVERED = ['delivered', 'accepted', 'sent'];

// Rounds before a fresh run takes over: the engine gives a queue message 48 deliveries, and locally every wake and
// every failed delivery (5 s apart: a full disk) spends one, so a long run would lose its lead at the next fault. This
// keeps about 4 minutes of faults in budget.
export const ROUNDS_PER_RUN = 6;
/** Undelivered this long: a dead letter, given up and kept for the agency. */
export const DEAD_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * The lead a fresh run goes on with, from `carried.round`. Released, if it was held as spam: a fresh run is only
 * started for one past its wait, so that run delivers at once on its schedule.
 */
export function goingOn(
  lead: Lead,
  carried: { round: number; alerted: boolean; forwarded: boolean; retryAfterMs?: number },
): Lead {
  const { spamRule: _released, ...rest } = lead;
  return { ...rest, ...carried };
}

/** The hook a held-back spam waits on; `release` resumes it. */
export const releaseToken = (key: string) => `lead-release:${key}`;

/**
 * The wait before round `round` (1 follows the live attempt): the backoff plus up to 20% jitter, so an outage's leads
 * do not all return at once; never sooner than Retry-After.
 */
export function waitBeforeRound(
  round: number,
  backoffSeconds: readonly number[],
  retryAfterMs: number,
  random: number,
) {
  const base = (backoffSeconds[Math.min(round - 1, backoffSeconds.length - 1)] ?? 60) * 1000;
  const jittered = Math.round(base * (1 + 0.2 * random));
  return Math.max(jittered, Math.min(retryAfterMs, maxRetryAfterMs(backoffSeconds)));
}

/** A Retry-After is honoured up to the longest wait between rounds (at least a minute), never longer. */
export const maxRetryAfterMs = (backoffSeconds: readonly number[]) =>
  Math.max(60, ...backoffSeconds) * 1000;

/**
 * What a lead's or forwarding run cut off at step `shortName` needs, from its step's result (none when abandoned):
 * 'again', a fresh run; 'forget', only forgetting it now (delivered, answered, or handed on); 'keep', nothing
 * (forgetAfter scheduled it, as the privacy notice says; countLeadOutcome follows it). Never 'again' once the step
 * says delivered: this pass sends no lead twice.
 */
export function leadNeeds(shortName: string | undefined, verdict: CutVerdict, output: unknown) {
  const outcome = String((output as { outcome?: unknown } | undefined)?.outcome);
  if (shortName === 'forgetAfter' || shortName === 'countLeadOutcome') return 'keep';
  if (verdict === 'abandoned') return 'again';
  if (shortName === 'continueInNewRun' || shortName === 'continueForwarding') return 'forget';
  if (shortName === 'deliverRound' && DELIVERED.includes(outcome)) return 'forget';
  if (shortName === 'sendForward' && [...DELIVERED, 'refused'].includes(outcome)) return 'forget';
  return 'again';
}
