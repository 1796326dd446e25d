import { z } from 'zod';
import { httpUrl, optional, withDefault, type Source } from './public';

// The server half of the env module: values that never reach the browser, read from process.env at first use. At
// `next build`, next.config.ts runs the same rules (assertServerEnv): a malformed value fails the build naming it; at
// run time it turns off only its own feature, and the start-up report names it. No `import 'server-only'`:
// next.config.ts loads this file in plain Node, where it throws; no component may import it (eslint.config.mjs).

/** One malformed variable: which, what is wrong, and what the server does instead. */
export type EnvProblem = { variable: string; message: string; fallback: string };
type Parsed<T> = { config: T; problems: EnvProblem[] };

export const RATE_LIMIT_DEFAULTS = { max: 5, windowSeconds: 600 } as const;
export const DEFAULT_BACKOFF_SECONDS: readonly number[] = [60, 300, 900, 3600, 10800];
const DEFAULT_KEEP_DAYS = 30; // an undelivered lead or a suspected spam: the privacy notice says 30 (lib/content.ts)
const META_GRAPH_API_DEFAULT = 'https://graph.facebook.com'; // where Meta's Conversions API lives
const MAX_PROXIES = 10; // proxies of yours in front of the server; beyond 10 is a typo, not a deployment

/** A variable's rule, and what the server does instead when a value breaks it. */
const v = <T extends z.ZodType>(rule: T, fallback = 'se ignora') => ({ rule, fallback });
const text = v(optional(z.string()));
const matching = (pattern: RegExp, message: string) => optional(z.string().regex(pattern, message));
const url = (protocol: RegExp, message: string) => optional(z.url({ protocol, message }));
const WHOLE = 'debe ser un número entero mayor que cero';
const whole = z.number({ message: WHOLE }).int(WHOLE).positive(WHOLE);
const blankOrNumber = (value: unknown) => (String(value ?? '').trim() ? Number(value) : undefined);
/** A whole number above zero; unset or blank takes the default. */
const positiveInt = (fallback: number) =>
  v(z.preprocess(blankOrNumber, whole.default(fallback)), `se usa ${fallback}`);
const PROXIES = `debe ser un número entero de 0 a ${MAX_PROXIES}: cuántos proxies propios hay delante del servidor`;
const proxies = z.string().regex(/^\d{1,2}$/, PROXIES);
const seconds = z
  .string()
  .regex(
    /^\s*\d+(\s*,\s*\d+)*\s*$/,
    'debe ser una lista de segundos separados por comas, como 60,300,900',
  );
const waits = seconds.transform((list) => list.split(',').map(Number));
const days = z.string().regex(/^\s*\d+(\.\d+)?\s*$/, 'debe ser un número de días, como 30');
const DAYS = 'debe ser mayor que 0 y a lo más 365';
/** `avisos@agencia.mx` or `Formulario <avisos@agencia.mx>`. */
const isMailbox = (value: string) =>
  /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/.test(
    value.trim().match(/<([^<>]*)>$/)?.[1] ?? value.trim(),
  );
const MAILBOX = 'debe ser un correo, como avisos@agencia.mx o Formulario <avisos@agencia.mx>';
const MAILBOXES = 'debe ser una dirección de correo, o varias separadas por comas';
const SECRET = 'debe tener al menos 32 caracteres (openssl rand -base64 32)';
const WHSEC = 'debe empezar con whsec_ seguido de al menos 24 bytes en base64';
const WAIT = 'cada espera debe ser mayor que cero';
const PIXEL = 'debe ser solo el número del píxel de Meta (dígitos)';
// What the server does instead of a malformed value.
const NO_FORM = 'el formulario muestra un error a cada visitante';
const NO_SECRET =
  'la firma del formulario usa una clave aleatoria (compartida en Redis o PostgreSQL si los hay)';
