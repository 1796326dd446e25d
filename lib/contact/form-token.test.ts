/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto';
import { CONFIRM_MIN_MS, MIN_FILL_MS } from './fields';
import { signToken, TOKEN_MAX_AGE_MS, verifyToken } from './form-token';

const key = randomBytes(32);
const T0 = Date.UTC(2026, 10, 23, 18, 0, 0);
const HERE = '203.0.113.5';
const verdict = (token: string | undefined, at: number, client = HERE, withKey: Uint8Array = key) =>
  verifyToken(withKey, token, at, client).verdict;

describe('the form signature', () => {
  it('a form on screen for 3 s or more is valid; sooner, it is early', () => {
    const token = signToken(key, 'time', T0, HERE);
    expect(verdict(token, T0 + 200)).toBe('early');
    expect(verdict(token, T0 + MIN_FILL_MS - 1)).toBe('early');
    expect(verdict(token, T0 + MIN_FILL_MS)).toBe('valid');
    expect(verdict(token, T0 + 60 * 60 * 1000)).toBe('valid');
  });

  it("the server's own answer is held to a person reading one line: early before CONFIRM_MIN_MS", () => {
    const token = signToken(key, 'confirm', T0, HERE);
    expect(verdict(token, T0 + 50)).toBe('early');
    expect(verdict(token, T0 + CONFIRM_MIN_MS - 1)).toBe('early');
    expect(verdict(token, T0 + CONFIRM_MIN_MS)).toBe('valid');
    expect(CONFIRM_MIN_MS).toBeGreaterThanOrEqual(1000);
  });

  it('is bound to the address it was made for, and names its nonce once valid', () => {
    const token = signToken(key, 'time', T0, HERE);
    expect(verdict(token, T0 + 10_000, '198.51.100.9')).toBe('invalid');
    expect(verifyToken(key, token, T0 + 10_000, HERE)).toEqual({
      verdict: 'valid',
      nonce: token.split('.')[2],
    });
    expect(signToken(key, 'time', T0, HERE)).not.toBe(token);
  });

  it('runs out after two hours, and is not taken from the future', () => {
    expect(verdict(signToken(key, 'confirm', T0, HERE), T0 + TOKEN_MAX_AGE_MS + 1)).toBe('expired');
    expect(verdict(signToken(key, 'time', T0 + 60_000, HERE), T0)).toBe('expired');
  });

  it('is refused when missing, forged, altered, signed with another key or malformed', () => {
    const token = signToken(key, 'time', T0, HERE);
    const later = T0 + 10_000;
    expect(verdict('', later)).toBe('missing');
    expect(verdict(undefined, later)).toBe('missing');
    expect(verdict(token, later, HERE, randomBytes(32))).toBe('invalid');
    // A time token passed off as a confirmation, an earlier time or another nonce: the signature no longer matches.
    expect(verdict(token.replace(/^t/, 'c'), later)).toBe('invalid');
    const [, , nonce, signature] = token.split('.');
    expect(verdict(`t.${(T0 - 60_000).toString(36)}.${nonce}.${signature}`, later)).toBe('invalid');
    expect(verdict(`t.${T0.toString(36)}.AAAAAAAAAAA.${signature}`, later)).toBe('invalid');
    for (const junk of [
      'x',
      'a'.repeat(4096),
      `${token}x`,
      `t.${T0}.${'A'.repeat(22)}`,
      '\u0000'.repeat(40),
    ]) {
      expect(verdict(junk, later)).toBe('invalid');
    }
  });

  it('is short and plain ASCII, so it travels in a hidden input as it is', () => {
    const token = signToken(key, 'time', T0, HERE);
    expect(token).toMatch(/^t\.[0-9a-z]+\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{22}$/);
    expect(token.length).toBeLessThan(50);
  });
});
