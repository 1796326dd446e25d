import { NextResponse, type NextFetchEvent, type NextRequest } from 'next/server';
import { experimentResponse } from './lib/proxy/experiments';
import { guardEngineRoutes } from './lib/engine/public-routes';
import {
  encodeValues,
  isOtherEdition,
  postedValues,
  RETRY_PATH,
  VALUES_HEADER,
} from './lib/proxy/stale-form';
import {
  encodeTouch,
  FIRST_TOUCH_COOKIE,
  FIRST_TOUCH_DAYS,
  LAST_TOUCH_COOKIE,
  touchOf,
} from './lib/contact/source';
import { MAX_FORM_BODY_BYTES, tooLargeResponse } from './lib/proxy/too-large';
import { actionPostRefusal, isActionPost, refusal } from './lib/proxy/action-post';

/** Pages that exist besides `/` (static; the proxy serves its variants while an experiment runs). */
const KNOWN_PATHS = new Set(['/aviso-de-privacidad', '/gracias']);
/** The staff area answers for itself: a 404 when it is not configured, never a redirect that says it exists. */
const STAFF_AREA = /^\/equipo(\/|$)/;

/**
 * Where a request should be sent instead, or null to serve it as it is.
 * `/home` and every unknown page (not `/api/`) go to `/`; the query string (gclid, utm_*)
 * is kept because ads traffic depends on it.
 */
export function redirectTarget(method: string, url: URL): URL | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  // Route handlers (the outbox flush) answer for themselves.
  if (
    path === '/' ||
    KNOWN_PATHS.has(path) ||
    STAFF_AREA.test(path) ||
    path === '/api' ||
    path.startsWith('/api/')
  )
    return null;
  const target = new URL(url);
  target.pathname = '/';
  return target;
}

/**
 * The body's bytes, or null as soon as they run over `limit`: the stream is
 * cancelled there, so a body of any size costs at most the limit and one chunk.
 */
export async function readWithin(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const bytes = new Uint8Array(limit);
  if (!body) return bytes.subarray(0, 0);
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes.subarray(0, size);
    if (size + value.byteLength > limit) {
      // Not awaited: the refusal need not wait for the stream to wind down.
      reader.cancel().catch(() => {});
      return null;
    }
    bytes.set(value, size);
    size += value.byteLength;
  }
}

/** What the matcher's entries for every path look for: an action's id, or a form's body. */
const carriesAction = (request: NextRequest) =>
  request.headers.has('next-action') ||
  Boolean(request.headers.get('content-type')?.startsWith('multipart/form-data'));

/** A browser's own form post (no JavaScript): the only kind that can come from a stale page's form. */
const isNoScriptFormPost = (request: NextRequest) =>
  !request.headers.has('next-action') &&
  Boolean(request.headers.get('content-type')?.startsWith('multipart/form-data'));

/**
 * A post's body within MAX_FORM_BODY_BYTES, whatever its framing: 'too-large'
 * (refused), the bytes when they are needed or had to be counted, or null
 * when a Content-Length within the limit already vouches for the size.
 */
async function boundedBody(
  request: NextRequest,
  needBytes: boolean,
): Promise<Uint8Array<ArrayBuffer> | 'too-large' | null> {
  const declared = request.headers.get('content-length');
  // Node's parser never delivers more than Content-Length: a small one is trusted without reading.
  if (declared !== null) {
    if (!(Number(declared) <= MAX_FORM_BODY_BYTES)) return 'too-large';
    if (!needBytes) return null;
  }
  return (await readWithin(request.body, MAX_FORM_BODY_BYTES)) ?? 'too-large';
}

/**
 * A contact form sent without JavaScript from a page of another build (its
 * edition field is not this build's, lib/proxy/stale-form.ts): instead of
 * Next's bare 409, the retry page shows the current form with the values
 * filled in again. Anything else (and anything in doubt) goes on to Next.
 */
export async function staleFormRetry(
  request: NextRequest,
  body: Uint8Array<ArrayBuffer>,
): Promise<NextResponse | null> {
  let form: FormData;
  try {
    form = await new Response(body, {
      headers: { 'content-type': request.headers.get('content-type') ?? '' },
    }).formData();
  } catch {
    return null;
  }
  if (!isOtherEdition(form)) return null;

  console.warn(
    '[contacto] Formulario de una versión anterior del sitio enviado sin JavaScript: se devuelve con sus valores ' +
      'para reenviarlo',
  );
  const headers = new Headers(request.headers);
  // Not a Server Action any more: the retry page is rendered instead.
  headers.set('content-type', 'text/plain;charset=UTF-8');
  headers.set(VALUES_HEADER, encodeValues(postedValues(form)));
  return NextResponse.rewrite(new URL(RETRY_PATH, request.url), { request: { headers } });
}

/**
 * Every post the proxy sees is held to the form's size before anything reads
 * it: Next copies at most PROXY_BODY_COPY_BYTES of a body for the proxy and
 * the action alike, so a bigger one must stop here. A post Next reads as a
 * Server Action is then held to what Next can read (lib/proxy/action-post.ts):
 * it answers anything else with a 500. Null lets it go on.
 */
