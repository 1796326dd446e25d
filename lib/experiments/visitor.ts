import { CONTROL, type Experiment } from './definitions';

/**
 * Who sees which variant, decided by the proxy before the page (lib/proxy/experiments.ts): a random id, drawn
 * on a visitor's first view of `/`, puts them in a bucket of each running experiment, and a first-party cookie
 * keeps it. The cookie holds that id, the variant of each experiment, and the day the visitor was last
 * counted: nothing about the person.
 */

/** `<id>.<day last counted>.<experiment>:<variant>…`: HttpOnly, this site only, VISITOR_DAYS long. */
export const VISITOR_COOKIE = 'experimento';
export const VISITOR_DAYS = 90;
/**
 * Marks a visit that forced a variant (`?variante=`): for an hour neither its views nor its lead are counted, and
 * `/` without the parameter shows it the control.
 */
export const QA_COOKIE = 'experimento_qa';
export const QA_SECONDS = 60 * 60;
/** The address parameter QA forces a variant with: `?variante=b`, or `?variante=experimento:b` when several run. */
export const FORCE_PARAM = 'variante';

/** Experiment name -> variant id, one per running experiment. */
export type Choice = Record<string, string>;
export type Visitor = { id: string; day: number; variants: Choice };

const ID = /^[A-Za-z0-9_-]{16}$/;
const PAIR = /^([a-z0-9-]{1,40}):([a-z0-9-]{1,40})$/;
const MAX_COOKIE_CHARS = 1024;

/** 96 random bits, base64url: the visitor's id, never derived from anything about them. */
export function newVisitorId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

export function parseVisitor(value: string | undefined): Visitor | undefined {
  if (!value || value.length > MAX_COOKIE_CHARS) return undefined;
  const [id = '', day = '', ...pairs] = value.split('.');
  if (!ID.test(id) || !/^\d{1,6}$/.test(day)) return undefined;
  const variants: Choice = {};
  for (const pair of pairs) {
    const match = PAIR.exec(pair);
    if (match) variants[match[1] as string] = match[2] as string;
  }
  return { id, day: Number(day), variants };
}

export const encodeVisitor = ({ id, day, variants }: Visitor): string =>
  [
    id,
    String(day),
    ...Object.entries(variants).map(([name, variant]) => `${name}:${variant}`),
  ].join('.');

// Mexico City has kept UTC-6 all year since 2022: the agency's day, without a time-zone database in the proxy.
const MEXICO_CITY_OFFSET_MS = 6 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The day of `at` in Mexico City, as a whole number of days: a visitor is counted once per such day. */
export const dayOf = (at: number): number => Math.floor((at - MEXICO_CITY_OFFSET_MS) / DAY_MS);

/** 0 to 99, the same for one id and experiment always, independent from one experiment to the next. */
export function bucketOf(experiment: string, id: string): number {
  // FNV-1a over the pair, then murmur3's finaliser to spread its low bits.
  let hash = 0x811c9dc5;
  for (const char of `${experiment}\u0000${id}`)
    hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return ((hash ^ (hash >>> 16)) >>> 0) % 100;
}

/** The variant the configured split gives the visitor with `id`. */
export function assignedVariant(experiment: Experiment, id: string): string {
  let bucket = bucketOf(experiment.name, id);
  for (const [index, percent] of experiment.split.entries()) {
    if (bucket < percent) return experiment.variants[index]?.id ?? CONTROL;
    bucket -= percent;
  }
  return CONTROL;
}

/**
 * The variants of a visitor in the running experiments: the one kept in their cookie while it still exists,
 * else the split's; the variants of experiments that ended are dropped.
 */
export function choiceOf(
  running: readonly Experiment[],
  visitor: Pick<Visitor, 'id' | 'variants'>,
): Choice {
  const choice: Choice = {};
  for (const experiment of running) {
    const kept = visitor.variants[experiment.name];
    const exists = experiment.variants.some((variant) => variant.id === kept);
    choice[experiment.name] = kept && exists ? kept : assignedVariant(experiment, visitor.id);
  }
  return choice;
}

/**
 * What QA asked for with `?variante=`: `b` gives every running experiment that has a variant `b`,
 * `experimento:b` that one; the rest show their control, and so does an id no experiment has.
 */
export function forcedChoice(running: readonly Experiment[], values: readonly string[]): Choice {
  const choice: Choice = Object.fromEntries(
    running.map((experiment) => [experiment.name, CONTROL]),
  );
  const has = (experiment: Experiment, id: string) =>
    experiment.variants.some((variant) => variant.id === id);
  for (const value of values.flatMap((one) => one.split(',')).slice(0, 8)) {
    const [name, id] = value.includes(':') ? value.split(':', 2) : [undefined, value];
    for (const experiment of running)
      if ((name === undefined || name === experiment.name) && id && has(experiment, id))
        choice[experiment.name] = id;
  }
  return choice;
}

type CookieJar = { get(name: string): { value: string } | undefined };

/** Whether this visit forced a variant lately (QA_COOKIE): its views and its lead are not counted. */
export const isQaVisit = (cookies: CookieJar): boolean => cookies.get(QA_COOKIE)?.value === '1';