const NO_REDIS = 'se sigue como sin REDIS_URL: límite de solicitudes en memoria';
const NO_PROXY = 'no se confía en ningún proxy (en Vercel se usa siempre la cabecera de Vercel)';
const NO_WAITS = `se usan las esperas por omisión (${DEFAULT_BACKOFF_SECONDS.join(', ')} s)`;
const NO_DAYS = `se usan ${DEFAULT_KEEP_DAYS} días, los del aviso de privacidad`;
const NO_ALERTS = 'avisos por correo desactivados';
const NO_WEBHOOK = 'webhook de prospectos desactivado';
const NO_CAPI = 'API de Conversiones de Meta desactivada';
const NO_TEST = 'los eventos van como reales, sin código de prueba';
const STAFF = 'debe ser una lista de hasta 50 correos separados por comas';
const NO_STAFF = 'el área del equipo no existe';
const ALERTS_TOGETHER =
  'ALERT_SMTP_URL, ALERT_EMAIL_TO y ALERT_EMAIL_FROM van juntas: falta al menos una.';

/** Every server variable, its meaning and its bounds, by the feature it serves. */
const serverSchema = {
  contact: {
    // The contact API's base (ending in /api/) and site key, both or neither; neither: the local inbox (off Vercel).
    CONTACT_API_BASE_URL: v(optional(httpUrl), NO_FORM),
    CONTACT_SITE_KEY: v(optional(z.string()), NO_FORM),
  },
  formSecret: {
    // Signs the form's time on screen (lib/contact/form-token.ts); unset: a random key, kept in a store if any.
    CONTACT_FORM_SECRET: v(optional(z.string().min(32, SECRET)), NO_SECRET),
  },
  rateLimit: {
    // Valid enquiries per client address and window (seconds).
    CONTACT_RATE_LIMIT_MAX: positiveInt(RATE_LIMIT_DEFAULTS.max),
    CONTACT_RATE_LIMIT_WINDOW_SECONDS: positiveInt(RATE_LIMIT_DEFAULTS.windowSeconds),
    // The abuse limit's and the form signatures' shared store.
    REDIS_URL: v(url(/^rediss?$/, 'debe ser una URL redis:// o rediss://'), NO_REDIS),
    // Proxies of yours before a self-hosted server, 0 to 10: the client is the N-th X-Forwarded-For from the right.
    TRUST_PROXY_HEADERS: v(
      optional(proxies.transform(Number).refine((n) => n <= MAX_PROXIES, PROXIES)),
      NO_PROXY,
    ),
  },
  delivery: {
    // Seconds between the lead workflow's rounds, each above 0; the last one repeats.
    CONTACT_OUTBOX_BACKOFF_SECONDS: v(
      optional(waits.refine((all) => all.every((s) => s > 0), WAIT)),
      NO_WAITS,
    ),
    // Days a dead letter, a suspected spam or an inbox line is kept: above 0, at most 365.
    CONTACT_KEEP_DAYS: v(
      optional(days.transform(Number).refine((n) => n > 0 && n <= 365, DAYS)),
      NO_DAYS,
    ),
    // The e-mail alerts about leads (pending, dead): all three, or none.
    ALERT_SMTP_URL: v(url(/^smtps?$/, 'debe ser una URL smtp:// o smtps://'), NO_ALERTS),
    ALERT_EMAIL_TO: v(
      optional(z.string().refine((list) => list.split(',').every(isMailbox), MAILBOXES)),
      NO_ALERTS,
    ),
    ALERT_EMAIL_FROM: v(optional(z.string().refine(isMailbox, MAILBOX)), NO_ALERTS),
  },
  forward: {
    // Where each confirmed lead is POSTed, signed with Standard Webhooks' secret: `whsec_` and 24 bytes or more.
    LEAD_WEBHOOK_URL: v(optional(httpUrl), NO_WEBHOOK),
    LEAD_WEBHOOK_SECRET: v(matching(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, WHSEC), NO_WEBHOOK),
    // Meta's Conversions API: its token, its host, its test code; the pixel's id is public, the server needs it too.
    META_CAPI_ACCESS_TOKEN: v(
      matching(/^[\w-]{20,1024}$/, 'no parece un token de acceso de Meta'),
      NO_CAPI,
    ),
    META_GRAPH_API_URL: v(optional(httpUrl), `se usa ${META_GRAPH_API_DEFAULT}`),
    META_TEST_EVENT_CODE: v(
      matching(/^\w{1,64}$/, 'debe ser el código de prueba de Meta, como TEST12345'),
      NO_TEST,
    ),
    NEXT_PUBLIC_META_PIXEL_ID: v(matching(/^\d{1,20}$/, PIXEL), NO_CAPI),
  },
  staff: {
    // The staff area (/equipo): who may sign in, and the key sealing its links and sessions (lib/staff/config.ts).
    STAFF_EMAILS: v(
      optional(z.string().refine((list) => /^[^,]+(,[^,]+){0,49}$/.test(list), STAFF)),
      NO_STAFF,
    ),
    STAFF_SESSION_SECRET: v(optional(z.string().min(32, SECRET)), NO_STAFF),
  },
  // Read with every group: they cannot be malformed. The Workflow SDK reads its WORKFLOW_* itself too.
  shared: {
    // The local inbox's folder, and the local world's (workflow/ inside).
    CONTACT_INBOX_DIR: v(withDefault(z.string(), '.inbox')),
    // The SDK's world: unset, local files (Vercel's own on Vercel); or @workflow/world-postgres and its database.
    WORKFLOW_TARGET_WORLD: text,
    WORKFLOW_POSTGRES_URL: text,
    WORKFLOW_LOCAL_DATA_DIR: text,
    // Where the world posts its deliveries (the engine's door, once open); the port the site listens on.
    WORKFLOW_LOCAL_BASE_URL: text,
    PORT: text,
    // Set by lib/engine/choose-world.ts: the world inside the sealed one, and the site's own address.
    ENGINE_WORLD: text,
    ENGINE_SITE_URL: text,
    // Set by Vercel: VERCEL=1 at run time, a deployment id at build and run time.
    VERCEL: text,
    VERCEL_DEPLOYMENT_ID: text,
  },
};

