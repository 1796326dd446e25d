import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import {
  parseContactConfig,
  parseFormSecret,
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
 * (not at build time). The rules are in server-schema.ts (and its *-vars.ts),
 * which next.config.ts also runs at build time. The only other places that read process.env are
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

/** Where the form's signing key comes from, for the start-up report. */
export type FormKeySource = 'secret' | 'site-key' | 'process';
let formKey: { key: Uint8Array; source: FormKeySource } | undefined;

/**
 * The key that signs the form's time on screen (lib/contact/form-token.ts): every instance
 * must share it. CONTACT_FORM_SECRET; else derived from CONTACT_SITE_KEY, which every
 * instance with a contact API has (one-way: the key says nothing of the site key); else
 * random for this process (the local inbox: one process).
 */
export function getFormTokenKey(): { key: Uint8Array; source: FormKeySource } {
  if (!formKey) {
    const secret = parseFormSecret(process.env).config;
    const contact = getContactConfig();
    const derive = (from: string) => createHash('sha256').update(`contacto:firma:${from}`).digest();
    formKey = secret
      ? { key: derive(secret), source: 'secret' }
      : contact.mode === 'api'
        ? { key: derive(contact.siteKey), source: 'site-key' }
        : { key: randomBytes(32), source: 'process' };
  }
  return formKey;
}

/** The malformed optional variables this server runs without, for the start-up report. */
export function configProblems(): EnvProblem[] {
  getRateLimitConfig();
  getOutboxConfig();
  return uniqueByVariable([...(rateLimit?.problems ?? []), ...(outbox?.problems ?? []), ...parseFormSecret(process.env).problems]);
}
