import { contactProblems, parseFormSecret } from './contact-vars';
import { parseDeliveryConfig } from './delivery-vars';
import { parseForwardConfig } from './forward-vars';
import { uniqueByVariable, type EnvProblem } from './parse-each';
import type { Source } from './public';
import { parseRateLimitConfig } from './rate-limit-vars';

/**
 * The server variables' rules, as pure functions of a given source: no
 * `server-only`, no process.env. lib/env/server.ts applies them to
 * process.env at run time; next.config.ts (through lib/env/build.ts) checks
 * them at `next build`, so a malformed value fails the build and the
 * previous deployment stays online. One file per group of variables.
 */

export type { AlertConfig } from './alert-vars';
export { parseContactConfig, parseFormSecret, type ContactConfig } from './contact-vars';
export { DEFAULT_BACKOFF_SECONDS, parseDeliveryConfig, type DeliveryConfig } from './delivery-vars';
export { parseForwardConfig, type ForwardConfig } from './forward-vars';
export { uniqueByVariable, type EnvProblem, type Parsed } from './parse-each';
export { parseRateLimitConfig, RATE_LIMIT_DEFAULTS, type RateLimitConfig } from './rate-limit-vars';

/**
 * Every malformed server variable, once each: the contact API's (which the
 * form cannot do without) and the optional ones (which fall back). A contact
 * API is not required: a fresh clone has none, and on Vercel its absence is
 * reported at start-up.
 */
export function serverEnvProblems(source: Source): EnvProblem[] {
  return uniqueByVariable([
    ...contactProblems(source),
    ...parseRateLimitConfig(source).problems,
    ...parseDeliveryConfig(source).problems,
    ...parseForwardConfig(source).problems,
    ...parseFormSecret(source).problems,
  ]);
}

/** For `next build`: throws naming every malformed server variable, so the deployment stops here. */
export function assertServerEnv(source: Source): void {
  const problems = serverEnvProblems(source);
  if (!problems.length) return;
  throw new Error(
    `Variables de entorno del servidor ` +
      `inválidas:\n${problems.map((problem) => `  - ${problem.variable}: ${problem.message}`).join('\n')}`,
  );
}
