// PLACEHOLDER, to be replaced at merge by the counters store of issue 50 (point 3): it only stands in for its
// interface, so the lead's outcomes can be counted and the staff page's totals read against it. It keeps nothing.

export type LeadOutcome = 'received' | 'live' | 'later' | 'spam' | 'dead';

/** Each lead is counted once per outcome it reaches (received when taken; then live, later, spam or dead). */
export async function countOutcome(_outcome: LeadOutcome, _at?: number): Promise<void> {
  // Never throws, bounded wait: the real store's promise.
}

/** Per day, oldest first, for the last `days` days (`days` holds each day's date, YYYY-MM-DD); or why not. */
export type OutcomeCounts =
  { counting: true; days: string[]; outcomes: Record<LeadOutcome, number[]> } | { counting: false; why: string };

export async function readCounts({ days: _days }: { days: number }): Promise<OutcomeCounts> {
  return { counting: false, why: 'los contadores aún no están instalados (marcador de posición)' };
}
