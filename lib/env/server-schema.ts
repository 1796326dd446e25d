import { z } from 'zod';
import { formatIssues, httpUrl, optional, withDefault, type Source } from './public';

/**
 * The server variables' rules, as pure functions of a given source: no
 * `server-only`, no process.env. lib/env/server.ts applies them to
 * process.env at run time; next.config.ts (through lib/env/build.ts) checks
 * them at `next build`, so a malformed value fails the build and the
 * previous deployment stays online.
 */

/** One malformed variable: which, what is wrong, and what the server does instead. */
export type EnvProblem = { variable: string; message: string; fallback: string };

/* ---------- The contact API (required together, or not at all) ---------- */

const contactSchema = z.object({
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

const SITE_KEY_MISSING = 'está vacía, y es obligatoria cuando CONTACT_API_BASE_URL está definida';

export function parseContactConfig(source: Source): ContactConfig {
  const result = contactSchema.safeParse(source);
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

/* ---------- Optional variables: each one parsed on its own ---------- */

/** A whole number above zero; unset or blank takes the default. */
const WHOLE = 'debe ser un número entero mayor que cero';
const positiveInt = (fallback: number) =>
  z.preprocess(
    (value) => (value === undefined || (typeof value === 'string' && value.trim() === '') ? undefined : Number(value)),
    z.number({ message: WHOLE }).int(WHOLE).positive(WHOLE).default(fallback),
  );

const redisUrl = optional(z.url({ protocol: /^rediss?$/, message: 'debe ser una URL redis:// o rediss://' }));
const mailAddress = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;
/** `avisos@agencia.mx` or `Formulario <avisos@agencia.mx>`. */
const isMailbox = (text: string) => mailAddress.test(text.trim().match(/<([^<>]*)>$/)?.[1] ?? text.trim());

export const RATE_LIMIT_DEFAULTS = { max: 5, windowSeconds: 600 } as const;
export const DEFAULT_BACKOFF_SECONDS: readonly number[] = [60, 300, 900, 3600, 10800];
/**
 * The outbox's cap, pending, dead and suspected spam together (spam may use only half).
 * An entry is 1-2 kB (at most ~12 kB), and a small agency gets tens of enquiries a day:
 * 2,000 entries is weeks of an outage with the 30 days of dead letters, and 20 MB fits
 * the smallest hosted Redis plans (30 MB) beside the abuse limit.
 */
export const OUTBOX_LIMIT_DEFAULTS = { maxEntries: 2000, maxBytes: 20 * 1024 * 1024 } as const;

/**
 * What the server does instead when an optional variable is malformed: the
 * same as when it is unset, so one typo turns off only its own feature and
 * every enquiry is still delivered.
 */
const FALLBACKS = {
  CONTACT_RATE_LIMIT_MAX: `se usa ${RATE_LIMIT_DEFAULTS.max}`,
  CONTACT_RATE_LIMIT_WINDOW_SECONDS: `se usa ${RATE_LIMIT_DEFAULTS.windowSeconds}`,
  REDIS_URL: 'se sigue como sin REDIS_URL: límite de solicitudes en memoria, bandeja de salida en archivos fuera de Vercel y ninguna en Vercel',
  TRUST_PROXY_HEADERS: 'no se confía en ningún proxy (en Vercel se usa siempre la cabecera de Vercel)',
  CONTACT_OUTBOX: 'se usa auto',
  CONTACT_OUTBOX_BACKOFF_SECONDS: `se usan las esperas por omisión (${DEFAULT_BACKOFF_SECONDS.join(', ')} s)`,
  CONTACT_OUTBOX_MAX_ENTRIES: `se usa ${OUTBOX_LIMIT_DEFAULTS.maxEntries}`,
  CONTACT_OUTBOX_MAX_BYTES: `se usa ${OUTBOX_LIMIT_DEFAULTS.maxBytes}`,
  ALERT_SMTP_URL: 'avisos por correo desactivados',
  ALERT_EMAIL_TO: 'avisos por correo desactivados',
  ALERT_EMAIL_FROM: 'avisos por correo desactivados',
} as const;

/** Proxies of yours in front of the server; beyond 10 is a typo, not a deployment. */
const MAX_TRUSTED_PROXIES = 10;
const PROXIES = `debe ser un número entero de 0 a ${MAX_TRUSTED_PROXIES}: cuántos proxies propios hay delante del servidor`;
const proxyCount = optional(
  z
    .string()
    .regex(/^\d{1,2}$/, PROXIES)
    .transform(Number)
    .refine((count) => count <= MAX_TRUSTED_PROXIES, PROXIES),
);

const rateLimitShape = {
  CONTACT_RATE_LIMIT_MAX: positiveInt(RATE_LIMIT_DEFAULTS.max),
  CONTACT_RATE_LIMIT_WINDOW_SECONDS: positiveInt(RATE_LIMIT_DEFAULTS.windowSeconds),
  REDIS_URL: redisUrl,
  VERCEL: optional(z.string()),
  TRUST_PROXY_HEADERS: proxyCount,
};

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
  ALERT_SMTP_URL: optional(z.url({ protocol: /^smtps?$/, message: 'debe ser una URL smtp:// o smtps://' })),
  ALERT_EMAIL_TO: optional(
    z.string().refine(
      (list) => list.split(',').every(isMailbox),
      'debe ser una dirección de correo, o varias separadas por comas',
    ),
  ),
  ALERT_EMAIL_FROM: optional(
    z.string().refine(
      isMailbox,
      'debe ser un correo, como avisos@agencia.mx o Formulario <avisos@agencia.mx>',
    ),
  ),
  REDIS_URL: redisUrl,
  VERCEL: optional(z.string()),
};

type Shape = Record<string, z.ZodType>;
type Values<S extends Shape> = { [K in keyof S]: z.output<S[K]> };

/** Every variable on its own: a malformed one takes the value it has when unset, and is reported. */
function parseEach<S extends Shape>(shape: S, source: Source): { env: Values<S>; problems: EnvProblem[] } {
  const env: Record<string, unknown> = {};
  const problems: EnvProblem[] = [];
  for (const [variable, schema] of Object.entries(shape)) {
    const result = schema.safeParse(source[variable]);
    if (result.success) {
      env[variable] = result.data;
      continue;
    }
    problems.push({
      variable,
      message: [...new Set(result.error.issues.map((issue) => issue.message))].join('; '),
      fallback: FALLBACKS[variable as keyof typeof FALLBACKS] ?? 'se ignora',
    });
    env[variable] = schema.parse(undefined);
  }
  return { env: env as Values<S>, problems };
}

/** A configuration and the malformed variables it had to do without. */
export type Parsed<T> = { config: T; problems: EnvProblem[] };

/* ---------- The abuse limit ---------- */

export type RateLimitConfig = {
  /** Enquiries allowed per client IP and window. */
  max: number;
  windowSeconds: number;
  /** Shared store for every instance; in memory when absent. */
  redisUrl?: string;
  /**
   * Proxies of yours in front of a self-hosted server (TRUST_PROXY_HEADERS):
   * the client is the N-th X-Forwarded-For entry from the right. 0: the last.
   */
  trustedProxies: number;
  /** On Vercel the platform overwrites its own client header, which wins over the rest. */
  onVercel: boolean;
};

export function parseRateLimitConfig(source: Source): Parsed<RateLimitConfig> {
  const { env, problems } = parseEach(rateLimitShape, source);
  return {
    config: {
      max: env.CONTACT_RATE_LIMIT_MAX,
      windowSeconds: env.CONTACT_RATE_LIMIT_WINDOW_SECONDS,
      redisUrl: env.REDIS_URL,
      trustedProxies: env.TRUST_PROXY_HEADERS ?? 0,
      onVercel: env.VERCEL === '1',
    },
    problems,
  };
}

/* ---------- The outbox, its scheduler and its alerts ---------- */

/**
 * Where enquiries wait until the contact API has them: Redis when REDIS_URL
 * is set, files under CONTACT_INBOX_DIR off Vercel, and nowhere (today's
 * failure path) when turned off or on Vercel without Redis, whose disk does
 * not outlive the function.
 */
export type OutboxStoreConfig =
  | { kind: 'redis'; redisUrl: string; limits: OutboxLimits }
  | { kind: 'files'; dir: string; limits: OutboxLimits }
  | { kind: 'none'; why: 'off' | 'vercel-without-redis' };

/** What the outbox holds at most, every entry together (see OUTBOX_LIMIT_DEFAULTS). */
export type OutboxLimits = { maxEntries: number; maxBytes: number };

export type AlertConfig = { smtpUrl: string; to: string; from: string };

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
  const { env, problems } = parseEach(outboxShape, source);
  const limits = { maxEntries: env.CONTACT_OUTBOX_MAX_ENTRIES, maxBytes: env.CONTACT_OUTBOX_MAX_BYTES };
  const store: OutboxStoreConfig =
    env.CONTACT_OUTBOX === 'off'
      ? { kind: 'none', why: 'off' }
      : env.REDIS_URL
        ? { kind: 'redis', redisUrl: env.REDIS_URL, limits }
        : env.VERCEL === '1'
          ? { kind: 'none', why: 'vercel-without-redis' }
          : { kind: 'files', dir: env.CONTACT_INBOX_DIR, limits };

  const alert =
    env.ALERT_SMTP_URL && env.ALERT_EMAIL_TO && env.ALERT_EMAIL_FROM
      ? { smtpUrl: env.ALERT_SMTP_URL, to: env.ALERT_EMAIL_TO, from: env.ALERT_EMAIL_FROM }
      : undefined;
  // A malformed one is already reported on its own.
  const malformedAlert = problems.some((problem) => problem.variable.startsWith('ALERT_'));
  const alertProblem =
    !alert && !malformedAlert && [env.ALERT_SMTP_URL, env.ALERT_EMAIL_TO, env.ALERT_EMAIL_FROM].some(Boolean)
      ? 'ALERT_SMTP_URL, ALERT_EMAIL_TO y ALERT_EMAIL_FROM van juntas: falta al menos una.'
      : undefined;

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

/* ---------- All of them at once ---------- */

/**
 * Every malformed server variable, once each: the contact API's (which the
 * form cannot do without) and the optional ones (which fall back). A contact
 * API is not required: a fresh clone has none, and on Vercel its absence is
 * reported at start-up.
 */
export function serverEnvProblems(source: Source): EnvProblem[] {
  const problems: EnvProblem[] = [];
  const contact = contactSchema.safeParse(source);
  if (!contact.success) {
    for (const issue of contact.error.issues) {
      problems.push({ variable: issue.path.join('.'), message: issue.message, fallback: 'el formulario muestra un error a cada visitante' });
    }
  } else if (contact.data.CONTACT_API_BASE_URL && !contact.data.CONTACT_SITE_KEY) {
    problems.push({ variable: 'CONTACT_SITE_KEY', message: SITE_KEY_MISSING, fallback: 'el formulario muestra un error a cada visitante' });
  }
  problems.push(...parseRateLimitConfig(source).problems, ...parseOutboxConfig(source).problems, ...parseFormSecret(source).problems);
  return uniqueByVariable(problems);
}

export function uniqueByVariable(problems: readonly EnvProblem[]): EnvProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => !seen.has(problem.variable) && seen.add(problem.variable));
}

