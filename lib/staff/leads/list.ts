import 'server-only';
import { engineStorage } from '@/lib/engine/storage';
import type { DeadLetter } from './csv';
import { hookOfRun, leadRuns, readLeadRun, type LeadRun, type LeadState, type World } from './runs';

/** A page's leads at most: what a person reads on one screen. */
export const PAGE_SIZE = 50;
/** Runs read per call at most, whatever the number of leads: a page of the staff area answers in bounded time. */
export const SCAN_LIMIT = 500;
/** What the staff act on: held (being redelivered), dead letters and suspected spam. */
/** The staff's three lists (/equipo and its export, `npm run leads`), as the page shows them; spam first. */
export const STAFF_LISTS = ['spam', 'dead', 'pending'] as const satisfies readonly LeadState[];
export type StaffList = (typeof STAFF_LISTS)[number];
/** The list an address asks for (`?lista=`), else the first. */
export const staffListNamed = (asked: unknown): StaffList =>
  STAFF_LISTS.find((name) => name === asked) ?? STAFF_LISTS[0];
export const STAFF_STATES: readonly LeadState[] = STAFF_LISTS;

export type LeadPage = {
  leads: LeadRun[];
  /** Where the next call goes on (the engine's own cursor); undefined once every run has been read. */
  cursor?: string;
  /** Runs read by this call (every workflow's, not only leads): at most `scanLimit`. */
  scanned: number;
};

/**
 * One page of leads in `states`, newest run first. Reads at most `scanLimit` runs and returns at most `pageSize`
 * leads: a page may hold fewer (even none) and still have a cursor, when the runs it read were of other states.
 */
export async function listLeads({
  cursor,
  states = STAFF_STATES,
  pageSize = PAGE_SIZE,
  scanLimit = SCAN_LIMIT,
  world = engineStorage(),
}: {
  cursor?: string;
  states?: readonly LeadState[];
  pageSize?: number;
  scanLimit?: number;
  world?: World;
} = {}) {
  const hasHook = hookOfRun(world);
  const leads: LeadRun[] = [];
  let scanned = 0;
  let next = cursor;
  // Each engine page asks for no more runs than there are free places, so that none found is left behind the cursor.
  while (leads.length < pageSize && scanned < scanLimit) {
    const limit = Math.min(pageSize - leads.length, scanLimit - scanned);
    const page = await world.runs.list({
      resolveData: 'all',
      pagination: { limit, cursor: next, sortOrder: 'desc' },
    });
    scanned += page.data.length;
    for (const run of page.data) {
      const found = await readLeadRun(world, run, hasHook);
      if (found && states.includes(found.state)) leads.push(found);
    }
    next = page.hasMore && page.cursor ? page.cursor : undefined;
    if (!next) break;
  }
  return { leads, scanned, ...(next ? { cursor: next } : {}) } satisfies LeadPage;
}

export type LeadCounts = Record<LeadState, number> & {
  /** When the oldest lead still being redelivered came (ms), if any. */
  oldestPending?: number;
};

/**
 * How many leads are in each state, as `npm run leads -- status` prints them and the staff page shows them. It reads
 * every run, a page at a time (holding none), so its time grows with the runs the engine keeps (CONTACT_KEEP_DAYS).
 */
export async function countLeads(world: World = engineStorage()): Promise<LeadCounts> {
  const counts: LeadCounts = {
    pending: 0,
    spam: 0,
    delivered: 0,
    dead: 0,
    'spam-expired': 0,
    continued: 0,
    cancelled: 0,
    failed: 0,
  };
  for await (const run of leadRuns(world)) {
    counts[run.state] += 1;
    if (run.state === 'pending')
      counts.oldestPending = Math.min(counts.oldestPending ?? Infinity, run.lead.receivedAt);
  }
  return counts;
}

/** Every lead in `state`, oldest first: what the command line lists (it shows all of them, as it always has). */
export async function leadsIn(
  state: LeadState,
  world: World = engineStorage(),
): Promise<LeadRun[]> {
  const found: LeadRun[] = [];
  for await (const run of leadRuns(world)) if (run.state === state) found.push(run);
  return found.sort((a, b) => a.lead.receivedAt - b.lead.receivedAt);
}

/** The dead letters among `runs`, oldest first, as the CSV takes them. */
export const asDeadLetters = (runs: LeadRun[]): DeadLetter[] =>
  runs
    .flatMap(({ lead, outcome }) => (outcome?.outcome === 'dead' ? [{ lead, outcome }] : []))
    .sort((a, b) => a.lead.receivedAt - b.lead.receivedAt);

/** Every dead letter, oldest first: `npm run leads -- dead` and `export`. */
export const deadLetters = async (world: World = engineStorage()) =>
  asDeadLetters(await leadsIn('dead', world));
