// The traffic of the load and chaos tests: genuine enquiries posted the way
// the contact form's island posts them, to the production server's Server
// Action, a few at a time. Both scripts use this module, so what the chaos
// test breaks is exactly what the load test measures.

import { harnessJson, harnessRequest } from './harness-request';

// A person needs seconds to fill the form: a signature younger than 3 s is answered "confirm".
const TOKEN_AGE_MS = 3300;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How a post ended: an answer, no answer at all, or none within its time limit. */
export type Outcome = 'answer' | 'network' | 'timeout';

export type EnquiryResult = {
  index: number;
  mail: string;
  /** `sent`, `failed`, `invalid`, `confirm`, `http-<status>`, or `network: <message>`. */
  state: string;
  hasMes: boolean;
  outcome: Outcome;
  /** Why no answer came (the socket's error code, else the error's name). */
  cause: string | undefined;
  ms: number;
  /** Date.now() when the post ended, to compare with the stub's storedAt. */
  answeredAt: number;
};

/** The Server Action's id, as the page's own JavaScript knows it. */
export async function findActionId(app: string): Promise<string> {
  const { text: html } = await harnessRequest('the page', `${app}/`);
  let actionId: string | undefined;
  for (const [, src] of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) {
    if (!src) continue;
    const { text: js } = await harnessRequest('a page script', new URL(src, app));
    actionId = js.match(/createServerReference\)\("([0-9a-f]{40,})"/)?.[1] ?? actionId;
  }
  if (!actionId) throw new Error('Server Action id not found in the page scripts');
  return actionId;
}

/**
 * One signature of the form's time on screen per enquiry, as each visitor's island gets it once
 * the form shows (a signature serves one enquiry): fetched a few at a time, all from this
 * address, and returned once the last is old enough to be accepted.
 */
export async function formTokens(app: string, count: number): Promise<string[]> {
  const tokens: string[] = [];
  while (tokens.length < count) {
    const batch = Array.from({ length: Math.min(20, count - tokens.length) }, async () => {
      const { token } = await harnessJson<{ token: string }>(
        'a form signature',
        `${app}/api/contact/token`,
      );
      return token;
    });
    tokens.push(...(await Promise.all(batch)));
  }
  await sleep(TOKEN_AGE_MS);
  return tokens;
}

/** The socket's error code (ECONNREFUSED, UND_ERR_SOCKET...) when fetch names one, else the error's name. */
function causeOf(error: Error): string {
  const { cause } = error;
  if (
    typeof cause === 'object' &&
    cause !== null &&
    'code' in cause &&
    typeof cause.code === 'string'
  )
    return cause.code;
  return error.name;
}

export type SendOptions = {
  app: string;
  actionId: string;
  token: string;
  index: number;
  mail: string;
  timeoutMs?: number;
  signal?: AbortSignal;
};

/**
 * Posts enquiry `index` under `mail`, as the island does, and reads the state the action answered:
 * `sent` (thanked), `failed` (told to retry), `invalid`, `confirm`, else `http-<status>`;
 * `network: <message>` when no answer came. `outcome` says which: `answer`, `network`, or
 * `timeout` (no answer within `timeoutMs`; without it, a post waits as long as it takes).
 */
export async function sendEnquiry({
  app,
  actionId,
  token,
  index,
  mail,
  timeoutMs,
  signal,
}: SendOptions): Promise<EnquiryResult> {
  const body = new FormData();
  body.append('_1_name', `Cliente de carga ${index}`);
  body.append('_1_mail', mail);
  body.append('_1_phone', '5512345678');
  body.append('_1_reason', `Solicitud de prueba de carga número ${index}.`);
  body.append('_1_captcha', '');
  body.append('_1_campo_extra', '');
  body.append('_1_firma', token);
  body.append('0', '[{"status":"idle"},"$K1"]');
  const timeout = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  const signals = [timeout, signal].filter((s): s is AbortSignal => s !== undefined);
  const started = performance.now();
  let state = 'error';
  let hasMes = false;
  let outcome: Outcome = 'answer';
  let cause: string | undefined;
  try {
    const response = await fetch(`${app}/`, {
      method: 'POST',
      headers: { Accept: 'text/x-component', 'Next-Action': actionId, Origin: app },
      body,
      signal: signals.length ? AbortSignal.any(signals) : undefined,
    });
    const text = await response.text();
    state =
      text.match(/"status":"(sent|failed|invalid|confirm)"/)?.[1] ?? `http-${response.status}`;
    hasMes = /"mes":/.test(text);
  } catch (thrown) {
    const error = thrown instanceof Error ? thrown : new Error(String(thrown));
    outcome = signals.some((s) => s.aborted) ? 'timeout' : 'network';
    state = `network: ${error.message}`;
    cause = causeOf(error);
  }
  return {
    index,
    mail,
    state,
    hasMes,
    outcome,
    cause,
    ms: performance.now() - started,
    answeredAt: Date.now(),
  };
}

export type TrafficOptions = {
  total: number;
  concurrency: number;
  spacingMs?: number;
  beforeSend?: (index: number, startedAt: number) => Promise<void> | void;
  send: (index: number) => Promise<void>;
  shouldStop?: () => boolean;
};

/**
 * Runs `send(index)` for index 0..total-1, `concurrency` at a time. With `spacingMs`, enquiry i
 * starts no sooner than i × spacingMs into the run (visitors arriving over time, not all at once).
 * `beforeSend(index, startedAt)` runs first, awaited; `shouldStop()` ends the run early.
 * Returns the run's length in seconds.
 */
export async function runTraffic({
  total,
  concurrency,
  spacingMs = 0,
  beforeSend,
  send,
  shouldStop = () => false,
}: TrafficOptions): Promise<number> {
  const startedAt = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total && !shouldStop()) {
        const index = next++;
        const wait = startedAt + index * spacingMs - performance.now();
        if (wait > 0) await sleep(wait);
        if (shouldStop()) return;
        await beforeSend?.(index, startedAt);
        await send(index);
      }
    }),
  );
  return (performance.now() - startedAt) / 1000;
}
