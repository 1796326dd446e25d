import { randomUUID } from 'node:crypto';
import type { NextConfig } from 'next';
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD } from 'next/constants';
import { withWorkflow } from 'workflow/next';
import { chooseWorkflowWorld } from './lib/engine/choose-world';
import { publicEnv } from './lib/env/public';
import { assertServerEnv } from './lib/env/server';
import { assertExperiments } from './lib/experiments/definitions';
import { assertContentPictures, contentPictureProblems } from './lib/pictures/content-check';
import { DEVICE_SIZES, IMAGE_SIZES } from './lib/pictures/widths';
import { MAX_FORM_BODY_BYTES, PROXY_BODY_COPY_BYTES } from './lib/proxy/too-large';
import { securityHeaders } from './lib/server/security-headers';

/**
 * The Workflow SDK compiles the lead's workflow and its steps (lib/contact/lead/) and serves them under
 * /.well-known/workflow/. Its world is chosen first, knowing which command runs: `next start` and `next dev` are
 * always a server of ours, whose engine is sealed (or which refuses to start), whatever its variables say.
 */
export default async function config(
  phase: string,
  context: { defaultConfig: NextConfig },
): Promise<NextConfig> {
  chooseWorkflowWorld(phase);
  return withWorkflow(nextConfig)(phase, context);
}

async function nextConfig(phase: string): Promise<NextConfig> {
  // Only at build: `next start` must not die of a typo the server can run without (it reports it at start-up).
  if (phase === PHASE_PRODUCTION_BUILD) {
    assertServerEnv();
    // A missing picture, a wrong format, a file over 5 MB or a missing alt text stops the build, saying which and why.
    await assertContentPictures(process.cwd());
    // So does a running A/B experiment in the wrong shape (lib/content-experiments.ts), saying why.
    assertExperiments();
  }
  if (phase === PHASE_DEVELOPMENT_SERVER) {
    for (const problem of await contentPictureProblems(process.cwd()))
      console.warn(`AVISO ${problem}`);
  }
  // The form's edition (lib/proxy/stale-form.ts): one per build, inlined in the page and the proxy alike;
  // kept in process.env so every worker of the build sees the same one. `next start` makes none of its own.
  if (phase === PHASE_PRODUCTION_BUILD || phase === PHASE_DEVELOPMENT_SERVER)
    process.env.CONTACT_FORM_EDITION ||= randomUUID().slice(0, 8);
  const edition = process.env.CONTACT_FORM_EDITION;
  return {
    ...(edition ? { env: { CONTACT_FORM_EDITION: edition } } : {}),
    // The project is where next runs: never a folder above it that happens to hold another lockfile.
    turbopack: { root: process.cwd() },
    reactStrictMode: true,
    // The test harness's builds (test-support/harness.ts) skip the type check, a third of a build, that
    // `npm test` has already made with `npm run typecheck`. Every other build, Vercel's included, checks types.
    typescript: { ignoreBuildErrors: process.env.TEST_HARNESS_BUILD === '1' },
    poweredByHeader: false,
    // The proxy's rewrite of `/` to a variant (lib/proxy/experiments.ts) must stay inside this server. Next gives the
    // proxy a URL whose 127.0.0.1 is turned into localhost, then compares the rewrite with its own 127.0.0.1 address:
    // under `next start -H 127.0.0.1` (the tests', and a common self-hosting set-up) every rewrite is proxied over the
    // network back to the server, through the proxy again, and fails behind TLS (vercel/next.js#94745, fix in
    // #95917). Without the normalisation the proxy sees the address Next compares with. Only App Router here: the
    // option's other effect, on /_next/data URLs, does not apply.
    skipProxyUrlNormalize: true,
    images: {
      // Raster pictures (PNG, JPEG, WebP, AVIF) are sent as AVIF, or WebP to a browser without it; SVG as it is.
      formats: ['image/avif', 'image/webp'],
      // The widths the site's pictures are drawn at (lib/pictures/widths.ts).
      deviceSizes: DEVICE_SIZES,
      imageSizes: IMAGE_SIZES,
      // Imported pictures have a hash in their address: a new file is a new address, so the optimised copies keep for a
      // year.
      minimumCacheTTL: 31_536_000,
    },
    experimental: {
      // The page's own CSS goes inline: no render-blocking request before the first paint.
      inlineCss: true,
      // An address no route serves gets app/global-not-found.tsx, in Spanish, instead of Next's English default.
      globalNotFound: true,
      serverActions: {
        // The form's own size (lib/proxy/too-large.ts); the proxy refuses a bigger post before this is reached.
        bodySizeLimit: MAX_FORM_BODY_BYTES,
      },
      // Next buffers a copy of each body the proxy sees (10 MB by default); just above the form's limit, so the proxy
      // can tell a bigger one.
      proxyClientMaxBodySize: PROXY_BODY_COPY_BYTES,
    },
    async headers() {
      return [
        // The variants of `/` are reached through the proxy's rewrite, whose response has the address `/`; asked for
        // by their own address (which the proxy sends to `/`), they say they are not to be indexed. A header, not a
        // meta tag: the page itself is what `/` shows, and must stay indexable there.
        { source: '/variante/:path*', headers: [{ key: 'X-Robots-Tag', value: 'noindex' }] },
        {
          source: '/:path*',
          headers: securityHeaders({
            gaMeasurementId: publicEnv.gaMeasurementId,
            googleAdsId: publicEnv.googleAdsId,
            metaPixelId: publicEnv.metaPixelId,
            recaptchaSiteKey: publicEnv.recaptchaSiteKey,
            chatWidgetSrc: publicEnv.chatWidgetSrc,
            development: phase === PHASE_DEVELOPMENT_SERVER,
          }),
        },
      ];
    },
  };
}
