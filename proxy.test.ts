/**
 * @jest-environment node
 */
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { publicEnv } from './lib/env/public';
import { agencyPhone } from './lib/error-copy';
import { RETRY_PATH, VALUES_HEADER, decodeValues } from './lib/proxy/stale-form';
import { MAX_FORM_BODY_BYTES } from './lib/proxy/too-large';
import { decodeTouch, SOURCE_PARAMS } from './lib/contact/source';
import { config, proxy, redirectTarget } from './proxy';

const BASE = 'http://localhost:3000';
const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `${BASE}${path}` });

describe('proxy redirect rules', () => {
  // Next renders a dynamic segment it cannot decode (`/variante/%z`) with a 500, whatever the method.
  it('refuses a path whose percent-escapes do not decode with a plain 400', async () => {
    for (const method of ['GET', 'POST']) {
      const response = await proxy(new NextRequest(`${BASE}/variante/%z`, { method }));
      expect([method, response.status, await response.text()]).toEqual([
        method,
        400,
        'Solicitud no válida.\n',
      ]);
    }
    expect((await proxy(new NextRequest(`${BASE}/variante/%C3%B1`))).status).toBe(307);
  });

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

  it('runs for every request to /, which it passes on untouched unless an experiment runs', async () => {
    expect(matches('/')).toBe(true);
    expect(matches('/?foo=bar&ref=x')).toBe(true);
    for (const name of SOURCE_PARAMS)
      expect([name, matches(`/?${name}=abc`)]).toEqual([name, true]);
    // What the island's router sends for the page's data: its variant too, while an experiment runs.
    expect(
      unstable_doesMiddlewareMatch({
        config,
        url: `${BASE}/`,
        headers: { rsc: '1', 'next-router-prefetch': '1' },
      }),
    ).toBe(true);
    // None runs in the agency's file as shipped: a plain view of / gets nothing of the proxy's.
    const response = await proxy(
      new NextRequest(`${BASE}/`, { headers: { 'user-agent': 'Mozilla/5.0 Chrome/140' } }),
    );
    expect(response.headers.get('x-middleware-next')).toBe('1');
    expect(response.headers.get('x-middleware-rewrite')).toBeNull();
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(response.headers.get('cache-control')).toBeNull();
  });

  it("runs for the variants' own pages, whose codes have dots, to send a direct visit to /", async () => {
    expect(matches('/variante/eyJhbGciOiJIUzI1NiJ9.AQ.abc123')).toBe(true);
    const response = await proxy(
      new NextRequest(`${BASE}/variante/eyJhbGciOiJIUzI1NiJ9.AQ.abc123?gclid=1`),
    );
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(`${BASE}/?gclid=1`);
  });

  it("runs for every post to / with a body: the browser's own form post (no JavaScript) and the island's", () => {
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    expect(unstable_doesMiddlewareMatch({ config, url: `${BASE}/`, headers: multipart })).toBe(
      true,
    );
    expect(
      unstable_doesMiddlewareMatch({
        config,
        url: `${BASE}/`,
        headers: { ...multipart, 'next-action': 'abc' },
      }),
    ).toBe(true);
    expect(
      unstable_doesMiddlewareMatch({
        config,
        url: `${BASE}/`,
        headers: { 'content-type': 'text/plain;charset=UTF-8', 'next-action': 'abc' },
      }),
    ).toBe(true);
    expect(
      unstable_doesMiddlewareMatch({ config, url: `${BASE}/`, headers: { 'next-action': 'abc' } }),
    ).toBe(true);
  });

  it("never runs for Next's assets, public files, metadata routes or .well-known (the engine's routes aside)", () => {
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

describe('a post Next would read as a Server Action', () => {
  const island = { 'content-type': 'text/plain;charset=UTF-8', 'next-action': '60aa11' };
  const sent = (path: string, body: BodyInit, headers: Record<string, string>) =>
    proxy(
      new NextRequest(`${BASE}${path}`, {
        method: 'POST',
        body,
        headers: { host: 'localhost:3000', ...headers },
      }),
    );
  const expectRefused = async (response: Response, status: number) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await response.text()).toMatch(/^Solicitud no válida/);
  };

  it('is refused with a 400 when its multipart body cannot be read, on any page or none', async () => {
    for (const path of ['/', '/gracias', '/equipo', '/x/y']) {
      await expectRefused(await sent(path, 'x', { 'content-type': 'multipart/form-data' }), 400);
      await expectRefused(
        await sent(path, '--otro\r\n', { 'content-type': 'multipart/form-data; boundary=x' }),
        400,
      );
    }
    await expectRefused(
      await sent('/', 'x', { 'content-type': 'multipart/form-data', 'next-action': '60aa11' }),
      400,
    );
  });

  it("is refused with a 400 when React could not decode the action's arguments", async () => {
    for (const body of ['[', '["$Q1"]', '["$"]'])
      await expectRefused(await sent('/', body, island), 400);
    // A form whose bound action names a part the body lacks.
    const form = new FormData();
    form.set('$ACTION_REF_1', '');
    form.set('$ACTION_1:0', JSON.stringify({ id: '60aa11', bound: '$@2' }));
    form.set('$ACTION_1:1', '[]');
    const encoded = new Response(form);
    const contentType = encoded.headers.get('content-type') ?? '';
    await expectRefused(
      await sent('/', await encoded.arrayBuffer(), { 'content-type': contentType }),
      400,
    );
  });

  it('is refused with a 403 when its Origin is another site, or none a browser sends', async () => {
    for (const origin of ['https://otro-sitio.example', 'null', 'garbage', 'http://'])
      await expectRefused(await sent('/', '[]', { ...island, origin }), 403);
  });

  it("goes on to Next when it is one of the site's own: the island's, the form's, from the site's origin", async () => {
    const own = { origin: BASE };
    expect(
      (await sent('/', '["$K1"]', { ...island, ...own })).headers.get('x-middleware-next'),
    ).toBe('1');
    const { bytes, contentType } = await formBody(null);
    expect(
      (await sent('/', bytes, { 'content-type': contentType, ...own })).headers.get(
        'x-middleware-next',
      ),
    ).toBe('1');
    // Behind a proxy of ours, the host the visitor named.
    const forwarded = {
      ...island,
      origin: 'https://agencia.example',
      'x-forwarded-host': 'agencia.example',
    };
    expect((await sent('/', '[]', forwarded)).headers.get('x-middleware-next')).toBe('1');
  });

  it('is reached on every path, while a page view or a file request never runs the proxy', () => {
    const multipart = { 'content-type': 'multipart/form-data; boundary=x' };
    for (const path of [
      '/api/nada',
      '/nada.txt',
      '/images/logo.svg',
      '/.well-known/nada',
      '/_next/static/x.js',
    ]) {
      expect([
        path,
        unstable_doesMiddlewareMatch({ config, url: `${BASE}${path}`, headers: multipart }),
      ]).toEqual([path, true]);
      expect([
        path,
        unstable_doesMiddlewareMatch({ config, url: `${BASE}${path}`, headers: island }),
      ]).toEqual([path, true]);
      expect([path, matches(path)]).toEqual([path, false]);
    }
  });

  it('never turns a GET that carries those headers into a redirect', async () => {
    const response = await proxy(
      new NextRequest(`${BASE}/images/logo.svg`, { headers: { 'next-action': 'x' } }),
    );
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('x-middleware-next')).toBe('1');
  });
});

describe('where a visit came from, remembered for the lead it may become', () => {
  const view = (url: string, headers: Record<string, string> = {}) =>
    proxy(new NextRequest(url, { headers }));
  const setCookies = (response: Response) => response.headers.getSetCookie();

  /** Each cookie set: its name, its touch as the Server Action reads it back, and its attributes. */
  const parsed = (response: Response) =>
    setCookies(response).map((line) => {
      const [pair = '', ...attributes] = line.split('; ');
      const [name = '', value = ''] = pair.split(/=(.*)/s);
      return {
        name,
        touch: decodeTouch(decodeURIComponent(value)),
        attributes: attributes.map((a) => a.toLowerCase()),
      };
    });

  it('an ad click: the visit for the session and, once, the first visit for 90 days, HttpOnly, this site only', async () => {
    const cookies = parsed(
      await view(`https://agencia.example/?gclid=abc&utm_campaign=navidad`, {
        referer: 'https://www.google.com/',
      }),
    );
    const touch = {
      gclid: 'abc',
      utm_campaign: 'navidad',
      landing: '/',
      referrer: 'https://www.google.com',
      at: expect.any(Number),
    };
    expect(cookies).toEqual([
      {
        name: 'origen',
        touch,
        attributes: expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=lax']),
      },
      {
        name: 'origen_primero',
        touch,
        attributes: expect.arrayContaining(['max-age=7776000', 'httponly']),
      },
    ]);
    expect(
      cookies[0]?.attributes.some((a) => a.startsWith('max-age') || a.startsWith('expires')),
    ).toBe(false);
  });

  it('a later visit keeps the first one, and a visit that names nothing sets nothing', async () => {
    const later = parsed(
      await view('https://agencia.example/?utm_source=facebook', {
        cookie: 'origen_primero=gclid%3Dabc',
      }),
    );
    expect(later.map(({ name, touch }) => [name, touch?.utm_source])).toEqual([
      ['origen', 'facebook'],
    ]);
    expect(setCookies(await view('https://agencia.example/?foo=bar'))).toEqual([]);
    expect(setCookies(await view(`https://agencia.example/?utm_term=${'x'.repeat(5000)}`))).toEqual(
      [],
    );
  });

  it("a visit from another site without tags keeps that site's origin; one from this site sets nothing", async () => {
    const referral = parsed(
      await view('https://agencia.example/', {
        referer: 'https://www.bing.com/search?q=agencia+cdmx',
      }),
    );
    expect(referral.map(({ name, touch }) => [name, touch?.referrer, touch?.landing])).toEqual([
      ['origen', 'https://www.bing.com', '/'],
      ['origen_primero', 'https://www.bing.com', '/'],
    ]);
    expect(
      setCookies(
        await view('https://agencia.example/', {
          referer: 'https://agencia.example/aviso-de-privacidad',
        }),
      ),
    ).toEqual([]);
    // Next's own URL may name the site otherwise (127.0.0.1 as localhost; a proxy's public host): the Host it was asked for is the site too.
    expect(
      setCookies(
        await view('http://localhost:3100/', {
          host: '127.0.0.1:3100',
          referer: 'http://127.0.0.1:3100/?gclid=abc',
        }),
      ),
    ).toEqual([]);
    expect(
      setCookies(
        await view('http://localhost:3000/', {
          'x-forwarded-host': 'agencia.example',
          referer: 'https://agencia.example/gracias',
        }),
      ),
    ).toEqual([]);
  });
});

describe('a form sent without JavaScript from another build', () => {
  const CURRENT = 'ed1c10n1';
  let proxyOf: typeof proxy;
  const fetchSpy = jest.fn();

  // A module of its own, built as this build is: its edition inlined (next.config.ts).
  beforeAll(async () => {
    process.env.CONTACT_FORM_EDITION = CURRENT;
    await jest.isolateModulesAsync(async () => {
      proxyOf = (await import('./proxy')).proxy;
    });
  });
  afterAll(() => {
    delete process.env.CONTACT_FORM_EDITION;
  });
  beforeEach(() => {
    jest.spyOn(console, 'warn').mockImplementation(() => {});
    global.fetch = fetchSpy.mockReset();
  });
  // The proxy never fetches the site from inside itself to find out.
  afterEach(() => expect(fetchSpy).not.toHaveBeenCalled());

  async function post(edition: string | null, extra: Record<string, string> = {}) {
    const { bytes, contentType } = await formBody(edition, extra);
    return proxyOf(
      new NextRequest(`${BASE}/`, {
        method: 'POST',
        body: bytes,
        headers: { 'content-type': contentType, 'content-length': String(bytes.byteLength) },
      }),
    );
  }

  it("goes on to the Server Action when the form is this build's, or names no edition", async () => {
    for (const edition of [CURRENT, null]) {
      const response = await post(edition);
      expect(response.headers.get('x-middleware-next')).toBe('1');
      expect(response.headers.get('x-middleware-rewrite')).toBeNull();
    }
  });

  it('gives back every character typed, a reason over its rule (and accented) included', async () => {
    const reason = 'Quiero una página para mi cafetería, ¿cuánto cuesta? '.repeat(14);
    expect(reason.length).toBeGreaterThan(700);
    const response = await post('0ld3d1c1', { reason });
    expect(
      decodeValues(response.headers.get(`x-middleware-request-${VALUES_HEADER}`))?.reason,
    ).toBe(reason);
  });

  it("is rewritten to the retry page with its values when its edition is another build's", async () => {
    const response = await post('0ld3d1c1', {
      reason: 'Necesito una tienda en línea, ¿cuánto cuesta?',
    });
    expect(new URL(response.headers.get('x-middleware-rewrite') ?? '').pathname).toBe(RETRY_PATH);
    expect(response.headers.get('x-middleware-request-content-type')).toMatch(/^text\/plain/);
    expect(decodeValues(response.headers.get(`x-middleware-request-${VALUES_HEADER}`))).toEqual({
      name: 'Ana López',
      mail: 'ana@example.mx',
      phone: '5512345678',
      reason: 'Necesito una tienda en línea, ¿cuánto cuesta?',
    });
  });

  it('is caught just the same when it comes in chunks, without a Content-Length', async () => {
    const { bytes, contentType } = await formBody('0ld3d1c1');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.byteLength; at += 100)
          controller.enqueue(bytes.slice(at, at + 100));
        controller.close();
      },
    });
    const init: ConstructorParameters<typeof NextRequest>[1] & { duplex: 'half' } = {
      method: 'POST',
      body,
      headers: { 'content-type': contentType },
      duplex: 'half',
    };
    const response = await proxyOf(new NextRequest(`${BASE}/`, init));
    expect(new URL(response.headers.get('x-middleware-rewrite') ?? '').pathname).toBe(RETRY_PATH);
    expect(decodeValues(response.headers.get(`x-middleware-request-${VALUES_HEADER}`))?.name).toBe(
      'Ana López',
    );
  });
});

