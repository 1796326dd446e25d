import 'server-only';
import { SEALED_WORLD_MODULE } from './build';
import {
  parseContactConfig,
  parseFormSecret,
  parseDeliveryConfig,
  parseForwardConfig,
  parseRateLimitConfig,
  uniqueByVariable,
  type ContactConfig,
  type EnvProblem,
  type DeliveryConfig,
  type ForwardConfig,
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

let delivery: Parsed<DeliveryConfig> | undefined;

/** Never throws: a malformed variable turns off only its own feature (see configProblems). */
export function getDeliveryConfig(): DeliveryConfig {
  delivery ??= parseDeliveryConfig(process.env);
  return delivery.config;
}

let forward: Parsed<ForwardConfig> | undefined;

/** Where confirmed leads are sent on (the webhook, Meta's Conversions API); never throws: a malformed one is off. */
export function getForwardConfig(): ForwardConfig {
  forward ??= parseForwardConfig(process.env);
  return forward.config;
}

/** Which Workflow SDK world holds the leads (chosen by lib/env/build.ts at start-up, or by the platform). */
export type WorkflowWorld =
  | { kind: 'local'; dir: string }
  | { kind: 'postgres'; url: string }
  | { kind: 'vercel' }
  | { kind: 'other'; target: string };

export function getWorkflowWorld(): WorkflowWorld {
  const chosen = process.env.WORKFLOW_TARGET_WORLD;
  // Sealed by lib/env/build.ts: the world inside is the one that holds the leads.
  const sealed = chosen?.endsWith(SEALED_WORLD_MODULE) ? process.env.ENGINE_WORLD : undefined;
  const target = sealed || chosen || (process.env.VERCEL === '1' ? 'vercel' : 'local');
  // The folder lib/env/build.ts gives the server, for a script that did not load next.config.ts.
  if (target === 'local')
    return {
      kind: 'local',
      dir: process.env.WORKFLOW_LOCAL_DATA_DIR || `${process.env.CONTACT_INBOX_DIR || '.inbox'}/workflow`,
    };
  // The same default as @workflow/world-postgres's createWorld(), so `npm run leads` reads the database the server
  // uses.
  if (target === '@workflow/world-postgres')
    return {
      kind: 'postgres',
      url: process.env.WORKFLOW_POSTGRES_URL || 'postgres://world:world@localhost:5432/world',
    };
  return target === 'vercel' ? { kind: 'vercel' } : { kind: 'other', target };
}

/**
 * Where the site itself listens on this machine: the engine's door
 * (lib/engine/door.ts) passes the world's deliveries there.
 */
export function getWorkflowServerUrl(): string {
  return (
    process.env.ENGINE_SITE_URL || process.env.WORKFLOW_LOCAL_BASE_URL || `http://localhost:${process.env.PORT || 3000}`
  );
}

/**
 * The local inbox's folder (CONTACT_INBOX_DIR), whether or not the contact API is set now: files from before may be
 * there.
 */
export function getInboxDir(): string {
  return process.env.CONTACT_INBOX_DIR || '.inbox';
}

/**
 * CONTACT_FORM_SECRET when it is long enough to sign the form with (lib/contact/signature-store.ts), else undefined.
 */
export function formSecret(): string | undefined {
  return parseFormSecret(process.env).config;
}

/** The malformed optional variables this server runs without, for the start-up report. */
export function configProblems(): EnvProblem[] {
  getRateLimitConfig();
  getDeliveryConfig();
  getForwardConfig();
  return uniqueByVariable([
    ...(rateLimit?.problems ?? []),
    ...(delivery?.problems ?? []),
    ...(forward?.problems ?? []),
    ...parseFormSecret(process.env).problems,
  ]);
}