type Group = keyof typeof serverSchema;
type Shape<G extends Group> = (typeof serverSchema)[G] & (typeof serverSchema)['shared'];
type Values<S> = {
  [K in keyof S]: S[K] extends { rule: z.ZodType } ? z.output<S[K]['rule']> : never;
};

/** A group's variables and the shared ones, each on its own: a malformed one takes its unset value, and is said. */
function parseEach<G extends Group>(
  source: Source,
  group: G,
): { env: Values<Shape<G>>; problems: EnvProblem[] } {
  const env: Record<string, unknown> = {};
  const problems: EnvProblem[] = [];
  const shape: Record<string, { rule: z.ZodType; fallback: string }> = serverSchema[group];
  for (const [variable, { rule, fallback }] of Object.entries({
    ...shape,
    ...serverSchema.shared,
  })) {
    const result = rule.safeParse(source[variable]);
    env[variable] = result.success ? result.data : rule.parse(undefined);
    const messages = new Set(result.error?.issues.map((issue) => issue.message));
    if (!result.success) problems.push({ variable, message: [...messages].join('; '), fallback });
  }
  return { env: env as Values<Shape<G>>, problems };
}

const uniqueByVariable = (problems: EnvProblem[]) =>
  problems.filter(
    (problem, i) => problems.findIndex((other) => other.variable === problem.variable) === i,
  );
const listed = (problems: EnvProblem[]) =>
  problems.map((problem) => `  - ${problem.variable}: ${problem.message}`);

/** Where enquiries go: the API; a local inbox when none is set (a fresh clone); or nowhere, said as an error. */
export type ContactConfig =
  | { mode: 'api'; baseUrl: string; siteKey: string }
  | { mode: 'inbox'; dir: string }
  | { mode: 'misconfigured'; problem: string };

