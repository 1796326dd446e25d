import type { ContactEnquiry } from '../schema';
import type { LeadSource } from '@/lib/source';
import type { Visitor } from './forward';

/**
 * One enquiry as the lead's workflow carries it (workflow.ts). Everything here
 * is serialisable and stored by the engine with the run: the visitor's fields,
 * never a secret (the steps read the contact settings where they run).
 */
export type Lead = {
  /** The Idempotency-Key of every attempt, live or later: the API stores it once. */
  key: string;
  enquiry: ContactEnquiry;
  /** ms since the epoch. */
  receivedAt: number;
  /** The waits between rounds, in seconds (CONTACT_OUTBOX_BACKOFF_SECONDS; the last one repeats). */
  backoffSeconds: readonly number[];
  /** How long a dead letter or a suspected spam is kept before it is forgotten (CONTACT_KEEP_DAYS, in ms). */
  keepMs: number;
  /** The live attempt's Retry-After (ms): the first round waits at least this long. */
  retryAfterMs?: number;
  /** Where it came from (lib/contact/source.ts): for the agency's alerts and exports, never the contact API. */
  source?: LeadSource;
  /** What Meta's Conversions API matches the visitor with, when it is configured (forward.ts). */
  visitor?: Visitor;
  /** Set when the spam filter held it back: the run waits to be released (npm run leads -- release). */
  spamRule?: string;
  /** Carried on by a run that hands the lead to a fresh one (see ROUNDS_PER_RUN): the next round, and whether the agency was told. */
  round?: number;
  alerted?: boolean;
  /** Set by the same hand-over: the lead was already sent on to the webhook and Meta. */
  forwarded?: boolean;
};

/** How a lead's run ended: its return value, read by `npm run leads`. */
export type LeadOutcome =
  | { outcome: 'delivered'; rounds: number }
  | { outcome: 'dead'; reason: 'refused' | 'expired'; refusal?: string; lastFailure?: string; deadAt: number }
  | { outcome: 'spam-expired' }
  /** Handed to a fresh run of the same workflow, which goes on from the next round. */
  | { outcome: 'continued' };

/**
 * Rounds one run makes before it hands the lead to a fresh run. The engine
 * gives each queue message at most 48 deliveries, and on the local world every
 * wake from a sleep and every failed delivery (5 s apart: a full disk) spends
 * one of the run's: a run that waited through many rounds would fail, losing
 * its lead, at the next fault. A fresh run every few rounds keeps the budget
 * for faults (about 4 minutes of them).
 */
export const ROUNDS_PER_RUN = 6;
/** Undelivered this long: a dead letter, given up and kept for the agency. */
export const DEAD_AFTER_MS = 24 * 60 * 60 * 1000;
/** The hook a held-back spam waits on; `release` resumes it. */
export const releaseToken = (key: string) => `lead-release:${key}`;

/**
 * The wait before round `round` (1 is the first after the live attempt): the
 * configured backoff with up to 20% jitter, so leads caught by one outage do
 * not all come back in the same second, and never sooner than a Retry-After.
 */
export function waitBeforeRound(round: number, backoffSeconds: readonly number[], retryAfterMs: number, random: number): number {
  const base = (backoffSeconds[Math.min(round - 1, backoffSeconds.length - 1)] ?? 60) * 1000;
  const jittered = Math.round(base * (1 + 0.2 * random));
  return Math.max(jittered, Math.min(retryAfterMs, maxRetryAfterMs(backoffSeconds)));
}

/** A Retry-After is honoured up to the longest wait between rounds (at least a minute), never longer. */
export function maxRetryAfterMs(backoffSeconds: readonly number[]): number {
  return Math.max(60, ...backoffSeconds) * 1000;
}
