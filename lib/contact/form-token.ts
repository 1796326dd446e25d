import 'server-only';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { CONFIRM_MIN_MS, MIN_FILL_MS } from './fields';

/**
 * The form's signature: when the server signed what the sender answers, for whom, and once. `time` (fetched by the
 * island once the form shows) is valid from MIN_FILL_MS, `confirm` (in an answer that asks to confirm) from
 * CONFIRM_MIN_MS. The nonce lets its use be remembered (signature-store.ts); the MAC covers the client's address key
 * without carrying it, so a signature from another address does not verify. `<kind>.<issued, base 36>.<nonce, 64
 * bits>.<HMAC-SHA256, 128 bits>`, ~47 chars.
 */

/** A signature older than this is asked again (a tab left open overnight); the island fetches a new one before. */
export const TOKEN_MAX_AGE_MS = 2 * 60 * 60 * 1000;
/** Two instances' clocks may disagree by this much. */
const SKEW_MS = 5000;

export type TokenKind = 'time' | 'confirm';
export type TokenVerdict =
  { verdict: 'valid'; nonce: string } | { verdict: 'early' | 'missing' | 'invalid' | 'expired' };

const PREFIX: Record<TokenKind, string> = { time: 't', confirm: 'c' };
const MIN_AGE: Record<string, number> = { t: MIN_FILL_MS, c: CONFIRM_MIN_MS };
const SHAPE = /^([tc])\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{11})\.([A-Za-z0-9_-]{22})$/;
const mac = (key: Uint8Array, body: string, client: string) =>
  createHmac('sha256', key)
    .update(`${body}|${client}`)
    .digest()
    .subarray(0, 16)
    .toString('base64url');

/** A signature of `now` for `client` (an address key, rate-limit.ts). */
export function signToken(key: Uint8Array, kind: TokenKind, now: number, client: string): string {
  const body = `${PREFIX[kind]}.${Math.floor(now).toString(36)}.${randomBytes(8).toString('base64url')}`;
  return `${body}.${mac(key, body, client)}`;
}

export function verifyToken(
  key: Uint8Array,
  token: string | undefined,
  now: number,
  client: string,
): TokenVerdict {
  if (!token) return { verdict: 'missing' };
  const match = SHAPE.exec(token);
  if (!match) return { verdict: 'invalid' };
  const [, kind = '', issued = '', nonce = '', signature = ''] = match;
  if (
    !timingSafeEqual(
      Buffer.from(signature),
      Buffer.from(mac(key, `${kind}.${issued}.${nonce}`, client)),
    )
  )
    return { verdict: 'invalid' };
  const age = now - parseInt(issued, 36);
  if (age < -SKEW_MS || age > TOKEN_MAX_AGE_MS) return { verdict: 'expired' };
  return age < (MIN_AGE[kind] ?? Infinity) ? { verdict: 'early' } : { verdict: 'valid', nonce };
}
