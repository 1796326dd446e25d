import { z } from 'zod';
import { alertConfigOf, alertFallbacks, alertShape, type AlertConfig } from './alert-vars';
import { parseEach, positiveInt, type Fallbacks, type Parsed } from './parse-each';
import { optional, withDefault, type Source } from './public';
import { REDIS_URL_FALLBACK, redisUrl } from './redis-vars';

export const DEFAULT_BACKOFF_SECONDS: readonly number[] = [60, 300, 900, 3600, 10800];
/**
 * The outbox's cap, pending, dead and suspected spam together (spam may use only half).
 * An entry is 1-2 kB (at most ~12 kB), and a small agency gets tens of enquiries a day:
 * 2,000 entries is weeks of an outage with the 30 days of dead letters, and 20 MB fits
 * the smallest hosted Redis plans (30 MB) beside the abuse limit.
 */
export const OUTBOX_LIMIT_DEFAULTS = { maxEntries: 2000, maxBytes: 20 * 1024 * 1024 } as const;

const outboxShape = {
  CONTACT_OUTBOX: withDefault(z.enum(['auto', 'off'], { message: 'debe ser auto u off' }), 'auto'),
  CONTACT_INBOX_DIR: withDefault(z.string(), '.inbox'),
  CONTACT_OUTBOX_BACKOFF_SECONDS: optional(
    z
      .string()
      .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'debe ser una lista de segundos separados por comas, como 60,300,900')
      .transform((list) => list.split(',').map(Number))
      .refine((seconds) => seconds.every((value) => value > 0), 'cada espera debe ser mayor que cero'),
  ),
  CONTACT_OUTBOX_MAX_ENTRIES: positiveInt(OUTBOX_LIMIT_DEFAULTS.maxEntries),
  CONTACT_OUTBOX_MAX_BYTES: positiveInt(OUTBOX_LIMIT_DEFAULTS.maxBytes),
  CRON_SECRET: optional(z.string()),
  ...alertShape,
  REDIS_URL: redisUrl,
  VERCEL: optional(z.string()),
};

const fallbacks: Fallbacks<typeof outboxShape> = {
  CONTACT_OUTBOX: 'se usa auto',
  CONTACT_OUTBOX_BACKOFF_SECONDS: `se usan las esperas por omisión (${DEFAULT_BACKOFF_SECONDS.join(', ')} s)`,
  CONTACT_OUTBOX_MAX_ENTRIES: `se usa ${OUTBOX_LIMIT_DEFAULTS.maxEntries}`,
  CONTACT_OUTBOX_MAX_BYTES: `se usa ${OUTBOX_LIMIT_DEFAULTS.maxBytes}`,
  ...alertFallbacks,
  REDIS_URL: REDIS_URL_FALLBACK,
};

/**
 * Where enquiries wait until the contact API has them: Redis when REDIS_URL
 * is set, files under CONTACT_INBOX_DIR off Vercel, and nowhere (a failure
 * goes straight to the visitor) when turned off or on Vercel without Redis,
 * whose disk does not outlive the function.
 */
export type OutboxStoreConfig =
  | { kind: 'redis'; redisUrl: string; limits: OutboxLimits }
  | { kind: 'files'; dir: string; limits: OutboxLimits }
  | { kind: 'none'; why: 'off' | 'vercel-without-redis' };

/** What the outbox holds at most, every entry together (see OUTBOX_LIMIT_DEFAULTS). */
export type OutboxLimits = { maxEntries: number; maxBytes: number };

export type OutboxConfig = {
  store: OutboxStoreConfig;
  /** Wait before redelivery n (the last value repeats). */
  backoffSeconds: readonly number[];
  /** The flush route answers only to `Authorization: Bearer <this>`; unset: to no one. */
  cronSecret?: string;
  /** E-mail to the agency when an enquiry goes pending or dead; unset: no alerts. */
  alert?: AlertConfig;
  /** Set when some alert variables are there but not all: said at start-up. */
  alertProblem?: string;
  /** On Vercel (VERCEL=1): no server lives long enough to flush itself. */
  onVercel: boolean;
};

export function parseOutboxConfig(source: Source): Parsed<OutboxConfig> {
  const { env, problems } = parseEach(outboxShape, source, fallbacks);
  const limits = { maxEntries: env.CONTACT_OUTBOX_MAX_ENTRIES, maxBytes: env.CONTACT_OUTBOX_MAX_BYTES };
  const store: OutboxStoreConfig =
    env.CONTACT_OUTBOX === 'off'
      ? { kind: 'none', why: 'off' }
      : env.REDIS_URL
        ? { kind: 'redis', redisUrl: env.REDIS_URL, limits }
        : env.VERCEL === '1'
          ? { kind: 'none', why: 'vercel-without-redis' }
          : { kind: 'files', dir: env.CONTACT_INBOX_DIR, limits };
  const { alert, alertProblem } = alertConfigOf(env, problems);

  return {
    config: {
      store,
      backoffSeconds: env.CONTACT_OUTBOX_BACKOFF_SECONDS ?? DEFAULT_BACKOFF_SECONDS,
      cronSecret: env.CRON_SECRET,
      alert,
      alertProblem,
      onVercel: env.VERCEL === '1',
    },
    problems,
  };
}
