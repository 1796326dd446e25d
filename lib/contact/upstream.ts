import 'server-only';
import type { ContactEnquiry } from './schema';
import {
  classifyResponse,
  type Answer,
  type Attempt,
  type AttemptFailure,
  type ResponseLimits,
} from './upstream-response';

export type UpstreamReport = {
  /** 'unavailable': retries spent, deadline reached, or an answer we cannot read. */
  result: Answer | { outcome: 'unavailable' };
  attempts: number;
  /** Why each failed attempt failed: no personal data, safe to log. */
  failures: AttemptFailure[];
  /** The last Retry-After of a 429 or 503 (ms, capped by maxRetryAfterMs): try no sooner than this. */
  retryAfterMs?: number;
};

export type UpstreamOptions = Partial<typeof UPSTREAM_DEFAULTS> & {
  baseUrl: string;
  siteKey: string;
  idempotencyKey: string;
  fetchImpl?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export const UPSTREAM_DEFAULTS = {
  attemptTimeoutMs: 2500,
  /** The whole call ends by then, retries included. */
  deadlineMs: 7500,
  /** Wait before retry n (the last value repeats): the spec's 3 retries. */
  backoffMs: [200, 400, 800] as readonly number[],
  maxResponseBytes: 64 * 1024,
  /** A longer Retry-After counts as this long: the longest default wait between the workflow's rounds. */
  maxRetryAfterMs: 3 * 60 * 60 * 1000,
};
const MAX_ATTEMPTS = 4;
// Below this much time left another attempt cannot finish: stop instead.
const MIN_ATTEMPT_MS = 250;

/**
 * POST {base}contact?siteKey=...: retried only where a retry can help, inside one deadline, never sooner than
 * Retry-After asks.
 */
export async function postEnquiry(
  enquiry: ContactEnquiry,
  options: UpstreamOptions,
): Promise<UpstreamReport> {
  const D = UPSTREAM_DEFAULTS;
  const {
    attemptTimeoutMs = D.attemptTimeoutMs,
    deadlineMs = D.deadlineMs,
    backoffMs = D.backoffMs,
  } = options;
  const { maxResponseBytes = D.maxResponseBytes, maxRetryAfterMs = D.maxRetryAfterMs } = options;
  const { fetchImpl = fetch, now = Date.now } = options;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const url = new URL('contact', options.baseUrl);
  url.searchParams.set('siteKey', options.siteKey);
  const { name, mail, reason, phone, captcha } = enquiry;
  const body = JSON.stringify({ name, mail, reason, phone, captcha });
  const started = now();
  const timeLeft = () => deadlineMs - (now() - started);
  const backoffAfter = (n: number) => backoffMs[Math.min(n - 1, backoffMs.length - 1)] ?? 0;
  const report: UpstreamReport = { result: { outcome: 'unavailable' }, attempts: 0, failures: [] };
  while (report.attempts < MAX_ATTEMPTS) {
    const wait = report.attempts === 0 ? 0 : backoffAfter(report.attempts);
    if (timeLeft() - wait < MIN_ATTEMPT_MS) break;
    if (wait) await sleep(wait);
    const remaining = timeLeft();
    if (remaining < MIN_ATTEMPT_MS) break;
    report.attempts += 1;
    const limits = {
      timeoutMs: Math.min(attemptTimeoutMs, remaining),
      maxResponseBytes,
      maxRetryAfterMs,
      now,
    };
    const attempt = await attemptOnce(fetchImpl, url, body, options.idempotencyKey, limits);
    if (attempt.kind === 'answer') return { ...report, result: attempt.result };
    report.failures.push(attempt.failure);
    const asked = attempt.retryAfterMs;
    if (asked !== undefined) report.retryAfterMs = asked;
    // No retry in this call when the API asks for a longer wait than it would make: the lead's workflow honours it.
    const worthIt =
      asked === undefined || (asked <= backoffAfter(report.attempts) && asked <= timeLeft());
    if (attempt.kind === 'final-failure' || !worthIt) break;
  }
  return report;
}

async function attemptOnce(
  fetchImpl: typeof fetch,
  url: URL,
  body: string,
  idempotencyKey: string,
  limits: ResponseLimits & { timeoutMs: number },
): Promise<Attempt> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const headers = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Idempotency-Key': idempotencyKey,
  };
  let response: Response;
  try {
    // redirect 'manual': never follow the API somewhere else with the enquiry and the site key.
    response = await fetchImpl(url, {
      method: 'POST',
      headers,
      body,
      redirect: 'manual',
      cache: 'no-store',
      signal,
    });
  } catch {
    return { kind: 'retryable', failure: signal.aborted ? 'timeout' : 'network' };
  }
  return classifyResponse(response, signal, limits);
}
