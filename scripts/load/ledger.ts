// What the load and chaos tests prove: every lead a visitor was thanked for
// reached the contact API, and none reached it twice. Read from the stub's own
// record (a lead is one stored Idempotency-Key; the same e-mail stored under two
// keys is a lead delivered twice). A visitor told to retry ('failed') is not lost,
// they were told, but is counted. Timings are printed, never checked.
import { randomUUID } from 'node:crypto';
import type { StubClient, StubSummary } from './stub-client';
import { sendEnquiry, type EnquiryResult, type SendOptions } from './traffic';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How long a delivery may still arrive after the last thanked lead did: a second copy would show by then. */
const SETTLE_MS = 3000;

export type Ledger = {
  posted: number;
  thanked: EnquiryResult[];
  /** Told to retry: not lost, but a person who may not come back. */
  retry: EnquiryResult[];
  /** Neither thanked nor told to retry: an error page, no answer, a refusal of the form. */
  other: EnquiryResult[];
  /** Thanked and stored by the stub. */
  delivered: number;
  /** Thanked and never stored (by the time the test stopped waiting). */
  lost: EnquiryResult[];
  /** Stored under more than one key, thanked or not. */
  twice: EnquiryResult[];
  /** Told to retry, yet delivered: their retry would be a second lead. */
  retryDelivered: number;
  /** The latest store of a thanked lead, in ms after `since` (the API's return); undefined when none came after. */
  lastDeliveryMs?: number;
};

export function ledgerOf(results: EnquiryResult[], summary: StubSummary, since = 0): Ledger {
  const stored = (r: EnquiryResult) => summary.storedByMail[r.mail] ?? 0;
  const thanked = results.filter((r) => r.state === 'sent');
  const after = since
    ? thanked.map((r) => (summary.storedAtByMail[r.mail] ?? 0) - since).filter((ms) => ms > 0)
    : [];
  return {
    posted: results.length,
    thanked,
    retry: results.filter((r) => r.state === 'failed'),
    other: results.filter((r) => r.state !== 'sent' && r.state !== 'failed'),
    delivered: thanked.filter((r) => stored(r) > 0).length,
    lost: thanked.filter((r) => stored(r) === 0),
    twice: results.filter((r) => stored(r) > 1),
    retryDelivered: results.filter((r) => r.state === 'failed' && stored(r) > 0).length,
    lastDeliveryMs: after.length ? Math.max(...after) : undefined,
  };
}

/** The failed checks of a ledger: lost, twice, answered neither thanks nor retry. */
export function ledgerChecks(ledger: Ledger): string[] {
  const checks: string[] = [];
  const sample = (list: EnquiryResult[]) =>
    list
      .slice(0, 3)
      .map((r) => `#${r.index} ${r.mail}`)
      .join(', ');
  if (ledger.lost.length)
    checks.push(
      `LOST: ${ledger.lost.length} thanked lead(s) never reached the API (${sample(ledger.lost)})`,
    );
  if (ledger.twice.length)
    checks.push(
      `DELIVERED TWICE: ${ledger.twice.length} lead(s) stored under two keys (${sample(ledger.twice)})`,
    );
  if (ledger.other.length)
    checks.push(
      `answered neither thanks nor retry: ${ledger.other.length} (${countBy(ledger.other.map((r) => r.state.slice(0, 60)))})`,
    );
  return checks;
}

/**
 * Polls the stub until every thanked lead in `results` is stored or `deadline` passes,
 * then waits SETTLE_MS more for a second copy. Returns the last summary.
 */
export async function awaitDeliveries(
  stub: StubClient,
  results: EnquiryResult[],
  deadline: number,
): Promise<StubSummary> {
  const mails = results.filter((r) => r.state === 'sent').map((r) => r.mail);
  for (;;) {
    const summary = await stub.summary().catch(() => null);
    const missing = summary
      ? mails.filter((mail) => !summary.storedByMail[mail]).length
      : mails.length;
    if (missing === 0 || Date.now() >= deadline) break;
    await sleep(1000);
  }
  await sleep(SETTLE_MS);
  return stub.summary();
}

// ---- Sabotage: each guard made to fail once on purpose (SABOTAGE=drop,duplicate,other,early).

