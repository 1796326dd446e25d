/**
 * Where a lead came from: the ad click ids and campaign tags of the visit, the
 * landing page's path and the referrer's origin. Untrusted input from
 * start to end (the address bar, a header, a cookie): only the allowlisted
 * names are kept, each value at most SOURCE_VALUE_MAX characters of a safe
 * set, and anything else is dropped silently, never an error for the visitor.
 */

import type { LeadExperiment } from '../experiments/lead-experiment';

export type { LeadExperiment };

export const SOURCE_PARAMS = [
  'gclid',
  'gbraid',
  'wbraid',
  'fbclid',
  'gad_source',
  'gad_campaignid',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const;
export type SourceParam = (typeof SOURCE_PARAMS)[number];

/** One visit that counts: its tags, the path it landed on, the origin it came from, when (ms). */
export type Touch = Partial<Record<SourceParam, string>> & {
  landing?: string;
  referrer?: string;
  at?: number;
};
/**
 * The first touch within FIRST_TOUCH_DAYS, the visit that sent the form, and the variant it saw of each experiment
 * running (lib/experiments), in the order the agency lists them.
 */
export type LeadSource = { first?: Touch; last?: Touch; experiments?: LeadExperiment[] };

export const SOURCE_VALUE_MAX = 200;
/** Someone who clicked an ad on Monday and comes back directly on Wednesday is still that ad's lead. */
export const FIRST_TOUCH_DAYS = 90;
/** The first-party cookies (proxy.ts writes them, the Server Action reads them): HttpOnly, this site only. */
export const FIRST_TOUCH_COOKIE = 'origen_primero';
export const LAST_TOUCH_COOKIE = 'origen';

// Letters and digits of any script, and what tags and paths are written with; no control characters, quotes or angle
// brackets.
const SAFE_VALUE = /^[\p{L}\p{N} ._~:/@%+,|()!*=-]+$/u;
const safe = (value: string | null | undefined): string | undefined =>
  value && value.length <= SOURCE_VALUE_MAX && SAFE_VALUE.test(value) ? value : undefined;

/** A touch's tags from a query string: the allowlisted names only, each once and safe. */
function tagsOf(params: URLSearchParams): Partial<Record<SourceParam, string>> {
  const tags: Partial<Record<SourceParam, string>> = {};
  for (const name of SOURCE_PARAMS) {
    const values = params.getAll(name);
    const value = values.length === 1 ? safe(values[0]?.trim()) : undefined;
    if (value) tags[name] = value;
  }
  return tags;
}

/** An origin (scheme, host, port) from a Referer, when it is another site's: none of `ownHosts` (host and port). */
function foreignOrigin(
  referrer: string | null | undefined,
  ownHosts: ReadonlySet<string>,
): string | undefined {
  if (!referrer || referrer.length > 2048) return undefined;
  try {
    const { origin, protocol, host } = new URL(referrer);
    if ((protocol !== 'https:' && protocol !== 'http:') || ownHosts.has(host.toLowerCase()))
      return undefined;
    return safe(origin);
  } catch {
    return undefined;
  }
}

/**
 * The touch of a page view at `url`, reached from `referrer`: undefined when it
 * says nothing of where the visitor came from (no tags, no other site). The
 * site's own hosts are `url`'s and `alsoOwn` (the request's Host: behind a
 * proxy, or at 127.0.0.1, which Next's URL calls localhost, they differ).
 */
export function touchOf(
  url: URL,
  referrer: string | null | undefined,
  now: number,
  alsoOwn: ReadonlyArray<string | null | undefined> = [],
): Touch | undefined {
  const tags = tagsOf(url.searchParams);
  const own = new Set(
    [url.host, ...alsoOwn].flatMap((host) => (host ? [host.trim().toLowerCase()] : [])),
  );
  const from = foreignOrigin(referrer, own);
  if (Object.keys(tags).length === 0 && !from) return undefined;
  return {
    ...tags,
    landing: safe(url.pathname) ?? '/',
    ...(from ? { referrer: from } : {}),
    at: Math.floor(now),
  };
}

/** A touch as a cookie value (a query string: plain ASCII once encoded). */
export function encodeTouch(touch: Touch): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(touch))
    if (value !== undefined) params.set(name, String(value));
  return params.toString();
}

