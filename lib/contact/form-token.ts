import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getFormTokenKey } from '@/lib/env/server';
import { MIN_FILL_MS } from './fields';

/**
 * The form's signature: when the server saw the form on screen, signed with a
 * secret every instance shares (lib/env/server.ts), so the home page stays
 * static and no store is needed. Two kinds:
 * - `time`, fetched by the island once the form shows: valid from MIN_FILL_MS
 *   after it was issued, so a program that posts at once is asked to confirm;
 * - `confirm`, written into the server's own answer to a post without a valid
 *   one (no JavaScript, or before hydration): the next press is accepted, so
 *   a person presses at most once more.
 * `<kind>.<issued, base 36>.<HMAC-SHA256, 128 bits, base64url>`, about 35 characters.
 */

/** A signature older than this is asked again (a tab left open overnight); the island fetches a new one before. */
export const TOKEN_MAX_AGE_MS = 2 * 60 * 60 * 1000;
/** Two instances' clocks may disagree by this much. */
const SKEW_MS = 5000;

export type TokenKind = 'time' | 'confirm';
export type TokenVerdict = 'valid' | 'early' | 'missing' | 'invalid' | 'expired';

const PREFIX: Record<TokenKind, string> = { time: 't', confirm: 'c' };
const SHAPE = /^([tc])\.([0-9a-z]{1,11})\.([A-Za-z0-9_-]{22})$/;

const mac = (key: Uint8Array, body: string) => createHmac('sha256', key).update(body).digest().subarray(0, 16).toString('base64url');

export function signToken(key: Uint8Array, kind: TokenKind, now: number): string {
  const body = `${PREFIX[kind]}.${Math.floor(now).toString(36)}`;
  return `${body}.${mac(key, body)}`;
}

export function verifyToken(key: Uint8Array, token: string | undefined, now: number): TokenVerdict {
  if (!token) return 'missing';
  const match = SHAPE.exec(token);
  if (!match) return 'invalid';
  const [, kind = '', issued = '', signature = ''] = match;
  if (!timingSafeEqual(Buffer.from(signature), Buffer.from(mac(key, `${kind}.${issued}`)))) return 'invalid';
  const age = now - parseInt(issued, 36);
  if (age < -SKEW_MS || age > TOKEN_MAX_AGE_MS) return 'expired';
  return kind === PREFIX.time && age < MIN_FILL_MS ? 'early' : 'valid';
}

/** The signature of a form shown now, for the island (app/api/contact/token). */
export const timeToken = () => signToken(getFormTokenKey().key, 'time', Date.now());
/** The signature written into an answer: the next press is accepted. */
export const confirmToken = () => signToken(getFormTokenKey().key, 'confirm', Date.now());
export const checkFormToken = (token: string | undefined) => verifyToken(getFormTokenKey().key, token, Date.now());
