import type { BrowserContext } from '@playwright/test';

/**
 * Vercel's Deployment Protection lets automated tests in with the project's
 * "Protection Bypass for Automation" secret, sent in a header; the first
 * request also asks Vercel for a cookie that carries the bypass on.
 * https://vercel.com/docs/deployment-protection/methods-to-bypass-deployment-protection/protection-bypass-automation
 */
export const BYPASS_HEADER = 'x-vercel-protection-bypass';
export const SET_COOKIE_HEADER = 'x-vercel-set-bypass-cookie';

/** The secret, or undefined for a deployment without protection. */
export function bypassSecret(): string | undefined {
  return process.env.VERCEL_AUTOMATION_BYPASS_SECRET || undefined;
}

/** The headers for one request to the deployment's own host (never to any other). */
export function bypassHeaders(secret: string | undefined, first: boolean): Record<string, string> {
  if (!secret) return {};
  return first
    ? { [BYPASS_HEADER]: secret, [SET_COOKIE_HEADER]: 'true' }
    : { [BYPASS_HEADER]: secret };
}

/**
 * Adds the bypass to every request this browser context makes to `host`, and
 * to nothing else: not Playwright's extraHTTPHeaders, which would hand the
 * secret to Google's tags, reCAPTCHA and the chat as well.
 */
export async function bypassProtection(
  context: BrowserContext,
  host: string,
  secret: string | undefined,
): Promise<void> {
  if (!secret) return;
  let first = true;
  await context.route(
    (url) => url.host === host,
    (route) => {
      const headers = { ...route.request().headers(), ...bypassHeaders(secret, first) };
      first = false;
      return route.fallback({ headers });
    },
  );
}
