/**
 * @jest-environment node
 */
import {
  PHASE_DEVELOPMENT_SERVER,
  PHASE_PRODUCTION_BUILD,
  PHASE_PRODUCTION_SERVER,
} from 'next/constants';
import nextConfig from '@/next.config';
import {
  assertServerEnv,
  parseContactConfig,
  parseDeliveryConfig,
  parseRateLimitConfig,
} from './server';

describe('contact API configuration', () => {
  it('uses the local inbox when no API is configured (a fresh clone)', () => {
    expect(parseContactConfig({})).toEqual({ mode: 'inbox', dir: '.inbox' });
    expect(parseContactConfig({ CONTACT_API_BASE_URL: '', CONTACT_SITE_KEY: '' })).toEqual({
      mode: 'inbox',
      dir: '.inbox',
    });
  });

  it('uses the API with its site key, keeping the final slash of the base', () => {
    expect(
      parseContactConfig({
        CONTACT_API_BASE_URL: 'https://api.example.mx/api/',
        CONTACT_SITE_KEY: 'k1',
      }),
    ).toEqual({
      mode: 'api',
      baseUrl: 'https://api.example.mx/api/',
      siteKey: 'k1',
    });
    expect(
      parseContactConfig({
        CONTACT_API_BASE_URL: 'https://api.example.mx/api',
        CONTACT_SITE_KEY: 'k1',
      }),
    ).toMatchObject({
      baseUrl: 'https://api.example.mx/api/',
    });
  });

  it('is a configuration error on Vercel without an API, never a silent inbox', () => {
    const config = parseContactConfig({ VERCEL: '1' });
    expect(config.mode).toBe('misconfigured');
    expect(config.mode === 'misconfigured' && config.problem).toMatch(/CONTACT_API_BASE_URL/);
  });

  it('is a configuration error when the site key is missing or the URL is malformed', () => {
    expect(parseContactConfig({ CONTACT_API_BASE_URL: 'https://api.example.mx/api/' }).mode).toBe(
      'misconfigured',
    );
    const malformed = parseContactConfig({
      CONTACT_API_BASE_URL: 'api.example.mx',
      CONTACT_SITE_KEY: 'k',
    });
    expect(malformed.mode === 'misconfigured' && malformed.problem).toMatch(/CONTACT_API_BASE_URL/);
  });
});

describe("the lead workflow's environment", () => {
  const outbox = (source: Record<string, string>) => parseDeliveryConfig(source).config;

  it('reads the backoff list, defaulting to 1 min, 5 min, 15 min, 1 h, 3 h', () => {
    expect(outbox({}).backoffSeconds).toEqual([60, 300, 900, 3600, 10800]);
    expect(outbox({ CONTACT_OUTBOX_BACKOFF_SECONDS: '1, 2,3' }).backoffSeconds).toEqual([1, 2, 3]);
    expect(parseDeliveryConfig({}).problems).toEqual([]);
  });

  it('turns alerts on only with all three variables, and says which are missing otherwise', () => {
    const all = {
      ALERT_SMTP_URL: 'smtps://u:p@smtp.example.mx:465',
      ALERT_EMAIL_TO: 'ventas@a.mx',
      ALERT_EMAIL_FROM: 'avisos@a.mx',
    };
    expect(outbox(all).alert).toEqual({
      smtpUrl: all.ALERT_SMTP_URL,
      to: 'ventas@a.mx',
      from: 'avisos@a.mx',
    });
    expect(
      outbox({
        ...all,
        ALERT_EMAIL_TO: 'a@a.mx, Ventas <b@b.mx>',
        ALERT_EMAIL_FROM: 'Formulario <avisos@a.mx>',
      }).alert,
    ).toBeDefined();
    const partial = outbox({ ALERT_SMTP_URL: all.ALERT_SMTP_URL });
    expect(partial.alert).toBeUndefined();
    expect(partial.alertProblem).toMatch(/ALERT_EMAIL_TO/);
  });
});

