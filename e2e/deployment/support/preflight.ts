import { bypassHeaders, bypassSecret } from './bypass';
import { engineLine } from './devices';

/**
 * Before any browser starts: the suite needs a deployment's address, and a
 * protected deployment that refuses the suite fails the whole run at once,
 * saying why, rather than every test on Vercel's log-in page. Never prints
 * the secret.
 */
export default async function preflight(): Promise<void> {
  const base = process.env.PLAYWRIGHT_BASE_URL;
  if (!base)
    throw new Error(
      'npm run test:deployment needs the deployment: PLAYWRIGHT_BASE_URL=https://… npm run test:deployment',
    );
  const secret = bypassSecret();
  const response = await fetch(new URL('/', base), {
    headers: bypassHeaders(secret, true),
    redirect: 'manual',
    signal: AbortSignal.timeout(30_000),
  });
  if (response.status === 401 || response.status === 403) {
    throw new Error(
      secret
        ? `${base} answered ${response.status} with VERCEL_AUTOMATION_BYPASS_SECRET: the secret is not this project's (Project Settings -> Deployment Protection -> Protection Bypass for Automation).`
        : `${base} answered ${response.status}: it is protected (Vercel Deployment Protection). Set VERCEL_AUTOMATION_BYPASS_SECRET (docs/testing.md).`,
    );
  }
  console.log(
    `Deployment: ${base} (${response.status}${secret ? ', with the protection bypass' : ''}). ${engineLine()}`,
  );
}
