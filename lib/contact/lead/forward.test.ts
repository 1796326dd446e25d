/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { parseForwardConfig } from '@/lib/env/server';
import { capiEvent, visitorOf, webhookBody, type Forward } from './forward';
import { GRAPH_API_VERSION, sendForward } from './forward-workflow';

// The send step is called as a plain function; the engine's client (ES modules Jest cannot load) is not used by it.
jest.mock('workflow/api', () => ({ start: jest.fn() }));
jest.mock('workflow/runtime', () => ({ getWorld: jest.fn() }));

const SECRET = `whsec_${Buffer.from('una-clave-de-prueba-de-32-bytes!').toString('base64')}`;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const forward: Forward = {
  key: '0b0c5f3e-7a51-4c1e-9a0f-2f7c1b9d8e61',
  enquiry: {
    name: 'Ana López',
    mail: ' Ana@Example.MX ',
    phone: '+5215512345678',
    reason: 'Quiero una página',
    captcha: '',
  },
  receivedAt: Date.UTC(2026, 10, 25, 18, 0, 0),
  source: {
    first: { gclid: 'abc', utm_source: 'google', at: Date.UTC(2026, 10, 23) },
    last: { fbclid: 'IwAR0x', at: Date.UTC(2026, 10, 25) },
  },
};

describe('the webhook body', () => {
  it('carries the enquiry, the phone in E.164 with a wa.me link, the key, when it was received and both touches', () => {
    const body = webhookBody(forward);
    expect(body).toMatchObject({
      type: 'lead.received',
      timestamp: '2026-11-25T18:00:00.000Z',
      data: {
        key: forward.key,
        receivedAt: '2026-11-25T18:00:00.000Z',
        enquiry: {
          name: 'Ana López',
          mail: ' Ana@Example.MX ',
          phone: '+5215512345678',
          reason: 'Quiero una página',
        },
        phone: { e164: '+525512345678', whatsapp: 'https://wa.me/525512345678' },
        source: { first: { gclid: 'abc', utm_source: 'google' }, last: { fbclid: 'IwAR0x' } },
      },
    });
    // The captcha token is the API's business, not the agency's tools'.
    expect(JSON.stringify(body)).not.toContain('captcha');
  });
});

describe("the webhook body's experiment", () => {
  it('carries every experiment and variant the page showed under source, the first also as `experiment`', () => {
    const experiments = [
      { name: 'titular-verano', variant: 'b' },
      { name: 'boton-precio', variant: 'control' },
    ];
    const body = webhookBody({ ...forward, source: { ...forward.source, experiments } });
    expect(body.data.source).toEqual({
      first: forward.source?.first,
      last: forward.source?.last,
      experiment: { name: 'titular-verano', variant: 'b' },
      experiments,
    });
  });

  it('reads a run kept before leads named several (one `experiment`) the same way', () => {
    const kept = {
      ...forward,
      source: { experiment: { name: 'titular-verano', variant: 'b' } } as never,
    };
    expect(webhookBody(kept).data.source).toMatchObject({
      experiment: { name: 'titular-verano', variant: 'b' },
      experiments: [{ name: 'titular-verano', variant: 'b' }],
    });
  });

  it('says null for a lead that saw none, kept before experiments, or whose names do not hold', () => {
    expect(webhookBody(forward).data.source).toMatchObject({ experiment: null, experiments: [] });
    expect(webhookBody({ ...forward, source: undefined }).data.source).toEqual({
      first: null,
      last: null,
      experiment: null,
      experiments: [],
    });
    const odd = {
      ...forward,
      source: { experiments: [{ name: 'x', variant: 'b", "admin": true' }] },
    };
    expect(webhookBody(odd).data.source).toMatchObject({ experiment: null, experiments: [] });
  });
});

