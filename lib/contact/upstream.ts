import 'server-only';
import type { Admission, ApiHealth, CircuitBreaker } from './breaker';
import type { ContactEnquiry } from './schema';

/**
 * The client of the contact API: POST {base}contact?siteKey=..., retried only
 * where a retry can help, always inside one deadline, never sooner than the
 * API's Retry-After asks, and not at all while the circuit breaker is open.
 */

export type UpstreamResult =
  /** The API stored the enquiry. */
  | { outcome: 'accepted' }
  /** The API answered and said no (success: false, or a 4xx): final. */
  | { outcome: 'rejected'; mes?: string }
  /** No usable answer: retries spent, deadline reached, or an answer we cannot read. */
  | { outcome: 'unavailable' };

export type AttemptFailure =
  | 'network'
  | 'timeout'
  | `http-${number}`
  | 'redirect'
  | 'malformed'
  | 'too-large'
  /** Not attempted: the circuit breaker held the call back. */
  | 'circuit-open';

export type UpstreamReport = {
  result: UpstreamResult;
  attempts: number;
  /** Why each failed attempt failed: no personal data, safe to log. */
  failures: AttemptFailure[];
  /** The last Retry-After of a 429 or 503 (ms, capped by maxRetryAfterMs): try no sooner than this. */
  retryAfterMs?: number;
};

/** Where the contact API is: the live request and the outbox both post there. */
export type ContactApi = { baseUrl: string; siteKey: string };

export type UpstreamOptions = {
  baseUrl: string;
  siteKey: string;
  idempotencyKey: string;
  fetchImpl?: typeof fetch;
  /** Spec: up to 3 retries, so 4 attempts. */
  maxAttempts?: number;
  attemptTimeoutMs?: number;
  /** The whole call ends by then, retries included (the action must answer within 9 s). */
  deadlineMs?: number;
  /** Wait before retry n (the last value repeats). */
  backoffMs?: readonly number[];
  /** Answers larger than this are not read. */
  maxResponseBytes?: number;
  /** A Retry-After longer than this counts as this long (the caller passes its longest outbox backoff). */
  maxRetryAfterMs?: number;
  /** Asked before every attempt and told how each went; none: every attempt is made. */
  breaker?: CircuitBreaker;
  /** A scheduled flush: may probe the API even while its circuit cools off. */
  forceProbe?: boolean;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export const UPSTREAM_DEFAULTS = {
  maxAttempts: 4,
  attemptTimeoutMs: 2500,
  deadlineMs: 7500,
  backoffMs: [200, 400, 800],
  maxResponseBytes: 64 * 1024,
  // The longest default outbox backoff: a later wait would not change when the entry is tried.
  maxRetryAfterMs: 3 * 60 * 60 * 1000,
} as const;

// Below this much time left another attempt cannot finish: stop instead.
const MIN_ATTEMPT_MS = 250;
const MAX_MES_LENGTH = 300;

type Attempt =
  | { kind: 'answer'; result: Exclude<UpstreamResult, { outcome: 'unavailable' }> }
  | { kind: 'final-failure'; failure: AttemptFailure; retryAfterMs?: number }
  | { kind: 'retryable'; failure: AttemptFailure; retryAfterMs?: number };

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

  // Asked once per call: while the circuit is open no call is made; half-open, one attempt is its probe.
  const admission: Admission = options.breaker?.admit(undefined, { force: options.forceProbe }) ?? 'send';
  if (admission === 'skip') {
    failures.push('circuit-open');
    return report({ outcome: 'unavailable' });
  }
  const budget = admission === 'probe' ? 1 : maxAttempts;
  // The API answered something (a refusal, a redirect): it is up, whatever this call's outcome.
  let answered = false;

  while (attempts < budget) {
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
    if (attempt.kind === 'answer') {
      options.breaker?.record('up');
      return report(attempt.result);
    }
    failures.push(attempt.failure);
    if (apiHealth(attempt) === 'up') answered = true;
    if (attempt.retryAfterMs !== undefined) retryAfterMs = attempt.retryAfterMs;
    if (attempt.kind === 'final-failure' || !worthRetrying(attempt.retryAfterMs, backoffBefore(attempts, backoffMs), timeLeft())) break;
  }

  // One record per call, by enquiry: the circuit opens on several enquiries failing, not on one enquiry's retries.
  if (attempts > 0) options.breaker?.record(answered ? 'up' : 'down', retryAfterMs, undefined, options.idempotencyKey);
  return report({ outcome: 'unavailable' });
}

