import { NextResponse, type NextRequest } from 'next/server';

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

export function proxy(request: NextRequest) {
  const target = redirectTarget(request.method, request.nextUrl);
  if (!target) return NextResponse.next();
  // /home is a permanent alias; unknown paths may become pages one day.
  const status = request.nextUrl.pathname === '/home' ? 308 : 307;
  return NextResponse.redirect(target, status);
}

export const config = {
  matcher: [
    /*
     * Every path except `/` itself, Next's own files (_next, __nextjs),
     * Vercel's (_vercel), route handlers (api/), files in public/ (images/,
     * any name with an extension), metadata routes and .well-known/.
     */
    '/((?!_next/|api/|__nextjs|_vercel/|images/|\\.well-known/|robots\\.txt|sitemap\\.xml|manifest\\.webmanifest|manifest\\.json|favicon\\.ico|icon|apple-icon|opengraph-image|twitter-image)(?!.*\\.[a-zA-Z0-9]+$).+)',
  ],
};