/** A cookie's touch, checked again as the untrusted input it is; undefined when nothing in it holds. */
export function decodeTouch(value: string | undefined): Touch | undefined {
  if (!value || value.length > 4096) return undefined;
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(value);
  } catch {
    return undefined;
  }
  const touch: Touch = tagsOf(params);
  const landing = safe(params.get('landing'));
  if (landing?.startsWith('/')) touch.landing = landing;
  const referrer = safe(params.get('referrer'));
  if (referrer && /^https?:\/\/[^/]+$/.test(referrer)) touch.referrer = referrer;
  const at = Number(params.get('at'));
  if (Number.isSafeInteger(at) && at > 0) touch.at = at;
  return Object.keys(touch).some((key) => key !== 'at') ? touch : undefined;
}

/**
 * The source of a lead, as the Server Action reads it: the first touch from its
 * cookie; the last from its cookie, or from the address of the page that posted
 * the form (its `Referer`, kept whole on this site by the Referrer-Policy),
 * whose own tags win. Undefined when nothing is known.
 */
export function leadSourceOf(
  cookies: { first?: string; last?: string },
  postedFrom: string | null,
  now: number,
): LeadSource | undefined {
  const first = decodeTouch(cookies.first);
  let last = decodeTouch(cookies.last);
  let page: URL | undefined;
  try {
    page = postedFrom && postedFrom.length <= 4096 ? new URL(postedFrom) : undefined;
  } catch {}
  const fromPage = page ? touchOf(page, null, now) : undefined;
  if (fromPage)
    last = { ...last, ...fromPage, ...(last?.referrer ? { referrer: last.referrer } : {}) };
  if (!first && !last) return undefined;
  return { ...(first ? { first } : {}), ...(last ? { last } : {}) };
}

const WORDS: Record<keyof Touch, string> = {
  gclid: 'gclid',
  gbraid: 'gbraid',
  wbraid: 'wbraid',
  fbclid: 'fbclid',
  gad_source: 'gad_source',
  gad_campaignid: 'gad_campaignid',
  utm_source: 'utm_source',
  utm_medium: 'utm_medium',
  utm_campaign: 'utm_campaign',
  utm_term: 'utm_term',
  utm_content: 'utm_content',
  landing: 'página de llegada',
  referrer: 'llegó desde',
  at: 'fecha',
};

/** One line per known value of a touch, `name: value`, for the alert e-mail and the exports. */
export function touchLines(touch: Touch | undefined): string[] {
  if (!touch) return [];
  return (Object.keys(WORDS) as Array<keyof Touch>)
    .filter((key) => key !== 'at' && touch[key] !== undefined)
    .map((key) => `${WORDS[key]}: ${String(touch[key])}`);
}

/** An experiment's or a variant's name, as lib/experiments writes them: kebab-case, at most 40 characters. */
const EXPERIMENT_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const EXPERIMENT_NAME_MAX = 40;
const isName = (value: unknown): value is string =>
  typeof value === 'string' && value.length <= EXPERIMENT_NAME_MAX && EXPERIMENT_NAME.test(value);

// lib/experiments/definitions.ts allows 16 pages, so at most 4 experiments at once; 8 leaves room.
const MAX_LEAD_EXPERIMENTS = 8;

/**
 * A lead's experiments and variants, checked again wherever they are read back (a run kept by an older build, an
 * inbox line, a webhook's copy): each pair whose names hold, each experiment once, never an error. A run kept before
 * leads named several has one, as `experiment`.
 */
export function experimentsOf(source: LeadSource | undefined): LeadExperiment[] {
  const kept = source as { experiments?: unknown; experiment?: unknown } | undefined;
  const found: unknown[] = Array.isArray(kept?.experiments)
    ? kept.experiments
    : kept?.experiment
      ? [kept.experiment]
      : [];
  const checked: LeadExperiment[] = [];
  for (const pair of found.slice(0, MAX_LEAD_EXPERIMENTS)) {
    if (!pair || typeof pair !== 'object') continue;
    const { name, variant } = pair as Record<string, unknown>;
    if (isName(name) && isName(variant) && !checked.some((one) => one.name === name))
      checked.push({ name, variant });
  }
  return checked;
}

/** The experiments as the agency reads them: `titular-verano, variante b; boton-precio, variante control`. */
export const experimentWords = (experiments: readonly LeadExperiment[]) =>
  experiments.map(({ name, variant }) => `${name}, variante ${variant}`).join('; ');
/** Their lines for the alert e-mail, one per experiment the lead saw. */
export function experimentLines(source: LeadSource | undefined): string[] {
  return experimentsOf(source).map((experiment) => `Experimento: ${experimentWords([experiment])}`);
}
