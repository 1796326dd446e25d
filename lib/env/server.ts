import 'server-only';
import { z } from 'zod';
import { formatIssues, httpUrl, optional, withDefault, type Source } from './public';

/**
 * The server half of the env module (lib/env/): values that must never reach
 * the browser. The only other places that read process.env are lib/env/public.ts
 * and lib/env/build.ts (next.config.ts's own settings).
 */

/* ---------- Server-only: the contact API ---------- */

const serverSchema = z.object({
  CONTACT_API_BASE_URL: optional(httpUrl),
  CONTACT_SITE_KEY: optional(z.string()),
  CONTACT_INBOX_DIR: withDefault(z.string(), '.inbox'),
  VERCEL: optional(z.string()),
});

/**
 * Where enquiries go: the contact API; a local file inbox when no API is
 * configured (a fresh clone); or nowhere, reported as an error, when the
 * configuration is wrong (never a silent success).
 */
export type ContactConfig =
  | { mode: 'api'; baseUrl: string; siteKey: string }
  | { mode: 'inbox'; dir: string }
  | { mode: 'misconfigured'; problem: string };

export function parseContactConfig(source: Source): ContactConfig {
  const result = serverSchema.safeParse(source);
  if (!result.success) {
    return { mode: 'misconfigured', problem: `Variables de entorno inválidas:\n${formatIssues(result.error)}` };
  }
  const env = result.data;
  if (env.CONTACT_API_BASE_URL) {
    if (!env.CONTACT_SITE_KEY) {
      return { mode: 'misconfigured', problem: 'CONTACT_API_BASE_URL está definida pero CONTACT_SITE_KEY está vacía.' };
    }
    // The API base ends in /api/; a missing final slash would drop that segment.
    const baseUrl = env.CONTACT_API_BASE_URL.endsWith('/') ? env.CONTACT_API_BASE_URL : `${env.CONTACT_API_BASE_URL}/`;
    return { mode: 'api', baseUrl, siteKey: env.CONTACT_SITE_KEY };
  }
  if (env.VERCEL === '1') {
    return {
      mode: 'misconfigured',
      problem: 'CONTACT_API_BASE_URL está vacía en Vercel: las solicitudes de contacto no se pueden entregar.',
    };
  }
  return { mode: 'inbox', dir: env.CONTACT_INBOX_DIR };
}

let contactConfig: ContactConfig | undefined;

/** Read once per server process, at first use (not at build time). */
export function getContactConfig(): ContactConfig {
  contactConfig ??= parseContactConfig(process.env);
  return contactConfig;
}

/* ---------- Server-only: the abuse limit ---------- */

/** A whole number above zero; unset or empty takes the default. */
const positiveInt = (fallback: number) =>
  z.preprocess(
    (value) => (value === undefined || value === '' ? undefined : Number(value)),
    z.number().int().positive().default(fallback),
  );

const rateLimitSchema = z.object({
  CONTACT_RATE_LIMIT_MAX: positiveInt(5),
  CONTACT_RATE_LIMIT_WINDOW_SECONDS: positiveInt(600),
  REDIS_URL: optional(z.url({ protocol: /^rediss?$/, message: 'debe ser una URL redis:// o rediss://' })),
  VERCEL: optional(z.string()),
  TRUST_PROXY_HEADERS: optional(z.string()),
});

export type RateLimitConfig = {
  /** Enquiries allowed per client IP and window. */
  max: number;
  windowSeconds: number;
  /** Shared store for every instance; in memory when absent. */
  redisUrl?: string;
  /** On Vercel the platform sets the client IP headers; elsewhere they are not trusted. */
  trustForwardedFor: boolean;
};

export function parseRateLimitConfig(source: Source): RateLimitConfig {
  const result = rateLimitSchema.safeParse(source);
  if (!result.success) throw new Error(`Variables de entorno inválidas:\n${formatIssues(result.error)}`);
  const env = result.data;
  return {
    max: env.CONTACT_RATE_LIMIT_MAX,
    windowSeconds: env.CONTACT_RATE_LIMIT_WINDOW_SECONDS,
    redisUrl: env.REDIS_URL,
    trustForwardedFor: env.VERCEL === '1' || env.TRUST_PROXY_HEADERS === '1',
  };
}

let rateLimitConfig: RateLimitConfig | undefined;