describe('a malformed optional variable turns off only its own feature', () => {
  const alerts = {
    ALERT_SMTP_URL: 'smtp://u:p@smtp.example.mx:587',
    ALERT_EMAIL_TO: 'ventas@a.mx',
    ALERT_EMAIL_FROM: 'avisos@a.mx',
  };

  it('ALERT_SMTP_URL without smtp://: no alerts, the waits still there, the problem named', () => {
    const { config, problems } = parseDeliveryConfig({ ...alerts, ALERT_SMTP_URL: 'foo' });
    expect(config.alert).toBeUndefined();
    expect(config.alertProblem).toBeUndefined();
    expect(config.backoffSeconds).toEqual([60, 300, 900, 3600, 10800]);
    expect(problems).toEqual([
      {
        variable: 'ALERT_SMTP_URL',
        message: 'debe ser una URL smtp:// o smtps://',
        fallback: 'avisos por correo desactivados',
      },
    ]);
  });

  it('a malformed alert address turns alerts off too', () => {
    expect(
      parseDeliveryConfig({ ...alerts, ALERT_EMAIL_TO: 'ventas.agencia.mx' }).problems.map(
        (p) => p.variable,
      ),
    ).toEqual(['ALERT_EMAIL_TO']);
    expect(
      parseDeliveryConfig({ ...alerts, ALERT_EMAIL_FROM: 'Formulario' }).config.alert,
    ).toBeUndefined();
  });

  it('a bad backoff list: the default waits, and says so', () => {
    for (const value of ['abc', '60,,x', '0,60']) {
      const { config, problems } = parseDeliveryConfig({ CONTACT_OUTBOX_BACKOFF_SECONDS: value });
      expect(config.backoffSeconds).toEqual([60, 300, 900, 3600, 10800]);
      expect(problems).toEqual([
        expect.objectContaining({
          variable: 'CONTACT_OUTBOX_BACKOFF_SECONDS',
          fallback: expect.stringContaining('60, 300'),
        }),
      ]);
    }
  });

  it('a bad REDIS_URL: as without Redis (the limit in memory)', () => {
    const limit = parseRateLimitConfig({ REDIS_URL: 'redis.example:6379' });
    expect(limit.config.redisUrl).toBeUndefined();
    expect(limit.problems.map((p) => p.variable)).toEqual(['REDIS_URL']);
  });

  it('a bad abuse limit: the defaults, 5 per 600 s', () => {
    const { config, problems } = parseRateLimitConfig({
      CONTACT_RATE_LIMIT_MAX: 'cinco',
      CONTACT_RATE_LIMIT_WINDOW_SECONDS: '-1',
    });
    expect(config).toMatchObject({ max: 5, windowSeconds: 600 });
    expect(problems.map((p) => [p.variable, p.message])).toEqual([
      ['CONTACT_RATE_LIMIT_MAX', 'debe ser un número entero mayor que cero'],
      ['CONTACT_RATE_LIMIT_WINDOW_SECONDS', 'debe ser un número entero mayor que cero'],
    ]);
    expect(
      parseRateLimitConfig({
        CONTACT_RATE_LIMIT_MAX: ' 12 ',
        CONTACT_RATE_LIMIT_WINDOW_SECONDS: ' ',
      }),
    ).toEqual({
      config: {
        max: 12,
        windowSeconds: 600,
        redisUrl: undefined,
        trustedProxies: 0,
        onVercel: false,
      },
      problems: [],
    });
  });

  it('TRUST_PROXY_HEADERS counts the proxies of yours in front of the server, 0 to 10; empty is none', () => {
    const proxies = (value?: string) =>
      parseRateLimitConfig({ TRUST_PROXY_HEADERS: value }).config.trustedProxies;
    expect([undefined, '', ' ', '0', '1', ' 2 ', '10'].map(proxies)).toEqual([
      0, 0, 0, 0, 1, 2, 10,
    ]);
    expect(parseRateLimitConfig({ TRUST_PROXY_HEADERS: '1' }).problems).toEqual([]);
  });

  it('a malformed TRUST_PROXY_HEADERS (abc, -1, 11, true, 1.5): no proxy is trusted, and it says so', () => {
    for (const value of ['abc', '-1', '11', 'true', '1.5', '0x1']) {
      const { config, problems } = parseRateLimitConfig({ TRUST_PROXY_HEADERS: value });
      expect(config.trustedProxies).toBe(0);
      expect(problems).toEqual([
        {
          variable: 'TRUST_PROXY_HEADERS',
          message:
            'debe ser un número entero de 0 a 10: cuántos proxies propios hay delante del servidor',
          fallback: 'no se confía en ningún proxy (en Vercel se usa siempre la cabecera de Vercel)',
        },
      ]);
    }
    expect(() => assertServerEnv({ TRUST_PROXY_HEADERS: '11' })).toThrow(
      /TRUST_PROXY_HEADERS: debe ser un número entero de 0 a 10/,
    );
  });

  it('knows when it runs on Vercel, whose own client header it then reads', () => {
    expect(parseRateLimitConfig({ VERCEL: '1' }).config).toMatchObject({
      onVercel: true,
      trustedProxies: 0,
    });
    expect(parseRateLimitConfig({}).config.onVercel).toBe(false);
  });

  // A self-hosted server started with `vercel env pull`'s variables seals its engine (choose-world.ts): it is not on
  // Vercel, so x-vercel-forwarded-for is whatever the client wrote and must not name the client.
  it('is not fooled by VERCEL=1 on a server of ours, whose engine is sealed', () => {
    const ours = {
      VERCEL: '1',
      WORKFLOW_TARGET_WORLD: '/srv/sitio/lib/engine/sealed-world.mjs',
      ENGINE_WORLD: 'local',
    };
    expect(parseRateLimitConfig(ours).config.onVercel).toBe(false);
  });
});

