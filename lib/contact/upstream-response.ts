import 'server-only';
import { discard, parseRetryAfter, readCapped, TooLargeError } from '@/lib/server/http';

/** What one try came to (the contact API, the inbox, a webhook): no personal data, safe to keep and log. */
export type Try =
  | { outcome: 'delivered' }
  | { outcome: 'refused'; refusal?: string }
  | { outcome: 'unavailable'; failures: string; retryAfterMs?: number };

/** The API's answer: 'refused' is success: false or a 4xx, final; `refusal` is its `mes`. */
export type Answer = Exclude<Try, { outcome: 'unavailable' }>;
export type AttemptFailure =
  'network' | 'timeout' | `http-${number}` | 'redirect' | 'malformed' | 'too-large';
export type Attempt =
  | { kind: 'answer'; result: Answer }
  | { kind: 'final-failure'; failure: AttemptFailure; retryAfterMs?: number }
  | { kind: 'retryable'; failure: AttemptFailure; retryAfterMs?: number };
export type ResponseLimits = {
  maxResponseBytes: number;
  maxRetryAfterMs: number;
  now: () => number;
};

const MAX_MES_LENGTH = 300;

/** What one answer of the contact API means for the enquiry; a body is read only up to `maxResponseBytes`. */
export async function classifyResponse(
  response: Response,
  signal: AbortSignal,
  limits: ResponseLimits,
): Promise<Attempt> {
  const { status } = response;
  // 408, 429 and 5xx: the API did not take the enquiry, so a retry is safe...
  if (status === 408 || status === 429 || status >= 500) {
    discard(response);
    const failure: AttemptFailure = `http-${status}`;
    const asked =
      status === 429 || status === 503
        ? parseRetryAfter(response.headers.get('retry-after'), limits.now())
        : undefined;
    const retryAfterMs = asked === undefined ? undefined : Math.min(asked, limits.maxRetryAfterMs);
    // ...but not a 429 within the same call: it says this client asks too often, and the workflow waits longer.
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
    return status < 300
      ? { kind: 'final-failure', failure }
      : { kind: 'answer', result: { outcome: 'refused' } };
  }
  const refusal = readMes(payload);
  if (status < 300) {
    const success = isRecord(payload) ? payload.success : undefined;
    if (success === true) return { kind: 'answer', result: { outcome: 'delivered' } };
    if (success === false) return { kind: 'answer', result: { outcome: 'refused', refusal } };
    return { kind: 'final-failure', failure: 'malformed' };
  }
  // Any other 4xx is final: the same request would be refused again.
  return { kind: 'answer', result: { outcome: 'refused', refusal } };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

function readMes(payload: unknown): string | undefined {
  const mes =
    isRecord(payload) && typeof payload.mes === 'string'
      ? payload.mes.trim().slice(0, MAX_MES_LENGTH)
      : '';
  return mes || undefined;
}