async function guardPost(request: NextRequest): Promise<Response | null> {
  const action = isActionPost(request.method, request.headers);
  const noScriptForm = request.nextUrl.pathname === '/' && isNoScriptFormPost(request);
  const body = await boundedBody(request, action || noScriptForm);
  if (body === 'too-large') {
    const framing = request.headers.has('content-length') ? 'Content-Length' : 'sin Content-Length';
    console.warn(
      `[contacto] Envío rechazado (413): el cuerpo pasa de ${MAX_FORM_BODY_BYTES} bytes (${framing})`,
    );
    return tooLargeResponse();
  }
  const refused = action && body ? await actionPostRefusal(request.headers, body) : null;
  if (refused) return refused;
  return noScriptForm && body ? staleFormRetry(request, body) : null;
}

/**
 * A visit that says where it came from (an ad's click id or campaign tags in
 * the address, or another site in its Referer: lib/contact/source.ts) is remembered in first-party cookies,
 * HttpOnly, for the lead it may become: the visit itself for the session, and
 * the first such visit for FIRST_TOUCH_DAYS. No script, so it works without
 * JavaScript and costs the static page nothing.
 */
export function rememberSource(request: NextRequest, response: NextResponse): NextResponse {
  const touch = touchOf(request.nextUrl, request.headers.get('referer'), Date.now(), [
    request.headers.get('host'),
    request.headers.get('x-forwarded-host'),
  ]);
  if (!touch) return response;
  const value = encodeTouch(touch);
  const options = {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.nextUrl.protocol === 'https:',
    path: '/',
  } as const;
  response.cookies.set(LAST_TOUCH_COOKIE, value, options);
  if (!request.cookies.has(FIRST_TOUCH_COOKIE))
    response.cookies.set(FIRST_TOUCH_COOKIE, value, {
      ...options,
      maxAge: FIRST_TOUCH_DAYS * 24 * 60 * 60,
    });
  return response;
}

// `event` is Next's; a unit test may call without one.
/** True when every percent-escape of `path` is one. */
function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export async function proxy(request: NextRequest, event?: NextFetchEvent): Promise<Response> {
  // The engine's routes first, before anything here reads the request (lib/engine/public-routes.ts).
  const engine = guardEngineRoutes(request);
  if (engine) return engine;
  // A path no browser writes (`/variante/%z`): Next fails to decode its dynamic segment with a 500.
  if (!decodable(request.nextUrl.pathname)) return refusal(400);
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    const answer = await guardPost(request);
    if (answer) return answer;
  } else if (carriesAction(request)) {
    // Not a page view: the matcher brings these here from every path, static files included, and none is redirected.
    return NextResponse.next();
  }
  // request.url, not nextUrl (whose 127.0.0.1 is localhost): the address Next keeps a same-site Location relative
  // against (skipProxyUrlNormalize, next.config.ts).
  const target = redirectTarget(request.method, new URL(request.url));
  if (!target) {
    // With no experiment running, null at once: `/` is served as it is.
    const response = (await experimentResponse(request, event)) ?? NextResponse.next();
    return request.nextUrl.search || request.headers.has('referer')
      ? rememberSource(request, response)
      : response;
  }
  // /home is a permanent alias; unknown paths may become pages one day.
  const status = request.nextUrl.pathname === '/home' ? 308 : 307;
  return NextResponse.redirect(target, status);
}

export const config = {
  matcher: [
    /*
     * Every request to `/`: the form's posts (the island's carry a next-action header, a browser's own post a
     * multipart body), the page views whose address names an ad or a campaign or that come from another site
     * (remembered: lib/contact/source.ts), and, while an experiment runs, every page view, to serve the
     * visitor's variant (lib/proxy/experiments.ts). Next reads this list without running the file, so it cannot
     * depend on whether an experiment runs: with none, the proxy passes `/` on untouched.
     */
    '/',
    // The variants' own pages, reached only through the proxy's rewrite: asked for directly, they go to `/`. Listed
    // on their own because their codes have dots, which the pattern below takes for a file's extension.
    '/variante/:path*',
    /*
     * A post Next may read as a Server Action, on any path: a page, and the
     * not-found page behind every path the last entry leaves out (api/nada,
     * nada.txt). Next answers a malformed one with a 500 (guardPost). No page
     * view or file request carries either header.
     */
    { source: '/:path*', has: [{ type: 'header', key: 'next-action' }] },
    {
      source: '/:path*',
      has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }],
    },
    // The engine's routes (the Workflow SDK's): only what its door passes reaches them (lib/engine/public-routes.ts).
    '/.well-known/workflow/:path*',
    /*
     * Every path except `/` itself, Next's own files (_next, __nextjs),
     * Vercel's (_vercel), route handlers (api/), files in public/ (images/,
     * any name with an extension), metadata routes and .well-known/.
     */
    '/((?!_next/|api/|__nextjs|_vercel/|images/|\\.well-known/|robots\\.txt|sitemap\\.xml|manifest\\.webmanifest|manifest\\.json|favicon\\.ico|icon|apple-icon|opengraph-image|twitter-image)(?!.*\\.[a-zA-Z0-9]+$).+)',
  ],
};