describe('the build check of the server variables (next build)', () => {
  it('passes with no variables at all (a fresh clone), and with a full configuration', () => {
    expect(() => assertServerEnv({})).not.toThrow();
    expect(() => assertServerEnv({ VERCEL: '1' })).not.toThrow();
    expect(() =>
      assertServerEnv({
        CONTACT_API_BASE_URL: 'http://127.0.0.1:3199/api/',
        CONTACT_SITE_KEY: 'k',
        CONTACT_OUTBOX_BACKOFF_SECONDS: '1',
        ALERT_SMTP_URL: 'smtp://u:p@127.0.0.1:3196',
        ALERT_EMAIL_TO: 'ventas@agencia.e2e.test',
        ALERT_EMAIL_FROM: 'Formulario e2e <avisos@agencia.e2e.test>',
        REDIS_URL: 'rediss://u:p@redis.example:6380',
        CONTACT_RATE_LIMIT_MAX: '1000',
        TRUST_PROXY_HEADERS: '1',
      }),
    ).not.toThrow();
  });

  it('fails naming a malformed contact API, or a base URL without its site key', () => {
    expect(() =>
      assertServerEnv({ CONTACT_API_BASE_URL: 'not-a-url', CONTACT_SITE_KEY: 'k' }),
    ).toThrow(/CONTACT_API_BASE_URL: debe ser una URL http\(s\) completa/);
    expect(() => assertServerEnv({ CONTACT_API_BASE_URL: 'https://api.example.mx/api/' })).toThrow(
      /CONTACT_SITE_KEY: está vacía, y es obligatoria cuando CONTACT_API_BASE_URL está definida/,
    );
  });

  it('fails naming every malformed optional variable once, in Spanish', () => {
    let message = '';
    try {
      assertServerEnv({
        ALERT_SMTP_URL: 'foo',
        CONTACT_OUTBOX_BACKOFF_SECONDS: 'abc',
        REDIS_URL: 'nope',
        CONTACT_RATE_LIMIT_MAX: '0',
      });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^Variables de entorno del servidor inválidas:/);
    for (const variable of [
      'ALERT_SMTP_URL',
      'CONTACT_OUTBOX_BACKOFF_SECONDS',
      'REDIS_URL',
      'CONTACT_RATE_LIMIT_MAX',
    ]) {
      expect(message.split(`- ${variable}:`)).toHaveLength(2);
    }
    expect(message).not.toMatch(/Invalid|expected/);
  });
});

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
    await expect(nextConfig(PHASE_PRODUCTION_BUILD, { defaultConfig: {} })).rejects.toThrow(
      /CONTACT_SITE_KEY/,
    );
  });

  it('builds with no contact API at all', async () => {
    delete process.env.CONTACT_API_BASE_URL;
    delete process.env.CONTACT_SITE_KEY;
    await expect(nextConfig(PHASE_PRODUCTION_BUILD, { defaultConfig: {} })).resolves.toBeDefined();
  });

  it('lets `next start` and `next dev` run with it: the server falls back and reports it at start-up', async () => {
    process.env.ALERT_SMTP_URL = 'foo';
    await expect(nextConfig(PHASE_PRODUCTION_SERVER, { defaultConfig: {} })).resolves.toBeDefined();
    await expect(
      nextConfig(PHASE_DEVELOPMENT_SERVER, { defaultConfig: {} }),
    ).resolves.toBeDefined();
  });

  it('sends raster pictures as AVIF or WebP, at the widths the pictures are drawn at', async () => {
    const { images } = await nextConfig(PHASE_PRODUCTION_SERVER, { defaultConfig: {} });
    expect(images?.formats).toEqual(['image/avif', 'image/webp']);
    expect(images?.deviceSizes).toContain(700);
    expect(images?.imageSizes).toContain(224);
    expect(images?.unoptimized).toBeUndefined();
  });
});
