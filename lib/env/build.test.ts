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

  it('fails `next build` naming a malformed variable, so the previous deployment stays online', async () => {
    process.env.ALERT_SMTP_URL = 'foo';
    await expect(nextConfig(PHASE_PRODUCTION_BUILD, { defaultConfig: {} })).rejects.toThrow(
      /ALERT_SMTP_URL: debe ser una URL smtp:\/\/ o smtps:\/\//,
    );
  });

  it('fails `next build` on a contact API base without its site key', async () => {
    process.env.CONTACT_API_BASE_URL = 'https://api.example.mx/api/';
    delete process.env.CONTACT_SITE_KEY;
    await expect(nextConfig(PHASE_PRODUCTION_BUILD, { defaultConfig: {} })).rejects.toThrow(/CONTACT_SITE_KEY/);
  });

  it('builds with no contact API at all', async () => {
    delete process.env.CONTACT_API_BASE_URL;
    delete process.env.CONTACT_SITE_KEY;
    await expect(nextConfig(PHASE_PRODUCTION_BUILD, { defaultConfig: {} })).resolves.toBeDefined();
  });

  it('lets `next start` and `next dev` run with it: the server falls back and reports it at start-up', async () => {
    process.env.ALERT_SMTP_URL = 'foo';
    await expect(nextConfig(PHASE_PRODUCTION_SERVER, { defaultConfig: {} })).resolves.toBeDefined();
    await expect(nextConfig(PHASE_DEVELOPMENT_SERVER, { defaultConfig: {} })).resolves.toBeDefined();
  });

  it('sends raster pictures as AVIF or WebP, at the widths the pictures are drawn at', async () => {
    const { images } = await nextConfig(PHASE_PRODUCTION_SERVER, { defaultConfig: {} });
    expect(images?.formats).toEqual(['image/avif', 'image/webp']);
    expect(images?.deviceSizes).toContain(700);
    expect(images?.imageSizes).toContain(224);
    expect(images?.unoptimized).toBeUndefined();
  });
});
