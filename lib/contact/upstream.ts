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

export type UpstreamOptions = {
  baseUrl: string;
  siteKey: string;
  idempotencyKey: string;
  fetchImpl?: typeof fetch;
  attemptTimeoutMs?: number;
  /** The whole call ends by then, retries included. */
  deadlineMs?: number;
  /** Wait before retry n (the last value repeats). */
  backoffMs?: readonly number[];
  maxResponseBytes?: number;
  /** A Retry-After longer than this counts as this long (the caller passes its longest wait between rounds). */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export const UPSTREAM_DEFAULTS = {
  // The spec: up to 3 retries.
  maxAttempts: 4,
  attemptTimeoutMs: 2500,
  deadlineMs: 7500,
  backoffMs: [200, 400, 800],
  maxResponseBytes: 64 * 1024,
  // The longest default wait between rounds: a later Retry-After would not change when the lead is tried.
  maxRetryAfterMs: 3 * 60 * 60 * 1000,
} as const;
// Below this much time left another attempt cannot finish: stop instead.
const MIN_ATTEMPT_MS = 250;

/**
 * POST {base}contact?siteKey=...: retried only where a retry can help, inside one deadline, never sooner than
 * Retry-After asks.
 */
export async function postEnquiry(enquiry: ContactEnquiry, options: UpstreamOptions): Promise<UpstreamReport> {
  const {
    fetchImpl = fetch,
    attemptTimeoutMs = UPSTREAM_DEFAULTS.attemptTimeoutMs,
    deadlineMs = UPSTREAM_DEFAULTS.deadlineMs,
    backoffMs = UPSTREAM_DEFAULTS.backoffMs,
    maxResponseBytes = UPSTREAM_DEFAULTS.maxResponseBytes,
    maxRetryAfterMs = UPSTREAM_DEFAULTS.maxRetryAfterMs,
    sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
    now = Date.now,
  } = options;
  const url = new URL('contact', options.baseUrl);
  url.searchParams.set('siteKey', options.siteKey);
  const body = JSON.stringify({
    name: enquiry.name,
    mail: enquiry.mail,
    reason: enquiry.reason,
    phone: enquiry.phone,
    captcha: enquiry.captcha,
  });
  const started = now();
  const timeLeft = () => deadlineMs - (now() - started);
  const failures: AttemptFailure[] = [];
  let attempts = 0;
  let retryAfterMs: number | undefined;
  const report = (result: UpstreamReport['result']): UpstreamReport =>
    retryAfterMs === undefined ? { result, attempts, failures } : { result, attempts, failures, retryAfterMs };
  while (attempts < UPSTREAM_DEFAULTS.maxAttempts) {
    const wait = attempts === 0 ? 0 : backoffBefore(attempts, backoffMs);
    if (timeLeft() - wait < MIN_ATTEMPT_MS) break;
    if (attempts > 0) await sleep(wait);
    const remaining = timeLeft();
    if (remaining < MIN_ATTEMPT_MS) break;
    attempts += 1;
    const attempt = await attemptOnce(fetchImpl, url, body, options.idempotencyKey, {
      timeoutMs: Math.min(attemptTimeoutMs, remaining),
      maxResponseBytes,
      maxRetryAfterMs,
      now,
    });
    if (attempt.kind === 'answer') return report(attempt.result);
    failures.push(attempt.failure);
    if (attempt.retryAfterMs !== undefined) retryAfterMs = attempt.retryAfterMs;
    if (
      attempt.kind === 'final-failure' ||
      !worthRetrying(attempt.retryAfterMs, backoffBefore(attempts, backoffMs), timeLeft())
    )
      break;
  }
  return report({ outcome: 'unavailable' });
}

const backoffBefore = (attempts: number, backoffMs: readonly number[]): number =>
  backoffMs[Math.min(attempts - 1, backoffMs.length - 1)] ?? 0;
/**
 * No retry in this call when the API asked for a longer wait than it would make or has left: the lead's workflow
 * honours that instead.
 */
const worthRetrying = (retryAfterMs: number | undefined, nextWaitMs: number, timeLeftMs: number): boolean =>
  retryAfterMs === undefined || (retryAfterMs <= nextWaitMs && retryAfterMs <= timeLeftMs);

async function attemptOnce(
  fetchImpl: typeof fetch,
  url: URL,
  body: string,
  idempotencyKey: string,
  limits: ResponseLimits & { timeoutMs: number },
): Promise<Attempt> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json', 'Idempotency-Key': idempotencyKey };
  let response: Response;
  try {
    // redirect 'manual': never follow the API somewhere else with the enquiry and the site key.
    response = await fetchImpl(url, { method: 'POST', headers, body, redirect: 'manual', cache: 'no-store', signal });
  } catch {
    return { kind: 'retryable', failure: signal.aborted ? 'timeout' : 'network' };
  }
  return classifyResponse(response, signal, limits);
}
