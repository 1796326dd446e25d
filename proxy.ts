import { NextResponse, type NextRequest } from 'next/server';
import { encodeValues, pageActionIds, postedActionIds, postedValues, RETRY_PATH, VALUES_HEADER } from './lib/contact/stale-form';

/** Pages that exist besides `/` (which is static and never reaches the proxy). */
const KNOWN_PATHS = new Set(['/aviso-de-privacidad', '/gracias']);

/**
 * Where a request should be sent instead, or null to serve it as it is.
 * `/home` and every unknown page (not `/api/`) go to `/`; the query string (gclid, utm_*)
 * is kept because ads traffic depends on it.
 */
export function redirectTarget(method: string, url: URL): URL | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const path = url.pathname.replace(/\/+$/, '') || '/';
  // Route handlers (the outbox flush) answer for themselves.
  if (path === '/' || KNOWN_PATHS.has(path) || path === '/api' || path.startsWith('/api/')) return null;
  const target = new URL(url);
  target.pathname = '/';
  return target;
}

/** A contact form posts about 2 kB; anything far bigger is left to Next's own body limit. */
const MAX_FORM_BYTES = 64 * 1024;

let currentIds: Promise<ReadonlySet<string>> | undefined;

/**
 * The action ids this deployment's home page renders, read once from the page
 * itself (they change with every build and nothing else knows them here).
 */
async function currentActionIds(origin: string): Promise<ReadonlySet<string> | null> {
  currentIds ??= fetch(`${origin}/`, { cache: 'no-store' })
    .then((response) => (response.ok ? response.text() : Promise.reject(new Error(String(response.status)))))
    .then((html) => new Set(pageActionIds(html)));
  try {
    const ids = await currentIds;
    if (ids.size > 0) return ids;
  } catch {}
  currentIds = undefined;
  return null;
}

/**
 * A contact form sent without JavaScript from a page of an older deployment:
 * instead of Next's bare 409, the retry page shows the current form with the
 * values filled in again. Anything else (and anything in doubt) goes on to Next.
 */
export async function staleFormRetry(request: NextRequest): Promise<NextResponse | null> {
  if (request.method !== 'POST' || request.headers.has('next-action')) return null;
  if (!request.headers.get('content-type')?.startsWith('multipart/form-data')) return null;
  if (!(Number(request.headers.get('content-length')) <= MAX_FORM_BYTES)) return null;
  let form: FormData;
  try {
    form = await request.clone().formData();
  } catch {
    return null;
  }
  const posted = postedActionIds(form);
  if (posted.length === 0) return null;
  const known = await currentActionIds(request.nextUrl.origin);
  if (!known || posted.every((id) => known.has(id))) return null;

  console.warn('[contacto] Formulario de una versión anterior del sitio enviado sin JavaScript: se devuelve con sus valores para reenviarlo');
  const headers = new Headers(request.headers);
  // Not a Server Action any more: the retry page is rendered instead.
  headers.set('content-type', 'text/plain;charset=UTF-8');
  headers.set(VALUES_HEADER, encodeValues(postedValues(form)));
  return NextResponse.rewrite(new URL(RETRY_PATH, request.url), { request: { headers } });
}

export async function proxy(request: NextRequest) {
  const retry = await staleFormRetry(request);
  if (retry) return retry;
  const target = redirectTarget(request.method, request.nextUrl);
  if (!target) return NextResponse.next();
  // /home is a permanent alias; unknown paths may become pages one day.
  const status = request.nextUrl.pathname === '/home' ? 308 : 307;
  return NextResponse.redirect(target, status);
}

export const config = {
  matcher: [
    // A form posted by the browser itself (no JavaScript): checked for a stale action id.
    {
      source: '/',
      has: [{ type: 'header', key: 'content-type', value: 'multipart/form-data.*' }],
      missing: [{ type: 'header', key: 'next-action' }],
    },
    /*
     * Every path except `/` itself, Next's own files (_next, __nextjs),
     * Vercel's (_vercel), route handlers (api/), files in public/ (images/,
     * any name with an extension), metadata routes and .well-known/.
     */
    '/((?!_next/|api/|__nextjs|_vercel/|images/|\\.well-known/|robots\\.txt|sitemap\\.xml|manifest\\.webmanifest|manifest\\.json|favicon\\.ico|icon|apple-icon|opengraph-image|twitter-image)(?!.*\\.[a-zA-Z0-9]+$).+)',
  ],
};