export function parseContactConfig(source: Source): ContactConfig {
  const { env, problems } = parseEach(source, 'contact');
  const [base, siteKey] = [env.CONTACT_API_BASE_URL, env.CONTACT_SITE_KEY];
  if (problems.length)
    return {
      mode: 'misconfigured',
      problem: `Variables de entorno inválidas:\n${listed(problems).join('\n')}`,
    };
  if (base && !siteKey)
    return {
      mode: 'misconfigured',
      problem: 'CONTACT_API_BASE_URL está definida pero CONTACT_SITE_KEY está vacía.',
    };
  // The API base ends in /api/; a missing final slash would drop that segment.
  if (base && siteKey)
    return { mode: 'api', baseUrl: base.endsWith('/') ? base : `${base}/`, siteKey };
  if (env.VERCEL !== '1') return { mode: 'inbox', dir: env.CONTACT_INBOX_DIR };
  const problem =
    'CONTACT_API_BASE_URL está vacía en Vercel: las solicitudes de contacto no se pueden entregar.';
  return { mode: 'misconfigured', problem };
}

/** CONTACT_FORM_SECRET when it is long enough to sign the form with (lib/contact/signature-store.ts). */
export function parseFormSecret(source: Source): Parsed<string | undefined> {
  const { env, problems } = parseEach(source, 'formSecret');
  return { config: env.CONTACT_FORM_SECRET, problems };
}

export type RateLimitConfig = {
  max: number; // enquiries per client address and window
  windowSeconds: number;
  redisUrl?: string; // the store every instance shares; in memory when absent
  postgresUrl?: string; // without Redis, on the Postgres world: its database holds the limit too
  trustedProxies: number; // self-hosted: the client is the N-th X-Forwarded-For entry from the right (0: the last)
  onVercel: boolean; // the platform overwrites its own client header, which wins over the rest
};

export function parseRateLimitConfig(source: Source): Parsed<RateLimitConfig> {
  const { env, problems } = parseEach(source, 'rateLimit');
  const sealed = env.WORKFLOW_TARGET_WORLD?.endsWith('sealed-world.mjs'); // then the world chosen is ENGINE_WORLD
  const world = sealed ? env.ENGINE_WORLD : env.WORKFLOW_TARGET_WORLD;
  const postgresUrl = world === '@workflow/world-postgres' ? env.WORKFLOW_POSTGRES_URL : undefined;
  const {
    CONTACT_RATE_LIMIT_MAX: max,
    CONTACT_RATE_LIMIT_WINDOW_SECONDS: windowSeconds,
    REDIS_URL: redisUrl,
  } = env;
  const config = {
    max,
    windowSeconds,
    redisUrl,
    postgresUrl,
    trustedProxies: env.TRUST_PROXY_HEADERS ?? 0,
  };
  // A sealed world is only ever chosen on a server of ours (choose-world.ts), whatever Vercel variables it was handed.
  return { config: { ...config, onVercel: env.VERCEL === '1' && !sealed }, problems };
}

export type AlertConfig = { smtpUrl: string; to: string; from: string };

/** How the lead's workflow retries (lib/contact/lead/workflow.ts), and whom it tells. */
export function parseDeliveryConfig(source: Source) {
  const { env, problems } = parseEach(source, 'delivery');
  const { ALERT_SMTP_URL: smtpUrl, ALERT_EMAIL_TO: to, ALERT_EMAIL_FROM: from } = env;
  const alert: AlertConfig | undefined = smtpUrl && to && from ? { smtpUrl, to, from } : undefined;
  // Some are there but not all, said at start-up (a malformed one is already said on its own).
  const partial =
    !alert &&
    [smtpUrl, to, from].some(Boolean) &&
    !problems.some((p) => p.variable.startsWith('ALERT_'));
  const alertProblem = partial ? ALERTS_TOGETHER : undefined;
  const backoffSeconds = env.CONTACT_OUTBOX_BACKOFF_SECONDS ?? DEFAULT_BACKOFF_SECONDS;
  const keepMs = Math.round((env.CONTACT_KEEP_DAYS ?? DEFAULT_KEEP_DAYS) * 24 * 60 * 60 * 1000);
  return { config: { backoffSeconds, keepMs, alert, alertProblem }, problems };
}

/** Where each confirmed lead is sent on, beside the contact API (lib/contact/lead/forward-workflow.ts). */
export type ForwardConfig = {
  webhook?: { url: string; secret: string };
  capi?: { pixelId: string; accessToken: string; graphUrl: string; testEventCode?: string };
};

