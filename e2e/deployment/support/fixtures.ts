import { appendFileSync } from 'node:fs';
import { test as base, expect, type Page } from '@playwright/test';
import { QA_COOKIE } from '../../../lib/experiments/visitor';
import { BYPASS_HEADER, bypassProtection, bypassSecret, SET_COOKIE_HEADER } from './bypass';

/** A request the page made to a host other than the deployment's, and whether it carried the bypass. */
type OtherHostRequest = { host: string; bypass: boolean; setCookie: boolean };

type Fixtures = { otherHosts: OtherHostRequest[]; consoleErrors: string[] };

/**
 * The deployment suite's browser:
 * - every request to the deployment's own host carries the bypass secret, if
 *   one is set (bypass.ts);
 * - every request to another host (Google's tags, reCAPTCHA, the chat) is
 *   answered in the browser with an empty script, so a QA run is neither a
 *   visit in the agency's analytics nor a conversion, and is recorded: none
 *   may carry the secret;
 * - any console error, uncaught exception or CSP violation fails the test.
 * Requests go only through the browser: Playwright's `request` fixture would
 * print its headers, the secret among them, in the call log of any error.
 */
export const test = base.extend<Fixtures>({
  request: async ({}, _use) => {
    throw new Error(
      'The deployment suite sends requests only through the page (see e2e/deployment/support/fixtures.ts).',
    );
  },
  // `provide` rather than Playwright's usual `use`, which React's lint rules take for the hook.
  otherHosts: async ({}, provide) => {
    const requests: OtherHostRequest[] = [];
    await provide(requests);
    // The stand-in deployment's test (scripts/deployment/stand-in-test.ts) reads what every test saw.
    const log = process.env.DEPLOYMENT_OTHER_HOSTS_LOG;
    if (log) for (const request of requests) appendFileSync(log, `${JSON.stringify(request)}\n`);
    expect(
      requests.filter((request) => request.bypass || request.setCookie),
      'requests to other hosts carrying the bypass',
    ).toEqual([]);
  },
  context: async ({ context, baseURL, otherHosts }, provide) => {
    const host = new URL(baseURL ?? '').host;
    await context.route(
      (url) => url.host !== host,
      async (route) => {
        const headers = await route.request().allHeaders();
        otherHosts.push({
          host: new URL(route.request().url()).host,
          bypass: BYPASS_HEADER in headers,
          setCookie: SET_COOKIE_HEADER in headers,
        });
        await route.fulfill({
          status: 200,
          contentType: 'application/javascript',
          body: '/* answered by the QA suite */',
        });
      },
    );
    await bypassProtection(context, host, bypassSecret());
    // A QA run is no visitor of an A/B experiment: it sees the control unless it asks for a variant (?variante=,
    // experiments.spec.ts), and neither its views nor its enquiries are counted (lib/experiments/visitor.ts).
    await context.addCookies([{ name: QA_COOKIE, value: '1', url: baseURL ?? '' }]);
    await provide(context);
  },
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(`${error.name}: ${error.message}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(
            `Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`,
          );
        });
      });
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

export const form = (page: Page) => page.locator('#contacto form');
export const sendButton = (page: Page) => form(page).getByRole('button', { name: /enviar/i });

/** A person reads before writing: by then the form's script runs (its button is disabled while the form is empty). */
export async function openLikeAPerson(page: Page): Promise<void> {
  await page.goto('/');
  await expect(sendButton(page)).toBeDisabled({ timeout: 20_000 });
}

/** A carousel once its engine runs, and the share of its visible width one logo takes (1: one per view, 0.25: four). */
export async function carouselSlideShare(page: Page, name: string): Promise<number> {
  const region = page.getByRole('region', { name });
  await region.scrollIntoViewIfNeeded();
  await expect(region).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  const share = await region.evaluate((root) => {
    const slide = root.querySelector('[aria-roledescription="slide"]');
    const viewport = slide?.parentElement?.parentElement;
    return slide && viewport
      ? slide.getBoundingClientRect().width / viewport.getBoundingClientRect().width
      : 0;
  });
  return Math.round(share * 100) / 100;
}