describe("Meta's Lead event", () => {
  it('has the browser event id, hashes the e-mail and the phone, and builds fbc from the fbclid', () => {
    const event = capiEvent({
      ...forward,
      visitor: {
        ip: '203.0.113.7',
        userAgent: 'Mozilla/5.0',
        fbp: 'fb.1.1700000000000.123',
        page: 'https://agencia.mx/',
      },
    });
    expect(event).toEqual({
      event_name: 'Lead',
      event_time: forward.receivedAt / 1000,
      event_id: forward.key,
      action_source: 'website',
      event_source_url: 'https://agencia.mx/',
      user_data: {
        em: [sha256('ana@example.mx')],
        ph: [sha256('525512345678')],
        fbp: 'fb.1.1700000000000.123',
        fbc: `fb.1.${Date.UTC(2026, 10, 25)}.IwAR0x`,
        client_ip_address: '203.0.113.7',
        client_user_agent: 'Mozilla/5.0',
      },
    });
  });

  it('prefers the _fbc cookie, and sends no plain e-mail or phone anywhere', () => {
    const event = capiEvent({ ...forward, visitor: { fbc: 'fb.1.1700000000000.fromcookie' } });
    expect(event.user_data).toMatchObject({ fbc: 'fb.1.1700000000000.fromcookie' });
    expect(JSON.stringify(event)).not.toMatch(/example|5512345678"/i);
  });
});

describe("the visitor's side", () => {
  it('keeps each value only when it is bounded and well-formed', () => {
    expect(
      visitorOf({
        ip: '203.0.113.7',
        userAgent: 'x'.repeat(513),
        fbp: 'fb.1.17.<script>',
        fbc: 'fb.1.1700000000000.ok-1',
        referer: 'https://agencia.mx/?gclid=abc',
        siteOrigin: 'https://agencia.mx',
      }),
    ).toEqual({ ip: '203.0.113.7', fbc: 'fb.1.1700000000000.ok-1', page: 'https://agencia.mx/' });
    expect(
      visitorOf({
        userAgent: 'a\nb',
        referer: 'https://otro.example/',
        siteOrigin: 'https://agencia.mx',
      }),
    ).toEqual({});
  });
});

describe('the forwarding settings', () => {
  it('turn each target on only when complete, and name what is missing', () => {
    expect(
      parseForwardConfig({
        LEAD_WEBHOOK_URL: 'https://hooks.zapier.com/x',
        LEAD_WEBHOOK_SECRET: SECRET,
      }).config.webhook,
    ).toEqual({ url: 'https://hooks.zapier.com/x', secret: SECRET });
    const half = parseForwardConfig({
      LEAD_WEBHOOK_URL: 'https://hooks.zapier.com/x',
      META_CAPI_ACCESS_TOKEN: 'EAAB'.repeat(10),
    });
    expect(half.config).toEqual({});
    expect(half.problems.map((problem) => problem.variable)).toEqual([
      'LEAD_WEBHOOK_SECRET',
      'NEXT_PUBLIC_META_PIXEL_ID',
    ]);
    expect(parseForwardConfig({ LEAD_WEBHOOK_SECRET: 'no-es-whsec' }).problems[0]).toMatchObject({
      variable: 'LEAD_WEBHOOK_SECRET',
      message: expect.stringContaining('whsec_'),
    });
    expect(
      parseForwardConfig({
        META_CAPI_ACCESS_TOKEN: 'EAAB'.repeat(10),
        NEXT_PUBLIC_META_PIXEL_ID: '123456789012345',
        META_GRAPH_API_URL: 'http://127.0.0.1:9/graph/',
      }).config.capi,
    ).toEqual({
      pixelId: '123456789012345',
      accessToken: 'EAAB'.repeat(10),
      graphUrl: 'http://127.0.0.1:9/graph',
    });
  });
});

describe('one send', () => {
  type Received = { path: string; headers: http.IncomingHttpHeaders; body: string };
  const received: Received[] = [];
  let status = 200;
  let server: http.Server;
  let base = '';
  const saved = { ...process.env };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
        res.writeHead(status, status === 503 ? { 'Retry-After': '7' } : {}).end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    received.length = 0;
    status = 200;
    jest.resetModules();
  });
  afterEach(() => {
    process.env = { ...saved };
  });

  /** sendForward with these settings (the env module reads them once per module instance). */
  async function send(env: Record<string, string>, target: 'webhook' | 'capi') {
    process.env = { ...saved, ...env };
    const steps: typeof import('./forward-workflow') = await import('./forward-workflow');
    return steps.sendForward(forward, target);
  }

  it("signs the webhook as Standard Webhooks says: the package's own verifier accepts it", async () => {
    await expect(
      send({ LEAD_WEBHOOK_URL: `${base}/hook`, LEAD_WEBHOOK_SECRET: SECRET }, 'webhook'),
    ).resolves.toEqual({
      outcome: 'delivered',
    });
    const [hit] = received;
    expect(hit?.headers['webhook-id']).toBe(forward.key);
    const verified = new Webhook(SECRET).verify(hit?.body ?? '', {
      'webhook-id': String(hit?.headers['webhook-id']),
      'webhook-timestamp': String(hit?.headers['webhook-timestamp']),
      'webhook-signature': String(hit?.headers['webhook-signature']),
    });
    expect(verified).toMatchObject({ type: 'lead.received', data: { key: forward.key } });
    // Another secret does not verify it.
    expect(() =>
      new Webhook(
        `whsec_${Buffer.from('otra-clave-distinta-de-32-bytes!').toString('base64')}`,
      ).verify(hit?.body ?? '', hit?.headers as Record<string, string>),
    ).toThrow();
  });

  it('tells a receiver that is down (try again, after its Retry-After) from one that refuses (stop)', async () => {
    const env = { LEAD_WEBHOOK_URL: `${base}/hook`, LEAD_WEBHOOK_SECRET: SECRET };
    status = 503;
    await expect(send(env, 'webhook')).resolves.toEqual({
      outcome: 'unavailable',
      failures: 'http-503',
      retryAfterMs: 7000,
    });
    status = 410;
    await expect(send(env, 'webhook')).resolves.toEqual({
      outcome: 'refused',
      refusal: 'HTTP 410',
    });
    status = 429;
    await expect(send(env, 'webhook')).resolves.toMatchObject({
      outcome: 'unavailable',
      failures: 'http-429',
    });
    await expect(
      send(
        { LEAD_WEBHOOK_URL: 'http://127.0.0.1:9/closed', LEAD_WEBHOOK_SECRET: SECRET },
        'webhook',
      ),
    ).resolves.toMatchObject({ outcome: 'unavailable' });
  });

  it("posts Meta's event to the pixel's events with the token and the test code", async () => {
    const env = {
      META_CAPI_ACCESS_TOKEN: 'EAAB'.repeat(10),
      NEXT_PUBLIC_META_PIXEL_ID: '123456789012345',
      META_GRAPH_API_URL: `${base}/graph`,
      META_TEST_EVENT_CODE: 'TEST123',
    };
    await expect(send(env, 'capi')).resolves.toEqual({ outcome: 'delivered' });
    expect(received[0]?.path).toBe(`/graph/${GRAPH_API_VERSION}/123456789012345/events`);
    expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({
      access_token: 'EAAB'.repeat(10),
      test_event_code: 'TEST123',
      data: [{ event_name: 'Lead', event_id: forward.key }],
    });
  });

  it('counts a target turned off since as sent, and sends nothing', async () => {
    await expect(sendForward(forward, 'webhook')).resolves.toEqual({ outcome: 'delivered' });
    expect(received).toHaveLength(0);
  });
});
