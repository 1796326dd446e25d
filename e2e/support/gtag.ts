import type { Page } from '@playwright/test';

/** One event gtag was given, as the stand-in sent it on. */
export type Hit = {
  name: string;
  params: Record<string, unknown>;
  /** Date.now() when the hit reached the test, and when it was answered (gtag's event_callback follows). */
  at: number;
  answeredAt: number;
};

export type GtagOptions = {
  /** How long each hit takes to be answered: gtag calls event_callback only after. */
  hitDelayMs?: number;
  /** Or when (Date.now()) each hit is answered, resolved when the hit arrives. */
  answerAt?: () => Promise<number>;
  /** false: never call event_callback, like a gtag.js that never arrives. */
  callBack?: boolean;
};

const COLLECT_URL = 'https://region1.google-analytics.com/g/collect';

/**
 * A script that reads the dataLayer as gtag.js does: every entry already
 * queued, then every push, each through `handle(entry)` (JavaScript source
 * declaring that function). `flag` keeps it to one instance per page: GA and
 * Ads each load gtag.js, as the real one the stand-in runs once.
 */
export function dataLayerReader(flag: string, handle: string): string {
  return `(function () {
  if (window.${flag}) return;
  window.${flag} = true;
  var layer = (window.dataLayer = window.dataLayer || []);
  ${handle}
  layer.forEach(handle);
  var push = layer.push;
  layer.push = function () {
    for (var i = 0; i < arguments.length; i++) handle(arguments[i]);
    return push.apply(layer, arguments);
  };
})();`;
}

/**
 * A stand-in for gtag.js that records every event it is given: it sends each
 * event (without its functions) to a Google Analytics address the test
 * answers, then calls the event's event_callback, as gtag.js does once a hit
 * is sent. Hits arrive in the test even when the page has left since.
 */
function standInScript(callBack: boolean): string {
  return dataLayerReader(
    '__gtagStandIn',
    `function handle(entry) {
    var args = Array.prototype.slice.call(entry);
    if (args[0] !== 'event') return;
    var params = args[2] || {};
    var copy = {};
    for (var key in params) if (typeof params[key] !== 'function') copy[key] = params[key];
    fetch(${JSON.stringify(COLLECT_URL)}, {
      method: 'POST', mode: 'no-cors', keepalive: true,
      body: JSON.stringify({ name: args[1], params: copy })
    }).then(function () {
      if (${callBack} && typeof params.event_callback === 'function') params.event_callback();
    }, function () {});
  }`,
  );
}

/** Serves the stand-in for every gtag.js request of `page` and collects what it sends. */
export async function standInGtag(page: Page, options: GtagOptions = {}) {
  const hits: Hit[] = [];
  /** Date.now() of every gtag.js request. */
  const scriptRequests: number[] = [];
  const body = standInScript(options.callBack ?? true);

  // Page routes take precedence over the fixture's catch-all for third parties.
  await page.route('https://www.googletagmanager.com/gtag/js**', async (route) => {
    scriptRequests.push(Date.now());
    await route.fulfill({ status: 200, contentType: 'application/javascript', body });
  });
  await page.route(`${COLLECT_URL}**`, async (route) => {
    const at = Date.now();
    const sent = JSON.parse(route.request().postData() ?? '{}') as {
      name: string;
      params: Record<string, unknown>;
    };
    if (options.hitDelayMs) await new Promise((resolve) => setTimeout(resolve, options.hitDelayMs));
    if (options.answerAt) {
      const answerAt = await options.answerAt();
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, answerAt - Date.now())));
    }
    hits.push({ ...sent, at, answeredAt: Date.now() });
    // The page may have left (keepalive hits outlive it): nothing to answer then.
    await route.fulfill({ status: 204 }).catch(() => undefined);
  });

  return {
    hits,
    scriptRequests,
    named: (name: string) => hits.filter((hit) => hit.name === name),
    /** True once the stand-in runs on the current page. */
    loaded: () =>
      page.evaluate(() => (window as { __gtagStandIn?: boolean }).__gtagStandIn === true),
  };
}
