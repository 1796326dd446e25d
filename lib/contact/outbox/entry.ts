import type { ContactEnquiry } from '../schema';

/** One enquiry waiting in the outbox (see outbox.ts). */
export type OutboxEntry = {
  /** The Idempotency-Key of every attempt, live or replayed. */
  key: string;
  enquiry: ContactEnquiry;
  /** ms since the epoch. */
  receivedAt: number;
  /** spam: kept apart, never delivered unless released (`npm run outbox -- release <key>`). */
  state: 'pending' | 'dead' | 'spam';
  /** Delivery rounds so far, the live one included. */
  rounds: number;
  /** Not tried again before this (ms). */
  nextAttemptAt: number;
  /** Why the last round failed; no personal data, safe to log. */
  lastFailure?: string;
  /** When it became dead (ms): purged 30 days later. */
  deadAt?: number;
  /** Why it is dead: refused by the API on a later attempt, or 24 hours undelivered. */
  deadReason?: 'refused' | 'expired';
  /** The API's own words when it refused: for the agency's e-mail, never for logs. */
  refusal?: string;
  /** Why the spam filter held it back (a rule's name, lib/contact/spam-rules.ts, or the honeypot's). */
  spamRule?: string;
  /** Which alert e-mails went out. */
  alerted: { pending: boolean; dead: boolean };
  /** Who works on the entry, and until when (ms). */
  lease?: { holder: string; until: number };
};

/** Only what a stored entry must hold; anything else is a damaged entry. */
export function isOutboxEntry(value: unknown): value is OutboxEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<OutboxEntry>;
  return (
    typeof entry.key === 'string' &&
    typeof entry.receivedAt === 'number' &&
    typeof entry.nextAttemptAt === 'number' &&
    typeof entry.rounds === 'number' &&
    (entry.state === 'pending' || entry.state === 'dead' || entry.state === 'spam') &&
    typeof entry.enquiry === 'object' &&
    entry.enquiry !== null &&
    typeof entry.enquiry.mail === 'string' &&
    typeof entry.alerted === 'object' &&
    entry.alerted !== null
  );
}
