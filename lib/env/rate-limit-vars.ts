import { z } from 'zod';
import { parseEach, positiveInt, type Fallbacks, type Parsed } from './parse-each';
import { optional, type Source } from './public';
import { REDIS_URL_FALLBACK, redisUrl } from './redis-vars';

export const RATE_LIMIT_DEFAULTS = { max: 5, windowSeconds: 600 } as const;

/** Proxies of yours in front of the server; beyond 10 is a typo, not a deployment. */
const MAX_TRUSTED_PROXIES = 10;
const PROXIES =
  `debe ser un número entero de 0 a ${MAX_TRUSTED_PROXIES}: ` + 'cuántos proxies propios hay delante del servidor';
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
  // The Workflow SDK's own variables: the Postgres world's database can hold the limit too.
  WORKFLOW_TARGET_WORLD: optional(z.string()),
  WORKFLOW_POSTGRES_URL: optional(z.string()),
};

const fallbacks: Fallbacks<typeof rateLimitShape> = {
  CONTACT_RATE_LIMIT_MAX: `se usa ${RATE_LIMIT_DEFAULTS.max}`,
  CONTACT_RATE_LIMIT_WINDOW_SECONDS: `se usa ${RATE_LIMIT_DEFAULTS.windowSeconds}`,
  REDIS_URL: REDIS_URL_FALLBACK,
  TRUST_PROXY_HEADERS: 'no se confía en ningún proxy (en Vercel se usa siempre la cabecera de Vercel)',
};

export type RateLimitConfig = {
  /** Enquiries allowed per client IP and window. */
  max: number;
  windowSeconds: number;
  /** Shared store for every instance; in memory when absent. */
  redisUrl?: string;
  /** Without Redis, on the Postgres world: its database holds the limit too. */
  postgresUrl?: string;
  /**
   * Proxies of yours in front of a self-hosted server (TRUST_PROXY_HEADERS):
   * the client is the N-th X-Forwarded-For entry from the right. 0: the last.
   */
  trustedProxies: number;
  /** On Vercel the platform overwrites its own client header, which wins over the rest. */
  onVercel: boolean;
};

export function parseRateLimitConfig(source: Source): Parsed<RateLimitConfig> {
  const { env, problems } = parseEach(rateLimitShape, source, fallbacks);
  return {
    config: {
      max: env.CONTACT_RATE_LIMIT_MAX,
      windowSeconds: env.CONTACT_RATE_LIMIT_WINDOW_SECONDS,
      redisUrl: env.REDIS_URL,
      postgresUrl: env.WORKFLOW_TARGET_WORLD === '@workflow/world-postgres' ? env.WORKFLOW_POSTGRES_URL : undefined,
      trustedProxies: env.TRUST_PROXY_HEADERS ?? 0,
      onVercel: env.VERCEL === '1',
    },
    problems,
  };
}