export function parseForwardConfig(source: Source): Parsed<ForwardConfig> {
  const { env, problems } = parseEach(source, 'forward');
  const config: ForwardConfig = {};
  const {
    LEAD_WEBHOOK_URL: url,
    LEAD_WEBHOOK_SECRET: secret,
    META_CAPI_ACCESS_TOKEN: accessToken,
  } = env;
  const said = (prefix: string) => problems.some((problem) => problem.variable.startsWith(prefix));
  if (url && secret) config.webhook = { url, secret };
  else if ((url || secret) && !said('LEAD_WEBHOOK_')) {
    const message = 'LEAD_WEBHOOK_URL y LEAD_WEBHOOK_SECRET van juntas: falta una';
    problems.push({
      variable: url ? 'LEAD_WEBHOOK_SECRET' : 'LEAD_WEBHOOK_URL',
      message,
      fallback: NO_WEBHOOK,
    });
  }
  const pixelId = env.NEXT_PUBLIC_META_PIXEL_ID;
  const graphUrl = (env.META_GRAPH_API_URL ?? META_GRAPH_API_DEFAULT).replace(/\/+$/, '');
  const test = env.META_TEST_EVENT_CODE ? { testEventCode: env.META_TEST_EVENT_CODE } : {};
  if (accessToken && pixelId) config.capi = { pixelId, accessToken, graphUrl, ...test };
  else if (accessToken && !said('NEXT_PUBLIC_META_PIXEL_ID')) {
    const message = 'META_CAPI_ACCESS_TOKEN necesita el número del píxel';
    problems.push({ variable: 'NEXT_PUBLIC_META_PIXEL_ID', message, fallback: NO_CAPI });
  }
  return { config, problems };
}

/**
 * For `next build`: throws naming every malformed server variable once, the contact API's too, so the deployment
 * stops here. No API at all is fine: a fresh clone has none, and on Vercel the start-up report says so.
 */
export function assertServerEnv(source: Source = process.env): void {
  const { env, problems } = parseEach(source, 'contact');
  const message = 'está vacía, y es obligatoria cuando CONTACT_API_BASE_URL está definida';
  if (env.CONTACT_API_BASE_URL && !env.CONTACT_SITE_KEY)
    problems.push({ variable: 'CONTACT_SITE_KEY', message, fallback: NO_FORM });
  const all = uniqueByVariable([...problems, ...configProblems(source)]);
  if (all.length)
    throw new Error(`Variables de entorno del servidor inválidas:\n${listed(all).join('\n')}`);
}

/** Parsed once per server process, at first use; never throws: a malformed variable is off (see configProblems). */
const cached = <T>(parse: (source: Source) => T) => {
  let value: T | undefined;
  return () => (value ??= parse(process.env));
};
const rateLimit = cached(parseRateLimitConfig);
const delivery = cached(parseDeliveryConfig);
const forward = cached(parseForwardConfig);
export const getContactConfig = cached(parseContactConfig);
export const getRateLimitConfig = () => rateLimit().config;
export const getDeliveryConfig = () => delivery().config;
export const getForwardConfig = () => forward().config;
export const formSecret = () => parseFormSecret(process.env).config;
/** The staff area's variables, as they are (lib/staff/config.ts makes its configuration of them). */
export const staffEnv = cached((source) => parseEach(source, 'staff'));

/** The malformed optional variables this server runs without, for the start-up report (and the build's check). */
export function configProblems(source: Source = process.env): EnvProblem[] {
  const staff = (from: Source) => parseEach(from, 'staff');
  const parsers = [
    parseRateLimitConfig,
    parseDeliveryConfig,
    parseForwardConfig,
    parseFormSecret,
    staff,
  ];
  return uniqueByVariable(parsers.flatMap((parse) => parse(source).problems));
}

/** The Workflow SDK's variables, read at each call: lib/engine/choose-world.ts changes them in this process. */
export const workflowEnv = () => parseEach(process.env, 'shared').env;
/** The local inbox's folder, whether or not the contact API is set now: files from before may be there. */
export const getInboxDir = () => workflowEnv().CONTACT_INBOX_DIR;
