import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ContactEnquiry } from './schema';

/**
 * A failed send's key, handed back so that the same words sent again keep it. When the engine holds a lead later than
 * the form can wait (deliver.ts, startLead), the visitor is asked to try again while that lead may still be delivered:
 * sent again with a fresh key, it reached the contact API twice, and a salesperson called twice. Sent again unchanged,
 * from the same client, it now carries the first key, which the API stores once (as it does the engine's retries).
 *
 * `<key>.<HMAC-SHA256 of the key, the client's address key and the four fields, 128 bits>`, ~59 chars, in a hidden
 * input (RESEND_FIELD). The MAC is what makes a key reusable: no one can choose a key, nor take another lead's, and
 * changed words get a new key (they are a new enquiry). It carries nothing of the visitor's.
 */
const SHAPE = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{22})$/;

/** The visitor's words as the schema cleaned them; the captcha token, new on every send, is not one of them. */
const wordsOf = ({ name, mail, phone, reason }: ContactEnquiry) =>
  JSON.stringify([name, mail, phone, reason]);

const mac = (secret: Uint8Array, key: string, client: string, enquiry: ContactEnquiry) =>
  createHmac('sha256', secret)
    .update(`reenvio|${key}|${client}|${wordsOf(enquiry)}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');

/** The value a failed answer gives back for `key`. */
export const signResend = (
  secret: Uint8Array,
  key: string,
  client: string,
  enquiry: ContactEnquiry,
): string => `${key}.${mac(secret, key, client, enquiry)}`;

/** The key `posted` carries when it was signed for this client and these words; otherwise undefined (a new key). */
export function resentKey(
  secret: Uint8Array,
  posted: string | undefined,
  client: string,
  enquiry: ContactEnquiry,
): string | undefined {
  const match = SHAPE.exec(posted ?? '');
  if (!match) return undefined;
  const [, key = '', signature = ''] = match;
  const expected = mac(secret, key, client, enquiry);
  return timingSafeEqual(Buffer.from(signature), Buffer.from(expected)) ? key : undefined;
}
