import type { OutboxEntry } from './entry';
import type { ContactEnquiry } from '../schema';
import type { UpstreamReport } from '../upstream';

/**
 * The delivery policy: how long a visitor waits, when an entry is tried
 * again, and when it is given up. Plain functions of the entry and the clock,
 * used alike by the live request (../deliver.ts) and the flush (flush.ts).
 */

/**
 * With an outbox the visitor waits this long at most for the live delivery (the outbox takes over after
 * it): about 3 s, leaving room under the 4 s promised when the API hangs on a busy server; a slow but
 * working API (2 s) still gets its one 2.5 s attempt.
 */
export const LIVE_DEADLINE_MS = 2700;
/** The action answers within this of its start, whatever a store or the API does (the form promises 4 s). */
export const ANSWER_WITHIN_MS = 3600;
/** How long the visitor waits for the outbox to store the enquiry; a store that answers later stores nothing. */
export const STORE_WAIT_MS = 1000;
/** One more try in after(), within what is left of the action's 10 s (maxDuration on /). */
export const BACKGROUND_DEADLINE_MS = 4000;
/**
 * Everything the action does in after() ends this long after it began: inside the 10 s of maxDuration
 * on /, with a second to spare for the last write or alert. (Cut short anyway, nothing is lost: the lease
 * runs out and the entry is replayed with the same key.)
 */
export const AFTER_ENDS_BY_MS = 9000;
/**
 * Other enquiries' due entries each enquiry's after() redelivers, besides its own: a site with visitors
 * empties its outbox without a scheduler (Vercel Hobby's cron runs once a day).
 */
export const DRAIN_MAX_ENTRIES = 3;
/** An alert e-mail ends within this (alert.ts), sent or not. */
export const ALERT_TIMEOUT_MS = 12_000;
/**
 * A lease covers the longest work done under it, with a margin: one replay
 * (UPSTREAM_DEFAULTS.deadlineMs, 7.5 s) and then its alert e-mail; or the live
 * request with its after() (AFTER_ENDS_BY_MS) and the alert of its background
 * retry. Another flush never takes an entry whose alert is still being sent.
 */
export const LEASE_MS = 30_000;
/** Undelivered this long: dead. */
export const DEAD_AFTER_MS = 24 * 60 * 60 * 1000;
/** Dead letters are kept this long for manual follow-up, then purged; so are suspected spam. */
export const KEEP_DEAD_MS = 30 * 24 * 60 * 60 * 1000;

/** A Retry-After is honoured up to the longest redelivery wait, never longer. */
export function maxRetryAfterMs(backoffSeconds: readonly number[]): number {
  return Math.max(60, ...backoffSeconds) * 1000;
}

export function newEntry(key: string, enquiry: ContactEnquiry, now: number, holder: string): OutboxEntry {
  return {
    key,
    enquiry,
    receivedAt: now,
    state: 'pending',
    rounds: 0,
    nextAttemptAt: now,
    alerted: { pending: false, dead: false },
    lease: { holder, until: now + LEASE_MS },
  };
}

/**
 * The entry after a redelivery round that ended with `report`, or null when
 * the API has it. A refusal makes a dead letter: the visitor was thanked
 * already, and an API that checks reCAPTCHA refuses a token older than 2
 * minutes. (The live round settles nothing: a refusal there is shown to the
 * visitor and the entry removed, see ../deliver.ts.)
 */
export function settle(
  entry: OutboxEntry,
  report: UpstreamReport,
  now: number,
  backoffSeconds: readonly number[],
): OutboxEntry | null {
  const { result } = report;
  if (result.outcome === 'accepted') return null;
  const rounds = entry.rounds + 1;
  if (result.outcome === 'rejected') {
    return { ...entry, rounds, state: 'dead', deadAt: now, deadReason: 'refused', refusal: result.mes, lastFailure: 'rejected' };
  }
  const lastFailure = report.failures.join(',') || 'unavailable';
  if (now - entry.receivedAt >= DEAD_AFTER_MS) {
    return { ...entry, rounds, state: 'dead', deadAt: now, deadReason: 'expired', lastFailure };
  }
  const wait = (backoffSeconds[Math.min(rounds - 1, backoffSeconds.length - 1)] ?? 60) * 1000;
  // The API asked for a pause (429, 503): no sooner than it said, no later than the longest wait.
  const asked = Math.min(report.retryAfterMs ?? 0, maxRetryAfterMs(backoffSeconds));
  return { ...entry, rounds, lastFailure, nextAttemptAt: now + Math.max(wait, asked) };
}

/** A suspected spam, kept apart: never due, no alert, purged like a dead letter. */
export function spamEntry(key: string, enquiry: ContactEnquiry, now: number, rule: string): OutboxEntry {
  const { lease: _lease, ...entry } = newEntry(key, enquiry, now, '');
  return { ...entry, state: 'spam', spamRule: rule };
}

/** A released spam: an ordinary enquiry, due now, under `holder`'s lease. */
export function releasedEntry(entry: OutboxEntry, holder: string, now: number): OutboxEntry {
  const { spamRule: _rule, ...rest } = entry;
  return { ...rest, state: 'pending', rounds: 0, nextAttemptAt: now, lease: { holder, until: now + LEASE_MS } };
}

export const isDue = (entry: OutboxEntry, now: number) => entry.state === 'pending' && entry.nextAttemptAt <= now;

export const isPurgeable = (entry: OutboxEntry, now: number) =>
  (entry.state === 'dead' && (entry.deadAt ?? entry.receivedAt) + KEEP_DEAD_MS <= now) ||
  (entry.state === 'spam' && entry.receivedAt + KEEP_DEAD_MS <= now);

/**
 * The alert this entry still owes the agency, if any (a failed e-mail is owed until sent).
 * One e-mail per lead: once the agency has its pending alert (the details to call the lead),
 * the entry going dead adds nothing to act on, and it is listed by `npm run outbox -- export`.
 */
export function owedAlert(entry: OutboxEntry): 'pending' | 'dead' | null {
  if (entry.state === 'spam') return null;
  if (entry.state === 'dead') return entry.alerted.dead || entry.alerted.pending ? null : 'dead';
  // A fresh entry owes nothing until its first round has failed.
  return entry.rounds > 0 && !entry.alerted.pending ? 'pending' : null;
}
