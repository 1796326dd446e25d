import { publicEnv } from '../env/public';
import { agencyPhone } from '../error-copy';

/**
 * How big a post may be, and what a bigger one gets. Plain values and a plain
 * Response (no next/server, nothing server-only): next.config.ts reads the
 * limit from here and the proxy sends the page.
 */

/**
 * Five short text fields (at most ~4 kB of UTF-8 and a ~2 kB captcha token)
 * plus multipart overhead: anything bigger is not the form. Both the proxy and
 * serverActions.bodySizeLimit hold posts to it.
 */
export const MAX_FORM_BODY_BYTES = 32 * 1024;

/**
 * How much of a body Next copies for the proxy and the action
 * (proxyClientMaxBodySize; 10 MB by default, held twice in memory per post).
 * Past it Next reads on but keeps nothing, and drops the whole chunk that
 * crossed it: a chunk is one socket read, up to 64 KiB. One read above the
 * form's limit, the proxy's copy of any bigger body still holds more than
 * MAX_FORM_BODY_BYTES, so the proxy can tell.
 */
const SOCKET_READ_BYTES = 64 * 1024;
export const PROXY_BODY_COPY_BYTES = MAX_FORM_BODY_BYTES + SOCKET_READ_BYTES;

export const tooLargeCopy = {
  title: 'Mensaje demasiado largo | Impulso Digital',
  heading: 'Tu mensaje es demasiado largo',
  text: 'No pudimos enviarlo porque es más largo de lo que acepta el formulario.',
  call: 'Llámanos al',
  or: 'o',
  whatsapp: 'escríbenos por WhatsApp',
};

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** The whole page: no scripts, no styles, nothing to load (a visitor without JavaScript may be on it). */
export function tooLargeHtml(whatsappUrl: string = publicEnv.whatsappUrl): string {
  const copy = tooLargeCopy;
  return [
    '<!doctype html>',
    '<html lang="es">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta ' +
      'name="robots" content="noindex">',
    `<title>${escapeHtml(copy.title)}</title></head>`,
    '<body><main>',
    `<h1>${escapeHtml(copy.heading)}</h1>`,
    `<p>${escapeHtml(copy.text)}</p>`,
    `<p>${escapeHtml(copy.call)} <a ` +
      `href="tel:${escapeHtml(agencyPhone.e164)}">${escapeHtml(agencyPhone.display)}</a> ${copy.or} <a ` +
      `href="${escapeHtml(whatsappUrl)}">${escapeHtml(copy.whatsapp)}</a>.</p>`,
    '</main></body>',
    '</html>',
  ].join('\n');
}

/**
 * 413 with the page above; no-store so no cache keeps it. No `Connection:
 * close`: Next's router drops that header from a proxy's answer, and sends
 * the answer only once the upload has ended anyway.
 */
export function tooLargeResponse(): Response {
  return new Response(tooLargeHtml(), {
    status: 413,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' },
  });
}
