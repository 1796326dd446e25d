import { isbot } from 'isbot';
import { NextResponse, type NextFetchEvent, type NextRequest } from 'next/server';
import { countVisit } from '../experiments/counters';
import { runningExperiments, type Experiment } from '../experiments/definitions';
import { experimentCodes } from '../experiments/flags';
import {
  choiceOf,
  dayOf,
  encodeVisitor,
  FORCE_PARAM,
  forcedChoice,
  isQaVisit,
  newVisitorId,
  parseVisitor,
  QA_COOKIE,
  QA_SECONDS,
  VISITOR_COOKIE,
  VISITOR_DAYS,
  type Visitor,
} from '../experiments/visitor';

/** Where the variants of `/` are prerendered (app/(sitio)/variante/[code]): never linked, reached through a rewrite. */
export const VARIANT_PATH = '/variante';

/**
 * During an experiment no shared cache may keep `/` for everyone: the same address holds every variant, and a
 * first visit's Set-Cookie. Browsers may keep it, checking again first (the variant ends with the experiment).
 * On Vercel the rewrite's own path (/variante/<code>) is what its CDN caches, so the page itself stays cached.
 */
export const PRIVATE_PAGE = 'private, no-cache';

/** A request for `/` that is no person's view of it: a prefetch, the router's RSC payload, a HEAD. */
function isPageView(request: NextRequest): boolean {
  const headers = request.headers;
  if (request.method !== 'GET' || headers.has('rsc') || headers.has('next-router-prefetch'))
    return false;
  return !/prefetch/i.test(`${headers.get('purpose') ?? ''} ${headers.get('sec-purpose') ?? ''}`);
}

const cookieOptions = (request: NextRequest, maxAge: number) =>
  ({
    httpOnly: true,
    sameSite: 'lax',
    secure: request.nextUrl.protocol === 'https:',
    path: '/',
    maxAge,
  }) as const;

function variantPage(request: NextRequest, code: string): NextResponse {
  // On request.url, the address Next compares a rewrite with (skipProxyUrlNormalize, next.config.ts): an internal one.
  const target = new URL(`${VARIANT_PATH}/${code}${request.nextUrl.search}`, request.url);
  const response = NextResponse.rewrite(target);
  response.headers.set('Cache-Control', PRIVATE_PAGE);
  return response;
}

/**
 * The experiments' part of the proxy, for every request to `/` (page views, the form's posts with or without
 * JavaScript, the router's): null when no experiment runs, at once, so `/` is served as it always was. Else
 * the visitor's variant page, by rewrite, with the cookie that keeps it; a crawler gets the control, and
 * `?variante=` the variant QA asks for. A person's first view of the day is counted after the answer.
 */
export async function experimentResponse(
  request: NextRequest,
  event: Pick<NextFetchEvent, 'waitUntil'> | undefined,
  running: readonly Experiment[] = runningExperiments(),
  codes = defaultCodes(),
): Promise<NextResponse | null> {
  if (running.length === 0 || request.nextUrl.pathname !== '/') return null;

  // Crawlers and link previews index and show the page as it is: the control, no cookie, not counted.
  if (isbot(request.headers.get('user-agent'))) {
    const response = NextResponse.next();
    response.headers.set('Cache-Control', PRIVATE_PAGE);
    return response;
  }

  // QA sees the variant it asks for, else the control (as npm run test:deployment does); never counted, and the
  // visitor cookie is left as it was.
  const forced = request.nextUrl.searchParams.getAll(FORCE_PARAM);
  if (forced.length > 0 || isQaVisit(request.cookies)) {
    const response = variantPage(request, await codes.of(forcedChoice(running, forced)));
    if (forced.length > 0) response.cookies.set(QA_COOKIE, '1', cookieOptions(request, QA_SECONDS));
    return response;
  }

  const kept = parseVisitor(request.cookies.get(VISITOR_COOKIE)?.value);
  const visitor: Visitor = kept ?? { id: newVisitorId(), day: 0, variants: {} };
  const variants = choiceOf(running, visitor);
  const response = variantPage(request, await codes.of(variants));

  const now = Date.now();
  const today = dayOf(now);
  const counted = isPageView(request) && visitor.day !== today;
  if (counted) {
    // After the answer, never before it: the count waits for its store, the visitor does not.
    const counting = Promise.all(
      Object.entries(variants).map(([name, variant]) => countVisit(name, variant, now)),
    );
    const logged = counting.then(
      () => undefined,
      (error: unknown) => console.error('[experimentos] No se pudo contar una visita:', error),
    );
    if (event) event.waitUntil(logged);
  }
  const next: Visitor = { id: visitor.id, day: counted ? today : visitor.day, variants };
  const value = encodeVisitor(next);
  // Written only when something changed: a returning visitor's later views of the day carry no Set-Cookie.
  if (value !== request.cookies.get(VISITOR_COOKIE)?.value)
    response.cookies.set(
      VISITOR_COOKIE,
      value,
      cookieOptions(request, VISITOR_DAYS * 24 * 60 * 60),
    );
  return response;
}

let codesOfThisBuild: ReturnType<typeof experimentCodes> | undefined;
const defaultCodes = () => (codesOfThisBuild ??= experimentCodes());