/** For `next build`: throws naming every malformed server variable, so the deployment stops here. */
export function assertServerEnv(source: Source): void {
  const problems = serverEnvProblems(source);
  if (!problems.length) return;
  throw new Error(
    `Variables de entorno del servidor inválidas:\n${problems.map((problem) => `  - ${problem.variable}: ${problem.message}`).join('\n')}`,
  );
}

/* ---------- The form's signing secret ---------- */

const FORM_SECRET_MIN = 32;

/**
 * CONTACT_FORM_SECRET signs the form's time on screen (lib/contact/form-token.ts): at least
 * 32 characters. Malformed or unset: derived from CONTACT_SITE_KEY (lib/env/server.ts).
 */
export function parseFormSecret(source: Source): Parsed<string | undefined> {
  const value = source.CONTACT_FORM_SECRET?.trim();
  if (!value) return { config: undefined, problems: [] };
  if (value.length >= FORM_SECRET_MIN) return { config: value, problems: [] };
  return {
    config: undefined,
    problems: [
      {
        variable: 'CONTACT_FORM_SECRET',
        message: `debe tener al menos ${FORM_SECRET_MIN} caracteres (openssl rand -base64 32)`,
        fallback: 'la firma del formulario se deriva de CONTACT_SITE_KEY',
      },
    ],
  };
}
