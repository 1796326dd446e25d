import { expect } from '@playwright/test';

/** The headers every page and file is sent with (lib/server/security-headers.ts), locally and on a deployment. */
export function expectSecurityHeaders(headers: Record<string, string>): void {
  const csp = headers['content-security-policy'] ?? '';
  for (const directive of [
    "default-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ]) {
    expect(csp).toContain(directive);
  }
  expect(headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['permissions-policy']).toMatch(/camera=\(\)/);
  expect(headers['permissions-policy']).toMatch(/geolocation=\(\)/);
}
