/**
 * @jest-environment node
 */
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { RETRY_PATH, VALUES_HEADER, decodeValues } from './lib/contact/stale-form';
import { config, proxy, redirectTarget } from './proxy';

const BASE = 'http://localhost:3000';
const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `${BASE}${path}` });

describe('proxy redirect rules', () => {
  it('redirects /home to / permanently', async () => {
    const response = await proxy(new NextRequest(`${BASE}/home`));
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe(`${BASE}/`);
  });

  it('redirects unknown paths to / and keeps the query string of the ad click', async () => {
    const response = await proxy(new NextRequest(`${BASE}/x/y?utm_source=a&gclid=123`));
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(`${BASE}/?utm_source=a&gclid=123`);
  });

  it('keeps the query string of /home too', async () => {
    const response = await proxy(new NextRequest(`${BASE}/home?utm_campaign=verano`));
    expect(response.headers.get('location')).toBe(`${BASE}/?utm_campaign=verano`);
  });

  it('redirects HEAD requests like GET', () => {
    expect(redirectTarget('HEAD', new URL(`${BASE}/nada`))?.href).toBe(`${BASE}/`);
  });

  it('never redirects other methods, such as the page posting to its server action', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      expect(redirectTarget(method, new URL(`${BASE}/x`))).toBeNull();
    }
    const response = await proxy(new NextRequest(`${BASE}/x`, { method: 'POST' }));
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

  it('never runs for / itself, which is served statically, nor for the island sending the form', () => {
    expect(matches('/')).toBe(false);
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    expect(unstable_doesMiddlewareMatch({ config, url: `${BASE}/`, headers: { ...multipart, 'next-action': 'abc' } })).toBe(false);
  });

  it('runs for a form the browser posts to / itself (no JavaScript), to catch one from an older deployment', () => {
    expect(unstable_doesMiddlewareMatch({ config, url: `${BASE}/`, headers: { 'content-type': 'multipart/form-data; boundary=x' } })).toBe(true);
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

describe('a form sent without JavaScript from an older deployment', () => {
  const CURRENT = '60aa11';
  const page = `<form action="/#contacto" encType="multipart/form-data" method="POST"><input type="hidden" name="$ACTION_REF_1"/><input type="hidden" name="$ACTION_1:0" value="{&quot;id&quot;:&quot;${CURRENT}&quot;,&quot;bound&quot;:&quot;$@1&quot;}"/></form>`;
  const fetchMock = jest.fn();

  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    fetchMock.mockReset().mockResolvedValue(new Response(page, { status: 200 }));
    global.fetch = fetchMock;
  });

  async function post(actionId: string, extra: Record<string, string> = {}) {
    const form = new FormData();
    form.set('$ACTION_REF_1', '');
    form.set('$ACTION_1:0', JSON.stringify({ id: actionId, bound: '$@1' }));
    for (const [key, value] of Object.entries({ name: 'Ana López', mail: 'ana@example.mx', phone: '5512345678', reason: 'Quiero una página.', ...extra })) {
      form.set(key, value);
    }
    const encoded = new Response(form);
    const body = await encoded.arrayBuffer();
    return proxy(
      new NextRequest(`${BASE}/`, {
        method: 'POST',
        body,
        headers: { 'content-type': encoded.headers.get('content-type') ?? '', 'content-length': String(body.byteLength) },
      }),
    );
  }

  // First: the current ids are read once and kept, and a failed read is not kept.
  it('leaves the post to Next when the current page cannot be read', async () => {
    fetchMock.mockRejectedValue(new TypeError('fetch failed'));
    const response = await post('0ld1d');
    expect(response.headers.get('x-middleware-rewrite')).toBeNull();
  });

  it('goes on to the Server Action when the page names the current action', async () => {
    const response = await post(CURRENT);
    expect(response.headers.get('x-middleware-next')).toBe('1');
    expect(response.headers.get('x-middleware-rewrite')).toBeNull();
  });

  it('gives back every character typed, a reason over its rule (and accented) included', async () => {
    const reason = 'Quiero una página para mi cafetería, ¿cuánto cuesta? '.repeat(14);
    expect(reason.length).toBeGreaterThan(700);
    const response = await post('0ld1d', { reason });
    expect(decodeValues(response.headers.get(`x-middleware-request-${VALUES_HEADER}`))?.reason).toBe(reason);
  });

  it('is rewritten to the retry page with its values when the action is unknown', async () => {
    const response = await post('0ld1d', { reason: 'Necesito una tienda en línea, ¿cuánto cuesta?' });
    expect(new URL(response.headers.get('x-middleware-rewrite') ?? '').pathname).toBe(RETRY_PATH);
    expect(response.headers.get('x-middleware-request-content-type')).toMatch(/^text\/plain/);
    expect(decodeValues(response.headers.get(`x-middleware-request-${VALUES_HEADER}`))).toEqual({
      name: 'Ana López',
      mail: 'ana@example.mx',
      phone: '5512345678',
      reason: 'Necesito una tienda en línea, ¿cuánto cuesta?',
    });
  });

});
