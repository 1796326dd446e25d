import { fbq } from './analytics';

/**
 * The Meta Pixel, started as Meta's base code does it. Imported only by the
 * lazily loaded tags chunk: nothing of it is in the JavaScript of a first visit.
 */

/** The one script Meta's base code loads. */
export const META_PIXEL_SRC = 'https://connect.facebook.net/en_US/fbevents.js';

type MetaFbq = ((...args: unknown[]) => void) & {
  callMethod?: (...args: unknown[]) => void;
  queue: unknown[];
  push: MetaFbq;
  loaded: boolean;
  version: string;
};

/**
 * Meta's stub (it queues every command until fbevents.js arrives and takes
 * them), the script, `init` and the PageView, then the commands sent before
 * the pixel started (a WhatsApp click's Contact), which Meta takes only after
 * `init`. Once per page.
 */
export function startMetaPixel(pixelId: string): void {
  if (window.fbq) return;
  // Meta's own stub, written out: fbevents.js replays the Arguments objects it queued, as gtag.js does.
  /* eslint-disable prefer-rest-params, prefer-spread */
  const stub = function () {
    if (stub.callMethod) stub.callMethod.apply(stub, arguments as unknown as unknown[]);
    else stub.queue.push(arguments);
  } as MetaFbq;
  /* eslint-enable prefer-rest-params, prefer-spread */
  stub.push = stub;
  stub.loaded = true;
  stub.version = '2.0';
  stub.queue = [];
  window.fbq = stub;
  const global = window as { _fbq?: MetaFbq };
  global._fbq = global._fbq ?? stub;

  const script = document.createElement('script');
  script.async = true;
  script.src = META_PIXEL_SRC;
  document.head.appendChild(script);

  fbq('init', pixelId);
  fbq('track', 'PageView');
  for (const args of window.fbqQueue?.splice(0) ?? []) fbq(...args);
}