/** A multipart body as the browser sends the form without JavaScript, with React's action fields and the form's `edition`. */
async function formBody(edition: string | null, extra: Record<string, string> = {}) {
  const form = new FormData();
  form.set('$ACTION_REF_1', '');
  form.set('$ACTION_1:0', JSON.stringify({ id: '60aa11', bound: '$@1' }));
  form.set('$ACTION_1:1', JSON.stringify([{ status: 'idle' }]));
  if (edition !== null) form.set('edicion', edition);
  for (const [key, value] of Object.entries({
    name: 'Ana López',
    mail: 'ana@example.mx',
    phone: '5512345678',
    reason: 'Quiero una página.',
    ...extra,
  })) {
    form.set(key, value);
  }
  const encoded = new Response(form);
  return {
    bytes: new Uint8Array(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
  };
}

/**
 * A chunked body (no Content-Length): `size` bytes in chunks of `chunk`, counting what the reader pulled. The bytes
 * spell a JSON array of one string, as the island's reply of a text argument would be.
 */
function countedStream(size: number, chunk: number) {
  const seen = { pulls: 0, bytes: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const length = Math.min(chunk, size - seen.bytes);
        if (length <= 0) return controller.close();
        const bytes = new Uint8Array(length).fill(0x78);
        if (seen.bytes === 0) bytes.set([0x5b, 0x22]); // ["
        if (seen.bytes + length === size && length >= 2) bytes.set([0x22, 0x5d], length - 2); // "]
        seen.pulls += 1;
        seen.bytes += length;
        controller.enqueue(bytes);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    // Nothing is produced ahead of a read: `pulls` counts exactly what the proxy asked for.
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

function postTo(body: BodyInit, headers: Record<string, string>) {
  // A stream body needs duplex: 'half' (undici); the same init is harmless for bytes.
  const init: ConstructorParameters<typeof NextRequest>[1] & { duplex: 'half' } = {
    method: 'POST',
    body,
    headers,
    duplex: 'half',
  };
  return proxy(new NextRequest(`${BASE}/`, init));
}

async function expectSpanishTooLargePage(response: Response) {
  expect(response.status).toBe(413);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('no-store');
  const html = await response.text();
  expect(html).toMatch(/<html lang="es">/);
  expect(html).toMatch(/<title>[^<]+<\/title>/);
  expect(html.match(/<h1>/g)).toHaveLength(1);
  expect(html).toMatch(/demasiado largo/);
  expect(html).toContain(`href="tel:${agencyPhone.e164}"`);
  expect(html).toContain(`href="${publicEnv.whatsappUrl}"`);
}

describe('a post bigger than the form', () => {
  const CHUNK = 16 * 1024;
  let warn: jest.SpyInstance;

  beforeEach(() => {
    jest.restoreAllMocks();
    warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    global.fetch = jest
      .fn()
      .mockRejectedValue(new Error('the page is not read for a refused post'));
  });

  it('is refused with the Spanish 413 page on its Content-Length alone, without reading a byte', async () => {
    for (const extra of [{}, { 'next-action': '60aa11' }] as Record<string, string>[]) {
      const { stream, seen } = countedStream(8 * 1024 * 1024, CHUNK);
      const headers = {
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(8 * 1024 * 1024),
        ...extra,
      };
      await expectSpanishTooLargePage(await postTo(stream, headers));
      expect(seen.pulls).toBe(0);
    }
  });

  it('sent in chunks (no Content-Length), is refused once it passes the limit, having read at most the limit and one chunk', async () => {
    for (const extra of [{}, { 'next-action': '60aa11' }] as Record<string, string>[]) {
      const { stream, seen } = countedStream(8 * 1024 * 1024, CHUNK);
      await expectSpanishTooLargePage(
        await postTo(stream, { 'content-type': 'multipart/form-data; boundary=x', ...extra }),
      );
      expect(seen.bytes).toBeLessThanOrEqual(MAX_FORM_BODY_BYTES + CHUNK);
      expect(seen.pulls).toBe(MAX_FORM_BODY_BYTES / CHUNK + 1);
      expect(seen.cancelled).toBe(true);
    }
  });

  it('one byte over is refused; exactly the limit goes on to the action', async () => {
    const over = countedStream(MAX_FORM_BODY_BYTES + 1, CHUNK);
    expect(
      (await postTo(over.stream, { 'content-type': 'text/plain', 'next-action': '60aa11' })).status,
    ).toBe(413);
    const exact = countedStream(MAX_FORM_BODY_BYTES, CHUNK);
    const response = await postTo(exact.stream, {
      'content-type': 'text/plain',
      'next-action': '60aa11',
    });
    expect(response.headers.get('x-middleware-next')).toBe('1');
  });

  it('is logged in one line that names no visitor data', async () => {
    const { bytes, contentType } = await formBody('60aa11', {
      reason: 'Mensaje privado de Ana '.repeat(2_000),
    });
    await expectSpanishTooLargePage(
      await postTo(bytes, {
        'content-type': contentType,
        'content-length': String(bytes.byteLength),
      }),
    );
    expect(warn).toHaveBeenCalledTimes(1);
    const line = String(warn.mock.calls[0]?.[0]);
    expect(line).toMatch(/^\[contacto\] .*413/);
    expect(line).not.toMatch(/Ana|privado|\n/);
  });

  it("goes on to Next when it is the form's size, whether it comes with a Content-Length or in chunks", async () => {
    const island = { 'content-type': 'text/plain;charset=UTF-8', 'next-action': '60aa11' };
    const small = new TextEncoder().encode('["$K1"]');
    expect(
      (await postTo(small, { ...island, 'content-length': String(small.byteLength) })).headers.get(
        'x-middleware-next',
      ),
    ).toBe('1');
    const chunked = countedStream(20 * 1024, 4 * 1024);
    expect((await postTo(chunked.stream, island)).headers.get('x-middleware-next')).toBe('1');
    expect(warn).not.toHaveBeenCalled();
  });
});
