/**
 * @jest-environment node
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { resentKey, signResend } from './resend-key';
import type { ContactEnquiry } from './schema';

const secret = randomBytes(32);
const HERE = '203.0.113.5';
const KEY = randomUUID();
const enquiry: ContactEnquiry = {
  name: 'Ana Visitante',
  mail: 'ana@example.mx',
  phone: '5587654321',
  reason: 'Necesito anuncios para mi florería.',
  captcha: 'token-de-la-primera-vez',
};

describe("a failed send's key, handed back", () => {
  it('is kept by the same words from the same client, whatever the captcha token', () => {
    const posted = signResend(secret, KEY, HERE, enquiry);
    expect(posted).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{22}$/);
    expect(resentKey(secret, posted, HERE, enquiry)).toBe(KEY);
    expect(resentKey(secret, posted, HERE, { ...enquiry, captcha: 'otro' })).toBe(KEY);
  });

  it('is not kept by changed words, another client, another server key, or a key the sender chose', () => {
    const posted = signResend(secret, KEY, HERE, enquiry);
    expect(resentKey(secret, posted, HERE, { ...enquiry, reason: 'Otra cosa.' })).toBeUndefined();
    expect(resentKey(secret, posted, HERE, { ...enquiry, phone: '5587654322' })).toBeUndefined();
    expect(resentKey(secret, posted, '203.0.113.6', enquiry)).toBeUndefined();
    expect(resentKey(randomBytes(32), posted, HERE, enquiry)).toBeUndefined();
    const chosen = `${randomUUID()}.${posted.split('.')[1]}`;
    expect(resentKey(secret, chosen, HERE, enquiry)).toBeUndefined();
  });

  it('is nothing when missing or in any other shape', () => {
    for (const posted of [
      undefined,
      '',
      KEY,
      `${KEY}.`,
      `${KEY}.${'A'.repeat(23)}`,
      'x'.repeat(5000),
    ])
      expect(resentKey(secret, posted, HERE, enquiry)).toBeUndefined();
  });
});