export function getRateLimitConfig(): RateLimitConfig {
  rateLimitConfig ??= parseRateLimitConfig(process.env);
  return rateLimitConfig;
}

/* ---------- Server-only: the outbox, its scheduler and its alerts ---------- */

const DEFAULT_BACKOFF_SECONDS = [60, 300, 900, 3600, 10800];

const outboxSchema = z.object({
  CONTACT_OUTBOX: withDefault(z.enum(['auto', 'off']), 'auto'),
  CONTACT_INBOX_DIR: withDefault(z.string(), '.inbox'),
  CONTACT_OUTBOX_BACKOFF_SECONDS: optional(
    z
      .string()
      .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'debe ser una lista de segundos separados por comas, como 60,300,900')
      .transform((list) => list.split(',').map(Number))
      .refine((seconds) => seconds.every((value) => value > 0), 'cada espera debe ser mayor que cero'),
  ),
  CRON_SECRET: optional(z.string()),
  ALERT_SMTP_URL: optional(z.url({ protocol: /^smtps?$/, message: 'debe ser una URL smtp:// o smtps://' })),
  ALERT_EMAIL_TO: optional(z.string()),
  ALERT_EMAIL_FROM: optional(z.string()),
  REDIS_URL: optional(z.url({ protocol: /^rediss?$/, message: 'debe ser una URL redis:// o rediss://' })),
  VERCEL: optional(z.string()),
});

/**
 * Where enquiries wait until the contact API has them: Redis when REDIS_URL
 * is set, files under CONTACT_INBOX_DIR off Vercel, and nowhere (today's
 * failure path) when turned off or on Vercel without Redis, whose disk does
 * not outlive the function.
 */
export type OutboxStoreConfig =
  | { kind: 'redis'; redisUrl: string }
  | { kind: 'files'; dir: string }
  | { kind: 'none'; why: 'off' | 'vercel-without-redis' };

export type AlertConfig = { smtpUrl: string; to: string; from: string };

export type OutboxConfig = {
  store: OutboxStoreConfig;
  /** Wait before redelivery n (the last value repeats). */
  backoffSeconds: number[];
  /** The flush route answers only to `Authorization: Bearer <this>`; unset: to no one. */
  cronSecret?: string;
  /** E-mail to the agency when an enquiry goes pending or dead; unset: no alerts. */
  alert?: AlertConfig;
  /** Set when some alert variables are there but not all: said at start-up. */
  alertProblem?: string;
};

export function parseOutboxConfig(source: Source): OutboxConfig {
  const result = outboxSchema.safeParse(source);
  if (!result.success) throw new Error(`Variables de entorno inválidas:\n${formatIssues(result.error)}`);
  const env = result.data;
  const store: OutboxStoreConfig =
    env.CONTACT_OUTBOX === 'off'
      ? { kind: 'none', why: 'off' }
      : env.REDIS_URL
        ? { kind: 'redis', redisUrl: env.REDIS_URL }
        : env.VERCEL === '1'
          ? { kind: 'none', why: 'vercel-without-redis' }
          : { kind: 'files', dir: env.CONTACT_INBOX_DIR };

  const alertValues = [env.ALERT_SMTP_URL, env.ALERT_EMAIL_TO, env.ALERT_EMAIL_FROM];
  const alert =
    env.ALERT_SMTP_URL && env.ALERT_EMAIL_TO && env.ALERT_EMAIL_FROM
      ? { smtpUrl: env.ALERT_SMTP_URL, to: env.ALERT_EMAIL_TO, from: env.ALERT_EMAIL_FROM }
      : undefined;
  const alertProblem =
    !alert && alertValues.some(Boolean)
      ? 'ALERT_SMTP_URL, ALERT_EMAIL_TO y ALERT_EMAIL_FROM van juntas: falta al menos una.'
      : undefined;

  return {
    store,
    backoffSeconds: env.CONTACT_OUTBOX_BACKOFF_SECONDS ?? DEFAULT_BACKOFF_SECONDS,
    cronSecret: env.CRON_SECRET,
    alert,
    alertProblem,
  };
}

let outboxConfig: OutboxConfig | undefined;

export function getOutboxConfig(): OutboxConfig {
  outboxConfig ??= parseOutboxConfig(process.env);
  return outboxConfig;
}