/** The wait before the attempt after `attempts` attempts (the last value repeats). */
function backoffBefore(attempts: number, backoffMs: readonly number[]): number {
  return backoffMs[Math.min(attempts - 1, backoffMs.length - 1)] ?? 0;
}

/**
 * Whether a failed attempt may be followed by another in this call: not when the API asked
 * for a longer wait than this call would make or has left (the outbox honours it instead).
 */
function worthRetrying(retryAfterMs: number | undefined, nextWaitMs: number, timeLeftMs: number): boolean {
  return retryAfterMs === undefined || (retryAfterMs <= nextWaitMs && retryAfterMs <= timeLeftMs);
}

/** Failing on the API's side (no answer, too slow, overloaded, broken) as opposed to any other answer. */
function apiHealth(attempt: Attempt): ApiHealth {
  if (attempt.kind === 'answer') return 'up';
  const { failure } = attempt;
  if (failure === 'network' || failure === 'timeout' || failure === 'http-408' || failure === 'http-429') return 'down';
  return /^http-5\d\d$/.test(failure) ? 'down' : 'up';
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

  const { status } = response;
  // 408, 429 and 5xx: the API did not take the enquiry, so a retry is safe...
  if (status === 408 || status === 429 || status >= 500) {
    discard(response);
    const failure: AttemptFailure = `http-${status}`;
    const asked = status === 429 || status === 503 ? parseRetryAfter(response.headers.get('retry-after'), limits.now()) : undefined;
    const retryAfterMs = asked === undefined ? undefined : Math.min(asked, limits.maxRetryAfterMs);
    // ...but not a 429 within the same call: it says this client asks too often, and the outbox waits longer.
    const kind = status === 429 ? 'final-failure' : 'retryable';
    return retryAfterMs === undefined ? { kind, failure } : { kind, failure, retryAfterMs };
  }
  if ((status >= 300 && status < 400) || status === 0) {
    discard(response);
    return { kind: 'final-failure', failure: 'redirect' };
  }

  let payload: unknown;
  try {
    payload = JSON.parse(await readCapped(response, limits.maxResponseBytes));
  } catch (error) {
    if (signal.aborted) return { kind: 'retryable', failure: 'timeout' };
    // A 2xx we cannot read may have been stored: retrying could store it twice.
    const failure = error instanceof TooLargeError ? 'too-large' : 'malformed';
    return status < 300 ? { kind: 'final-failure', failure } : { kind: 'answer', result: { outcome: 'rejected' } };
  }

  const mes = readMes(payload);
  if (status < 300) {
    const success = isRecord(payload) ? payload.success : undefined;
    if (success === true) return { kind: 'answer', result: { outcome: 'accepted' } };
    if (success === false) return { kind: 'answer', result: { outcome: 'rejected', mes } };
    return { kind: 'final-failure', failure: 'malformed' };
  }
  // Any other 4xx is final: the same request would be refused again.
  return { kind: 'answer', result: { outcome: 'rejected', mes } };
}

/**
 * A Retry-After header in ms from `now`: delta-seconds or an HTTP-date (RFC 9110, its
 * three forms). Anything else, and a date already past, is no Retry-After at all.
 */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  let date = NaN;
  // IMF-fixdate and the obsolete RFC 850 form, both in GMT.
  if (/^[A-Za-z]{3,9}, [\w -]+ \d\d:\d\d:\d\d GMT$/.test(text)) date = Date.parse(text);
  // asctime, which carries no zone but means GMT as well.
  else if (/^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(text)) date = Date.parse(`${text} GMT`);
  if (!Number.isFinite(date) || date < now) return undefined;
  return date - now;
}

class TooLargeError extends Error {}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    discard(response);
    throw new TooLargeError();
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      reader.cancel().catch(() => {});
      throw new TooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Frees the connection without waiting for the other side. */
function discard(response: Response) {
  response.body?.cancel().catch(() => {});
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function readMes(payload: unknown): string | undefined {
  if (!isRecord(payload) || typeof payload.mes !== 'string') return undefined;
  const mes = payload.mes.trim().slice(0, MAX_MES_LENGTH);
  return mes || undefined;
}
