/**
 * @jest-environment node
 */
import { PHASE_DEVELOPMENT_SERVER, PHASE_PRODUCTION_BUILD, PHASE_PRODUCTION_SERVER } from 'next/constants';
import nextConfig from '@/next.config';

describe('next.config.ts checks the server variables at build', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  it('fails `next build` naming a malformed variable, so the previous deployment stays online', () => {
    process.env.ALERT_SMTP_URL = 'foo';
    expect(() => nextConfig(PHASE_PRODUCTION_BUILD)).toThrow(/ALERT_SMTP_URL: debe ser una URL smtp:\/\/ o smtps:\/\//);
  });

  it('fails `next build` on a contact API base without its site key', () => {
    process.env.CONTACT_API_BASE_URL = 'https://api.example.mx/api/';
    delete process.env.CONTACT_SITE_KEY;
    expect(() => nextConfig(PHASE_PRODUCTION_BUILD)).toThrow(/CONTACT_SITE_KEY/);
  });

  it('builds with no contact API at all', () => {
    delete process.env.CONTACT_API_BASE_URL;
    delete process.env.CONTACT_SITE_KEY;
    expect(() => nextConfig(PHASE_PRODUCTION_BUILD)).not.toThrow();
  });

  it('lets `next start` and `next dev` run with it: the server falls back and reports it at start-up', () => {
    process.env.ALERT_SMTP_URL = 'foo';
    expect(() => nextConfig(PHASE_PRODUCTION_SERVER)).not.toThrow();
    expect(() => nextConfig(PHASE_DEVELOPMENT_SERVER)).not.toThrow();
  });
});
