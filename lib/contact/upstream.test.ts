/**
 * @jest-environment node
 */
import { postEnquiry, UPSTREAM_DEFAULTS, type UpstreamOptions } from './upstream';
import { parseRetryAfter } from '@/lib/server/http';

const enquiry = {
  name: 'Ana López',
  mail: 'ana@example.mx',
  phone: '5512345678',
  reason: 'Quiero anunciarme en Google.',
  captcha: 'token-123',
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

type Call = { url: string; init: RequestInit };

/** A fake fetch answering from a script, one entry per attempt. */
function fakeFetch(script: Array<Response | Error | 'hang' | (() => Response)>) {
  const calls: Call[] = [];
  const impl = (async (url: URL | RequestInfo, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const step = script[Math.min(calls.length - 1, script.length - 1)];
    if (step === 'hang') {
      return new Promise<Response>((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
      });
    }
    if (step instanceof Error) throw step;
    // A fresh Response per attempt: a clone's body cannot be cancelled alone.
    return typeof step === 'function'
      ? step()
      : new Response(
          (step as Response).body === null ? null : await (step as Response).clone().arrayBuffer(),
          step as Response,
        );
  }) as typeof fetch;
  return { impl, calls };
}

const options = (
  fetchImpl: typeof fetch,
  extra: Partial<UpstreamOptions> = {},
): UpstreamOptions => ({
  baseUrl: 'https://api.example.mx/api/',
  siteKey: 'site-key-1',
  idempotencyKey: 'key-1',
  fetchImpl,
  sleep: async () => {},
  ...extra,
});

describe('contact API client', () => {
  it('POSTs the five fields as JSON to {base}contact with the site key', async () => {
    const { impl, calls } = fakeFetch([json(200, { success: true, mes: 'ok' })]);
    const report = await postEnquiry(enquiry, options(impl));

    expect(report).toEqual({ result: { outcome: 'delivered' }, attempts: 1, failures: [] });
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe('https://api.example.mx/api/contact?siteKey=site-key-1');
    expect(call?.init.method).toBe('POST');
    expect(JSON.parse(String(call?.init.body))).toEqual({
      name: 'Ana López',
      mail: 'ana@example.mx',
      reason: 'Quiero anunciarme en Google.',
      phone: '5512345678',
      captcha: 'token-123',
    });
    const headers = call?.init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['Idempotency-Key']).toBe('key-1');
    expect(call?.init.redirect).toBe('manual');
  });

  it('sends the five fields and nothing else, whatever else the enquiry object carries (its source, its variant)', async () => {
    const { impl, calls } = fakeFetch([json(200, { success: true })]);
    const carried = {
      ...enquiry,
      source: {
        last: { utm_source: 'google' },
        experiment: { name: 'titular-verano', variant: 'b' },
      },
      experiment: { name: 'titular-verano', variant: 'b' },
      variante: 'b',
    };
    await postEnquiry(carried, options(impl));
    const body = String(calls[0]?.init.body);
    expect(Object.keys(JSON.parse(body))).toEqual(['name', 'mail', 'reason', 'phone', 'captcha']);
    expect(body).not.toMatch(/titular-verano|variant|source/);
  });

  it('escapes the site key in the query string', async () => {
    const { impl, calls } = fakeFetch([json(200, { success: true })]);
    await postEnquiry(enquiry, options(impl, { siteKey: 'a&b=c' }));
    expect(new URL(calls[0]?.url ?? '').searchParams.get('siteKey')).toBe('a&b=c');
  });

  it('retries 3 times (4 attempts) with the same Idempotency-Key, and succeeds on the last', async () => {
    const { impl, calls } = fakeFetch([
      json(503, {}),
      new TypeError('fetch failed'),
      json(502, {}),
      json(200, { success: true }),
    ]);
    const report = await postEnquiry(enquiry, options(impl));

    expect(report).toEqual({
      result: { outcome: 'delivered' },
      attempts: 4,
      failures: ['http-503', 'network', 'http-502'],
    });
    expect(
      new Set(
        calls.map((call) => (call.init.headers as Record<string, string>)['Idempotency-Key']),
      ),
    ).toEqual(new Set(['key-1']));
  });

  it('gives up after 4 failed attempts', async () => {
    const { impl, calls } = fakeFetch([json(500, {})]);
    const report = await postEnquiry(enquiry, options(impl));
    expect(report.result).toEqual({ outcome: 'unavailable' });
    expect(calls).toHaveLength(4);
  });

  it.each([408, 500, 503, 504])('retries a %i answer', async (status) => {
    const { impl, calls } = fakeFetch([json(status, {}), json(200, { success: true })]);
    expect((await postEnquiry(enquiry, options(impl))).result).toEqual({ outcome: 'delivered' });
    expect(calls).toHaveLength(2);
  });

  it('waits a little longer before each retry', async () => {
    const waits: number[] = [];
    const { impl } = fakeFetch([json(503, {})]);
    await postEnquiry(enquiry, options(impl, { sleep: async (ms) => void waits.push(ms) }));
    expect(waits).toEqual([200, 400, 800]);
  });

  it('shows the mes of a success:false answer, without retrying', async () => {
    const { impl, calls } = fakeFetch([
      json(200, { success: false, mes: 'El correo ya fue registrado hoy' }),
    ]);
    expect((await postEnquiry(enquiry, options(impl))).result).toEqual({
      outcome: 'refused',
      refusal: 'El correo ya fue registrado hoy',
    });
    expect(calls).toHaveLength(1);
  });

  it.each([400, 403, 409, 422])(
    'a %i answer with a JSON mes is final and its mes is shown',
    async (status) => {
      const { impl, calls } = fakeFetch([
        json(status, { success: false, mes: 'Captcha inválido' }),
      ]);
      expect((await postEnquiry(enquiry, options(impl))).result).toEqual({
        outcome: 'refused',
        refusal: 'Captcha inválido',
      });
      expect(calls).toHaveLength(1);
    },
  );

  it('a 4xx without a readable mes is final, with no message of its own', async () => {
    const { impl, calls } = fakeFetch([new Response('<h1>Forbidden</h1>', { status: 403 })]);
    expect((await postEnquiry(enquiry, options(impl))).result).toEqual({
      outcome: 'refused',
      refusal: undefined,
    });
    expect(calls).toHaveLength(1);
  });

  it('does not retry a 2xx it cannot read: the API may have stored it', async () => {
    for (const body of ['<html>ok</html>', '{"success": tr', '', '{"mes":"sin success"}']) {
      const { impl, calls } = fakeFetch([new Response(body, { status: 200 })]);
      expect((await postEnquiry(enquiry, options(impl))).result).toEqual({
        outcome: 'unavailable',
      });
      expect(calls).toHaveLength(1);
    }
  });

  it('does not read an oversized answer', async () => {
    const huge = JSON.stringify({ success: true, mes: 'x'.repeat(200_000) });
    const { impl } = fakeFetch([new Response(huge, { status: 200 })]);
    const report = await postEnquiry(enquiry, options(impl, { maxResponseBytes: 64 * 1024 }));
    expect(report).toMatchObject({ result: { outcome: 'unavailable' }, failures: ['too-large'] });
  });

  it('does not follow a redirect', async () => {
    const { impl, calls } = fakeFetch([
      new Response(null, { status: 307, headers: { Location: 'https://evil.example/' } }),
    ]);
    const report = await postEnquiry(enquiry, options(impl));
    expect(report).toMatchObject({ result: { outcome: 'unavailable' }, failures: ['redirect'] });
    expect(calls).toHaveLength(1);
  });

  it('times out each attempt and still answers within the deadline when every attempt hangs', async () => {
    const { impl, calls } = fakeFetch(['hang']);
    const started = Date.now();
    const report = await postEnquiry(
      enquiry,
      options(impl, { attemptTimeoutMs: 100, deadlineMs: 350, backoffMs: [10], sleep: undefined }),
    );
    const elapsed = Date.now() - started;
    expect(report.result).toEqual({ outcome: 'unavailable' });
    expect(report.failures.every((failure) => failure === 'timeout')).toBe(true);
    expect(calls.length).toBeGreaterThanOrEqual(1);
    expect(calls.length).toBeLessThanOrEqual(4);
    expect(elapsed).toBeLessThan(350 + 150);
  });

  it('with the production timings, a hanging API gets 3 attempts and the call ends by 7.5 s', async () => {
    let clock = 0;
    const { impl, calls } = fakeFetch([
      () => {
        throw Object.assign(new DOMException('timeout', 'TimeoutError'));
      },
    ]);
    // Simulated time: each attempt "hangs" for its whole timeout.
    const timed = (async (url: URL | RequestInfo, init?: RequestInit) => {
      const remaining = 7500 - clock;
      clock += Math.min(2500, remaining);
      return impl(url, init);
    }) as typeof fetch;
    const report = await postEnquiry(
      enquiry,
      options(timed, {
        now: () => clock,
        sleep: async (ms) => {
          clock += ms;
        },
      }),
    );
    expect(report.result).toEqual({ outcome: 'unavailable' });
    expect(calls).toHaveLength(3);
    expect(clock).toBeLessThanOrEqual(7500);
  });
});

