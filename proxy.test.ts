/**
 * @jest-environment node
 */
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { config, proxy, redirectTarget } from './proxy';

const BASE = 'http://localhost:3000';
const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `${BASE}${path}` });

describe('proxy redirect rules', () => {
  it('redirects /home to / permanently', () => {
    const response = proxy(new NextRequest(`${BASE}/home`));
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe(`${BASE}/`);
  });

  it('redirects unknown paths to / and keeps the query string of the ad click', () => {
    const response = proxy(new NextRequest(`${BASE}/x/y?utm_source=a&gclid=123`));
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(`${BASE}/?utm_source=a&gclid=123`);
  });

  it('keeps the query string of /home too', () => {
    const response = proxy(new NextRequest(`${BASE}/home?utm_campaign=verano`));
    expect(response.headers.get('location')).toBe(`${BASE}/?utm_campaign=verano`);
  });

  it('redirects HEAD requests like GET', () => {
    expect(redirectTarget('HEAD', new URL(`${BASE}/nada`))?.href).toBe(`${BASE}/`);
  });

  it('never redirects other methods, such as the page posting to its server action', () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      expect(redirectTarget(method, new URL(`${BASE}/x`))).toBeNull();
    }
    const response = proxy(new NextRequest(`${BASE}/x`, { method: 'POST' }));
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('x-middleware-next')).toBe('1');
  });

  it('lets the real pages through', () => {
    expect(redirectTarget('GET', new URL(`${BASE}/`))).toBeNull();
    expect(redirectTarget('GET', new URL(`${BASE}/aviso-de-privacidad`))).toBeNull();
    expect(redirectTarget('GET', new URL(`${BASE}/aviso-de-privacidad/`))).toBeNull();
  });

  it('lets the route handlers under /api/ answer, such as the outbox flush', () => {
    expect(redirectTarget('GET', new URL(`${BASE}/api/outbox/flush`))).toBeNull();
    expect(matches('/api/outbox/flush')).toBe(false);
    // Only the /api/ folder: a page merely starting with "api" is still unknown.
    expect(redirectTarget('GET', new URL(`${BASE}/apis`))?.href).toBe(`${BASE}/`);
  });
});

describe('proxy matcher', () => {
  it('runs for unknown pages and /home', () => {
    expect(matches('/home')).toBe(true);
    expect(matches('/x/y')).toBe(true);
    expect(matches('/servicios?utm_source=a')).toBe(true);
  });

  it('never runs for / itself, which is served statically', () => {
    expect(matches('/')).toBe(false);
  });

  it("never runs for Next's assets, public files, metadata routes or .well-known", () => {
    for (const path of [
      '/_next/static/chunks/main.js',
      '/_next/image?url=%2Fimages%2Flogo.svg&w=256&q=75',
      '/images/logo.svg',
      '/images/clients/cafe-la-esquina.svg',
      '/favicon.ico',
      '/icon.svg',
      '/robots.txt',
      '/sitemap.xml',
      '/opengraph-image',
      '/.well-known/security.txt',
      '/google1234567890abcdef.html',
    ]) {
      expect([path, matches(path)]).toEqual([path, false]);
    }
  });
});
