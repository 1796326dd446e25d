import 'server-only';
import Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { getRateLimitConfig, RATE_LIMIT_DEFAULTS, type RateLimitConfig } from '@/lib/env/server';

/**
 * The abuse limit: a few enquiries per client IP and window. In memory by
 * default; in Redis when REDIS_URL is set, so every Vercel instance shares
 * the count. If Redis is unreachable an in-memory limiter takes over (per
 * instance, still a limit) rather than refusing genuine visitors.
 */

export type LimitVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export function createContactLimiter(config: RateLimitConfig, redis?: Redis): RateLimiterAbstract {
  const options = { keyPrefix: 'contacto', points: config.max, duration: config.windowSeconds };
  if (!config.redisUrl && !redis) return new RateLimiterMemory(options);
  const client = redis ?? createRedisClient(config.redisUrl as string);
  client.on('error', () => {}); // reported through the limiter's fallback, not as crashes
  return new RateLimiterRedis({ ...options, storeClient: client, insuranceLimiter: new RateLimiterMemory(options) });
}

function createRedisClient(url: string): Redis {
  return new Redis(url, {
    // Fail fast instead of queueing while Redis is away: the insurance limiter answers.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1000,
  });
}

export async function consume(limiter: RateLimiterAbstract, key: string): Promise<LimitVerdict> {
  try {
    await limiter.consume(key, 1);
    return { allowed: true };
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
    // The store failed and so did its insurance: let the visitor through, loudly.
    console.error('[contacto] El límite de solicitudes no respondió:', rejection instanceof Error ? rejection.message : 'error');
    return { allowed: true };
  }
}

/**
 * The client's IP. On Vercel (or behind a proxy you trust, TRUST_PROXY_HEADERS=1)
 * the platform writes x-real-ip / x-forwarded-for itself. Elsewhere only the
 * last x-forwarded-for entry is used: the one Next.js (or the nearest proxy)
 * wrote, not one a client made up.
 */
export function clientIp(headers: Pick<Headers, 'get'>, trustForwardedFor: boolean): string {
  const forwarded = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (trustForwardedFor) return headers.get('x-real-ip')?.trim() || forwarded[0] || 'desconocida';
  return forwarded.at(-1) || 'desconocida';
}

let limiter: RateLimiterAbstract | undefined;
let limiterRedis: Redis | undefined;

/** One enquiry from this request's client, against the configured limit. Never throws because of configuration. */
export async function consumeEnquiry(requestHeaders: Pick<Headers, 'get'>): Promise<LimitVerdict> {
  let config: RateLimitConfig = { ...RATE_LIMIT_DEFAULTS, trustForwardedFor: false };
  try {
    config = getRateLimitConfig();
    if (!limiter) {
      limiterRedis = config.redisUrl ? createRedisClient(config.redisUrl) : undefined;
      limiter = createContactLimiter(config, limiterRedis);
    }
  } catch (error) {
    // The limit must never cost a visitor their enquiry: the same limit in memory, for this instance.
    console.error(
      `[contacto] ERROR: no se pudo preparar el límite de solicitudes (${error instanceof Error ? error.name : 'error'}); se usa en memoria`,
    );
    closeEnquiryLimiter();
    limiter = createContactLimiter({ ...config, redisUrl: undefined });
  }
  return consume(limiter, clientIp(requestHeaders, config.trustForwardedFor));
}

/** Drops the shared limiter and disconnects its Redis client (tests, scripts): nothing keeps the process alive. */
export function closeEnquiryLimiter(): void {
  limiterRedis?.disconnect();
  limiterRedis = undefined;
  limiter = undefined;
}
