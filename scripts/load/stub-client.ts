// The load and chaos tests' hold on the stub contact API (e2e/stub-contact-api.ts):
// take it down and bring it back, throttle it, and read what it stored. What the
// stub stored is the only truth the tests trust about a lead: the site's own
// logs and the engine's files are never read to decide a check.

import { harnessJson, harnessRequest } from './harness-request';

/** GET /__summary. */
export type StubSummary = {
  attempts: number;
  /** How many different Idempotency-Keys the stub stored for each e-mail: a lead stored twice counts 2. */
  storedByMail: Record<string, number>;
  /** When (ms since the epoch) a key of that e-mail was stored. */
  storedAtByMail: Record<string, number | undefined>;
  throttled: number;
  earlyRetries: number;
  replayed: number;
};

/** One attempt as the stub recorded it (GET /__records). */
export type StubAttempt = { at: number; idempotencyKey?: string };

// Longer than any run: the API stays down until up() says otherwise.
const DOWN_MS = 60 * 60 * 1000;

export type StubClient = ReturnType<typeof stubClient>;

export function stubClient(base: string) {
  // Each switch sets a state (or, for store(), a key stored once): safe to send again.
  const post = async (route: string, body: unknown, headers: Record<string, string> = {}) =>
    (
      await harnessRequest(`the stub's ${route}`, `${base}${route}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      })
    ).status;
  return {
    base,
    summary: () => harnessJson<StubSummary>("the stub's summary", `${base}/__summary`),
    attempts: async (mail: string): Promise<StubAttempt[]> =>
      (
        await harnessJson<{ attempts: StubAttempt[] }>(
          `the stub's records of ${mail}`,
          `${base}/__records?mail=${encodeURIComponent(mail)}`,
        )
      ).attempts,
    /** Every attempt answers 503 from now on (for `ms`, else until up()). */
    down: (ms = DOWN_MS) => post('/__outage', { ms }),
    up: () => post('/__outage', { ms: 0 }),
    /** A stored enquiry of its own: one more lead for `mail` under `key`, as a second delivery would make it. */
    store: (mail: string, key: string) =>
      post(
        '/api/contact',
        { name: 'Copia', mail, phone: '5512345678', reason: 'Copia de una solicitud.' },
        { 'Idempotency-Key': key },
      ),
    /** Every attempt for `mail` answers 503, for ever: that lead is never delivered. */
    refuse: (mail: string) => post('/__scenarios', { mail, steps: [{ status: 503 }] }),
  };
}
