// HTTP as the contact API's client and the lead's senders need it: the answer's Retry-After, and bodies bounded.

/** Retry-After in ms from `now`: delta-seconds or an HTTP-date (RFC 9110's three forms); else, or a past date, none. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  const text = value?.trim() ?? '';
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  let date = NaN;
  // IMF-fixdate and the obsolete RFC 850 form, both in GMT.
  if (/^[A-Za-z]{3,9}, [\w -]+ \d\d:\d\d:\d\d GMT$/.test(text)) date = Date.parse(text);
  // asctime, which carries no zone but means GMT as well.
  else if (/^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(text))
    date = Date.parse(`${text} GMT`);
  return Number.isFinite(date) && date >= now ? date - now : undefined;
}

export class TooLargeError extends Error {}

/** A body as text, read only up to `maxBytes` (TooLargeError past it), whatever Content-Length claims. */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length')) > maxBytes) {
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
export const discard = (response: Response) => void response.body?.cancel().catch(() => {});
