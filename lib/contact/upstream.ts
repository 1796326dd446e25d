import 'server-only';
import type { ContactEnquiry } from './schema';

/**
 * The client of the contact API: POST {base}contact?siteKey=..., retried only
 * where a retry can help, always inside one deadline.
 */

export type UpstreamResult =
  /** The API stored the enquiry. */
  | { outcome: 'accepted' }
  /** The API answered and said no (success: false, or a 4xx): final. */
  | { outcome: 'rejected'; mes?: string }
  /** No usable answer: retries spent, deadline reached, or an answer we cannot read. */
  | { outcome: 'unavailable' };

export type AttemptFailure = 'network' | 'timeout' | `http-${number}` | 'redirect' | 'malformed' | 'too-large';

export type UpstreamReport = {
  result: UpstreamResult;
  attempts: number;
  /** Why each failed attempt failed: no personal data, safe to log. */
  failures: AttemptFailure[];
};

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
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
};

export const UPSTREAM_DEFAULTS = {
  maxAttempts: 4,
  attemptTimeoutMs: 2500,
  deadlineMs: 7500,
  backoffMs: [200, 400, 800],
  maxResponseBytes: 64 * 1024,
} as const;

// Below this much time left another attempt cannot finish: stop instead.
const MIN_ATTEMPT_MS = 250;
const MAX_MES_LENGTH = 300;

type Attempt =
  | { kind: 'answer'; result: Exclude<UpstreamResult, { outcome: 'unavailable' }> }
  | { kind: 'final-failure'; failure: AttemptFailure }
  | { kind: 'retryable'; failure: AttemptFailure };

export async function postEnquiry(enquiry: ContactEnquiry, options: UpstreamOptions): Promise<UpstreamReport> {
  const {
    fetchImpl = fetch,
    maxAttempts = UPSTREAM_DEFAULTS.maxAttempts,
    attemptTimeoutMs = UPSTREAM_DEFAULTS.attemptTimeoutMs,
    deadlineMs = UPSTREAM_DEFAULTS.deadlineMs,
    backoffMs = UPSTREAM_DEFAULTS.backoffMs,
    maxResponseBytes = UPSTREAM_DEFAULTS.maxResponseBytes,
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
  const failures: AttemptFailure[] = [];
  let attempts = 0;

  while (attempts < maxAttempts) {
    if (attempts > 0) {
      const wait = backoffMs[Math.min(attempts - 1, backoffMs.length - 1)] ?? 0;
      if (deadlineMs - (now() - started) - wait < MIN_ATTEMPT_MS) break;
      await sleep(wait);
    }
    const remaining = deadlineMs - (now() - started);
    if (remaining < MIN_ATTEMPT_MS) break;

    attempts += 1;
    const attempt = await attemptOnce(fetchImpl, url, body, options.idempotencyKey, {
      timeoutMs: Math.min(attemptTimeoutMs, remaining),
      maxResponseBytes,
    });
    if (attempt.kind === 'answer') return { result: attempt.result, attempts, failures };
    failures.push(attempt.failure);
    if (attempt.kind === 'final-failure') break;
  }

  return { result: { outcome: 'unavailable' }, attempts, failures };
}

async function attemptOnce(
  fetchImpl: typeof fetch,
  url: URL,
  body: string,
  idempotencyKey: string,
  limits: { timeoutMs: number; maxResponseBytes: number },
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
  // 408, 429 and 5xx: the API did not take the enquiry, so a retry is safe.
  if (status === 408 || status === 429 || status >= 500) {
    discard(response);
    return { kind: 'retryable', failure: `http-${status}` };
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
