import 'server-only';
import {
  parseContactConfig,
  parseOutboxConfig,
  parseRateLimitConfig,
  uniqueByVariable,
  type ContactConfig,
  type EnvProblem,
  type OutboxConfig,
  type Parsed,
  type RateLimitConfig,
} from './server-schema';

/**
 * The server half of the env module (lib/env/): values that must never reach
 * the browser, read from process.env once per server process, at first use
 * (not at build time). The rules are in server-schema.ts, which next.config.ts
 * also runs at build time. The only other places that read process.env are
 * lib/env/public.ts and lib/env/build.ts (next.config.ts's own settings).
 */

export * from './server-schema';

let contactConfig: ContactConfig | undefined;

export function getContactConfig(): ContactConfig {
  contactConfig ??= parseContactConfig(process.env);
  return contactConfig;
}

let rateLimit: Parsed<RateLimitConfig> | undefined;

/** Never throws: a malformed variable takes its default (see configProblems). */
export function getRateLimitConfig(): RateLimitConfig {
  rateLimit ??= parseRateLimitConfig(process.env);
  return rateLimit.config;
}

let outbox: Parsed<OutboxConfig> | undefined;

/** Never throws: a malformed variable turns off only its own feature (see configProblems). */
export function getOutboxConfig(): OutboxConfig {
  outbox ??= parseOutboxConfig(process.env);
  return outbox.config;
}

/** The malformed optional variables this server runs without, for the start-up report. */
export function configProblems(): EnvProblem[] {
  getRateLimitConfig();
  getOutboxConfig();
  return uniqueByVariable([...(rateLimit?.problems ?? []), ...(outbox?.problems ?? [])]);
}
