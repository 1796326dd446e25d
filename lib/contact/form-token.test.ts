/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto';
import { MIN_FILL_MS } from './fields';
import { signToken, TOKEN_MAX_AGE_MS, verifyToken } from './form-token';

const key = randomBytes(32);
const T0 = Date.UTC(2026, 10, 23, 18, 0, 0);

describe('the form signature', () => {
  it('a form on screen for 3 s or more is valid; sooner, it is early', () => {
    const token = signToken(key, 'time', T0);
    expect(verifyToken(key, token, T0 + 200)).toBe('early');
    expect(verifyToken(key, token, T0 + MIN_FILL_MS - 1)).toBe('early');
    expect(verifyToken(key, token, T0 + MIN_FILL_MS)).toBe('valid');
    expect(verifyToken(key, token, T0 + 60 * 60 * 1000)).toBe('valid');
  });

  it("the server's own answer may be confirmed at once", () => {
    expect(verifyToken(key, signToken(key, 'confirm', T0), T0 + 50)).toBe('valid');
  });

  it('runs out after two hours, and is not taken from the future', () => {
    expect(verifyToken(key, signToken(key, 'confirm', T0), T0 + TOKEN_MAX_AGE_MS + 1)).toBe('expired');
    expect(verifyToken(key, signToken(key, 'time', T0 + 60_000), T0)).toBe('expired');
  });

  it('is refused when missing, forged, altered, signed with another key or malformed', () => {
    const token = signToken(key, 'time', T0);
    const later = T0 + 10_000;
    expect(verifyToken(key, '', later)).toBe('missing');
    expect(verifyToken(key, undefined, later)).toBe('missing');
    expect(verifyToken(randomBytes(32), token, later)).toBe('invalid');
    // A time token passed off as a confirmation, or an earlier time: the signature no longer matches.
    expect(verifyToken(key, token.replace(/^t/, 'c'), T0 + 100)).toBe('invalid');
    const [, , signature] = token.split('.');
    expect(verifyToken(key, `t.${(T0 - 60_000).toString(36)}.${signature}`, later)).toBe('invalid');
    for (const junk of ['x', 'a'.repeat(4096), `${token}x`, `t.${T0}.${'A'.repeat(22)}`, '\u0000'.repeat(40)]) {
      expect(verifyToken(key, junk, later)).toBe('invalid');
    }
  });

  it('is short and plain ASCII, so it travels in a hidden input as it is', () => {
    const token = signToken(key, 'time', T0);
    expect(token).toMatch(/^t\.[0-9a-z]+\.[A-Za-z0-9_-]{22}$/);
    expect(token.length).toBeLessThan(40);
  });
});