describe('Retry-After', () => {
  const NOW = Date.UTC(2025, 4, 20, 17, 30, 0);

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
  });

  it('reads the three HTTP-date forms, all in GMT', () => {
    expect(parseRetryAfter('Tue, 20 May 2025 17:32:00 GMT', NOW)).toBe(120_000);
    expect(parseRetryAfter('Tuesday, 20-May-25 17:32:00 GMT', NOW)).toBe(120_000);
    expect(parseRetryAfter('Tue May 20 17:32:00 2025', NOW)).toBe(120_000);
  });

  it.each([
    null,
    '',
    'soon',
    '-5',
    '1.5',
    '2e3',
    '120 s',
    'Tue, 99 Foo 2025 17:32:00 GMT',
    '2025-05-20T17:32:00Z',
  ])('ignores %p', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('ignores a date already past', () => {
    expect(parseRetryAfter('Tue, 20 May 2025 17:29:00 GMT', NOW)).toBeUndefined();
  });

  it('is put on the report, capped by maxRetryAfterMs (3 h unless told)', async () => {
    const once = async (header: string, extra: Partial<UpstreamOptions> = {}) =>
      (
        await postEnquiry(
          enquiry,
          options(fakeFetch([json(429, {}, { 'Retry-After': header })]).impl, extra),
        )
      ).retryAfterMs;
    expect(await once('120')).toBe(120_000);
    expect(await once('86400')).toBe(UPSTREAM_DEFAULTS.maxRetryAfterMs);
    expect(await once('86400', { maxRetryAfterMs: 3600_000 })).toBe(3600_000);
    expect(await once('mañana')).toBeUndefined();
  });

  it('is left off the report when no answer carried one', async () => {
    const { impl } = fakeFetch([json(503, {})]);
    expect(await postEnquiry(enquiry, options(impl))).not.toHaveProperty('retryAfterMs');
  });
});