const SABOTAGE = new Set((process.env.SABOTAGE ?? '').split(',').filter(Boolean));
export const sabotaged = (what: 'drop' | 'duplicate' | 'other' | 'early') => SABOTAGE.has(what);
export const sabotageNote = () =>
  SABOTAGE.size ? `SABOTAGE=${[...SABOTAGE].join(',')}: this run is meant to fail` : '';

/**
 * drop: the stub refuses each of `mails` for ever, so their leads are never delivered; several,
 * as one of them may be told to retry rather than thanked.
 */
export async function sabotageBefore(stub: StubClient, mails: string[]) {
  if (!sabotaged('drop')) return;
  for (const mail of mails) {
    await stub.refuse(mail);
    refused.add(mail);
  }
}

/** The e-mails SABOTAGE=drop made the stub refuse (with 503s, which a check of 429s must leave out). */
export const refused = new Set<string>();

/**
 * duplicate: the first thanked lead stored again under a new key, as a second delivery would.
 * other: one more post with a form signature the server never gave (answered neither thanks nor retry).
 */
export async function sabotageAfter(
  stub: StubClient,
  results: EnquiryResult[],
  post: Omit<SendOptions, 'index' | 'mail' | 'token'>,
) {
  const first = results.find((r) => r.state === 'sent');
  if (sabotaged('duplicate') && first) {
    // A throttled stub may answer 429 first.
    for (let i = 0; i < 20 && (await stub.store(first.mail, randomUUID())) !== 200; i++)
      await sleep(500);
  }
  if (sabotaged('other'))
    results.push(
      await sendEnquiry({
        ...post,
        index: results.length,
        mail: `sabotaje-${Date.now()}@example.mx`,
        token: 'not-a-signature',
      }),
    );
}

// ---- Printing.

export function tally(values: string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]);
}

export const countBy = (values: string[]) =>
  tally(values)
    .map(([value, count]) => `${value} ×${count}`)
    .join(', ');

/** The visitors' wait (ms) at percentile `p`, or '-'. */
export function percentile(results: EnquiryResult[], p: number): string {
  const waits = results.map((r) => r.ms).sort((a, b) => a - b);
  const value = waits[Math.min(waits.length - 1, Math.floor((p / 100) * waits.length))];
  return value === undefined ? '-' : String(Math.round(value));
}

/** The columns both tests print, one row per run or scenario. */
export function ledgerColumns(
  ledger: Ledger | undefined,
  results: EnquiryResult[],
  allowedMs?: number,
): Record<string, string> {
  const n = (value: number | undefined) => (ledger && value !== undefined ? String(value) : '-');
  return {
    posted: String(results.length),
    thanked: n(ledger?.thanked.length),
    'told to retry': n(ledger?.retry.length),
    other: n(ledger?.other.length),
    delivered: n(ledger?.delivered),
    lost: n(ledger?.lost.length),
    twice: n(ledger?.twice.length),
    'last delivery (s)':
      ledger?.lastDeliveryMs === undefined ? '-' : (ledger.lastDeliveryMs / 1000).toFixed(1),
    'allowed (s)': allowedMs === undefined ? '-' : String(allowedMs / 1000),
    'wait p50/p99/max (ms)': results.length
      ? `${percentile(results, 50)}/${percentile(results, 99)}/${percentile(results, 100)}`
      : '-',
  };
}

/** A Markdown table; the first column left-aligned, the others right-aligned. */
export function printTable(rows: Array<Record<string, string>>) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const widths = columns.map((column) =>
    Math.max(column.length, ...rows.map((row) => (row[column] ?? '-').length)),
  );
  const line = (values: string[]) =>
    `| ${values.map((value, i) => (i === 0 ? value.padEnd(widths[i] ?? 0) : value.padStart(widths[i] ?? 0))).join(' | ')} |`;
  console.log(line(columns));
  console.log(
    `|${widths.map((width, i) => (i === 0 ? '-'.repeat(width + 2) : `${'-'.repeat(width + 1)}:`)).join('|')}|`,
  );
  for (const row of rows) console.log(line(columns.map((column) => row[column] ?? '-')));
}
