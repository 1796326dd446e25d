import 'server-only';
import type { ContactEnquiry } from './schema';
import { classifyResponse, type Attempt, type AttemptFailure, type UpstreamResult } from './upstream-response';

export type { AttemptFailure, UpstreamResult } from './upstream-response';

/**
 * The client of the contact API: POST {base}contact?siteKey=..., retried only
 * where a retry can help, always inside one deadline, never sooner than the
 * API's Retry-After asks.
 */

export type UpstreamReport = {
  result: UpstreamResult;
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
  /** Spec: up to 3 retries, so 4 attempts. */
  maxAttempts?: number;
  attemptTimeoutMs?: number;
  /** The whole call ends by then, retries included. */
  deadlineMs?: number;
  /** Wait before retry n (the last value repeats). */
  backoffMs?: readonly number[];
  /** Answers larger than this are not read. */
  maxResponseBytes?: number;
  /** A Retry-After longer than this counts as this long (the caller passes its longest wait between rounds). */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export const UPSTREAM_DEFAULTS = {
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

export async function postEnquiry(enquiry: ContactEnquiry, options: UpstreamOptions): Promise<UpstreamReport> {
  const {
    fetchImpl = fetch,
    maxAttempts = UPSTREAM_DEFAULTS.maxAttempts,
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
  const report = (result: UpstreamResult): UpstreamReport =>
    retryAfterMs === undefined ? { result, attempts, failures } : { result, attempts, failures, retryAfterMs };

  while (attempts < maxAttempts) {
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
    if (attempt.kind === 'final-failure' || !worthRetrying(attempt.retryAfterMs, backoffBefore(attempts, backoffMs), timeLeft())) break;
  }

  return report({ outcome: 'unavailable' });
}

/** The wait before the attempt after `attempts` attempts (the last value repeats). */
function backoffBefore(attempts: number, backoffMs: readonly number[]): number {
  return backoffMs[Math.min(attempts - 1, backoffMs.length - 1)] ?? 0;
}

/**
 * Whether a failed attempt may be followed by another in this call: not when the API asked
 * for a longer wait than this call would make or has left (the lead's workflow honours it instead).
 */
function worthRetrying(retryAfterMs: number | undefined, nextWaitMs: number, timeLeftMs: number): boolean {
  return retryAfterMs === undefined || (retryAfterMs <= nextWaitMs && retryAfterMs <= timeLeftMs);
}

async function attemptOnce(
  fetchImpl: typeof fetch,
  url: URL,
  body: string,
  idempotencyKey: string,
  limits: { timeoutMs: number; maxResponseBytes: number; maxRetryAfterMs: number; now: () => number },
): Promise<Attempt> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json',
        'Idempotency-Key': idempotencyKey,
      },
      body,
      // Never follow the API somewhere else with the enquiry and the site key.
      redirect: 'manual',
      cache: 'no-store',
      signal,
    });
  } catch {
    return { kind: 'retryable', failure: signal.aborted ? 'timeout' : 'network' };
  }

  return classifyResponse(response, signal, limits);
}