describe('when the API asks to wait', () => {
  it('does not retry a 429 within the call', async () => {
    const { impl, calls } = fakeFetch([
      json(429, {}, { 'Retry-After': '120' }),
      json(200, { success: true }),
    ]);
    const report = await postEnquiry(enquiry, options(impl));
    expect(calls).toHaveLength(1);
    expect(report).toEqual({
      result: { outcome: 'unavailable' },
      attempts: 1,
      failures: ['http-429'],
      retryAfterMs: 120_000,
    });
  });

  it('does not retry a 429 without a Retry-After either', async () => {
    const { impl, calls } = fakeFetch([json(429, {}), json(200, { success: true })]);
    expect(await postEnquiry(enquiry, options(impl))).toEqual({
      result: { outcome: 'unavailable' },
      attempts: 1,
      failures: ['http-429'],
    });
    expect(calls).toHaveLength(1);
  });

  it('does not retry a 503 whose Retry-After is longer than the next wait', async () => {
    const { impl, calls } = fakeFetch([
      json(503, {}, { 'Retry-After': '30' }),
      json(200, { success: true }),
    ]);
    const report = await postEnquiry(enquiry, options(impl));
    expect(calls).toHaveLength(1);
    expect(report).toEqual({
      result: { outcome: 'unavailable' },
      attempts: 1,
      failures: ['http-503'],
      retryAfterMs: 30_000,
    });
  });

  it('does not retry a 503 whose Retry-After is longer than the time left', async () => {
    const { impl, calls } = fakeFetch([
      json(503, {}, { 'Retry-After': '3' }),
      json(200, { success: true }),
    ]);
    await postEnquiry(enquiry, options(impl, { backoffMs: [5000], deadlineMs: 2700 }));
    expect(calls).toHaveLength(1);
  });

  it('retries a 503 whose Retry-After fits in the next wait, after that wait', async () => {
    const waits: number[] = [];
    const { impl, calls } = fakeFetch([
      json(503, {}, { 'Retry-After': '1' }),
      json(200, { success: true }),
    ]);
    const report = await postEnquiry(
      enquiry,
      options(impl, { backoffMs: [1500], sleep: async (ms) => void waits.push(ms) }),
    );
    expect(calls).toHaveLength(2);
    expect(waits).toEqual([1500]);
    expect(report).toEqual({
      result: { outcome: 'delivered' },
      attempts: 2,
      failures: ['http-503'],
      retryAfterMs: 1000,
    });
  });

  it('retries a 503 with Retry-After: 0 as usual', async () => {
    const { impl, calls } = fakeFetch([
      json(503, {}, { 'Retry-After': '0' }),
      json(200, { success: true }),
    ]);
    expect((await postEnquiry(enquiry, options(impl))).result).toEqual({ outcome: 'delivered' });
    expect(calls).toHaveLength(2);
  });

  it('ignores a Retry-After on other answers', async () => {
    const { impl, calls } = fakeFetch([
      json(502, {}, { 'Retry-After': '600' }),
      json(200, { success: true }),
    ]);
    const report = await postEnquiry(enquiry, options(impl));
    expect(calls).toHaveLength(2);
    expect(report).not.toHaveProperty('retryAfterMs');
  });
});

describe('contact API client against real sockets on 127.0.0.1', () => {
  it('retries a refused connection 3 times, quickly, and gives up', async () => {
    const net = await import('node:net');
    // A port nobody listens on: bind, note it, close.
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const started = Date.now();
    const report = await postEnquiry(enquiry, {
      baseUrl: `http://127.0.0.1:${port}/api/`,
      siteKey: 'k',
      idempotencyKey: 'refused-1',
    });
    expect(report).toEqual({
      result: { outcome: 'unavailable' },
      attempts: 4,
      failures: ['network', 'network', 'network', 'network'],
    });
    expect(Date.now() - started).toBeLessThan(3000); // 200 + 400 + 800 ms of backoff
  });
});
