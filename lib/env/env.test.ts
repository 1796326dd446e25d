import { parsePublicEnv } from './public';
import { parseContactConfig, parseOutboxConfig } from './server';

describe('public environment', () => {
  it('has working defaults with no variables at all (a fresh clone)', () => {
    expect(parsePublicEnv({})).toEqual({
      siteUrl: 'http://localhost:3000',
      whatsappUrl: 'https://wa.me/525512345678',
      privacyNoticeUrl: '/aviso-de-privacidad',
      thankYouUrl: '/gracias',
      gaMeasurementId: undefined,
      googleAdsId: undefined,
      googleAdsConversionLabel: undefined,
      chatWidgetSrc: undefined,
      recaptchaSiteKey: undefined,
    });
  });

  it('treats empty strings, as Vercel stores them, like unset variables', () => {
    const env = parsePublicEnv({
      NEXT_PUBLIC_WHATSAPP_URL: '',
      NEXT_PUBLIC_GA_MEASUREMENT_ID: '  ',
      NEXT_PUBLIC_CHAT_WIDGET_SRC: '',
    });
    expect(env.whatsappUrl).toBe('https://wa.me/525512345678');
    expect(env.gaMeasurementId).toBeUndefined();
    expect(env.chatWidgetSrc).toBeUndefined();
  });

  it('reads every configured value', () => {
    const env = parsePublicEnv({
      NEXT_PUBLIC_SITE_URL: 'https://www.example.mx/',
      NEXT_PUBLIC_WHATSAPP_URL: 'https://wa.me/5215511112222',
      NEXT_PUBLIC_PRIVACY_NOTICE_URL: 'https://www.example.mx/privacidad',
      NEXT_PUBLIC_THANK_YOU_URL: 'https://www.example.mx/gracias',
      NEXT_PUBLIC_GA_MEASUREMENT_ID: 'G-ABC123',
      NEXT_PUBLIC_GOOGLE_ADS_ID: 'AW-123456789',
      NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: 'AbC-D_efG-h12',
      NEXT_PUBLIC_CHAT_WIDGET_SRC: 'https://chat.example.com/widget.js',
    });
    expect(env).toEqual({
      siteUrl: 'https://www.example.mx',
      whatsappUrl: 'https://wa.me/5215511112222',
      privacyNoticeUrl: 'https://www.example.mx/privacidad',
      thankYouUrl: 'https://www.example.mx/gracias',
      gaMeasurementId: 'G-ABC123',
      googleAdsId: 'AW-123456789',
      googleAdsConversionLabel: 'AbC-D_efG-h12',
      chatWidgetSrc: 'https://chat.example.com/widget.js',
      recaptchaSiteKey: undefined,
    });
  });

  it("derives the site URL from Vercel's production domain when none is set", () => {
    expect(parsePublicEnv({ VERCEL_PROJECT_PRODUCTION_URL: 'agencia.vercel.app' }).siteUrl).toBe(
      'https://agencia.vercel.app',
    );
  });

  it('fails with the name of every malformed variable', () => {
    expect(() =>
      parsePublicEnv({
        NEXT_PUBLIC_WHATSAPP_URL: 'wa.me/123',
        NEXT_PUBLIC_GA_MEASUREMENT_ID: 'UA-1234',
        NEXT_PUBLIC_CHAT_WIDGET_SRC: 'http://chat.example.com/widget.js',
        NEXT_PUBLIC_PRIVACY_NOTICE_URL: 'javascript:alert(1)',
      }),
    ).toThrow(
      /NEXT_PUBLIC_WHATSAPP_URL[\s\S]*NEXT_PUBLIC_PRIVACY_NOTICE_URL[\s\S]*NEXT_PUBLIC_GA_MEASUREMENT_ID[\s\S]*NEXT_PUBLIC_CHAT_WIDGET_SRC/,
    );
  });

  it('takes only the label of the Ads conversion, not the whole send_to', () => {
    expect(() => parsePublicEnv({ NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: 'AW-123456789/AbC-D_efG-h12' })).toThrow(
      /NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL/,
    );
  });

  it('rejects protocol-relative paths that would leave the site', () => {
    expect(() => parsePublicEnv({ NEXT_PUBLIC_THANK_YOU_URL: '//evil.example' })).toThrow(/NEXT_PUBLIC_THANK_YOU_URL/);
  });
});

describe('contact API configuration', () => {
  it('uses the local inbox when no API is configured (a fresh clone)', () => {
    expect(parseContactConfig({})).toEqual({ mode: 'inbox', dir: '.inbox' });
    expect(parseContactConfig({ CONTACT_API_BASE_URL: '', CONTACT_SITE_KEY: '' })).toEqual({
      mode: 'inbox',
      dir: '.inbox',
    });
  });

  it('uses the API with its site key, keeping the final slash of the base', () => {
    expect(parseContactConfig({ CONTACT_API_BASE_URL: 'https://api.example.mx/api/', CONTACT_SITE_KEY: 'k1' })).toEqual({
      mode: 'api',
      baseUrl: 'https://api.example.mx/api/',
      siteKey: 'k1',
    });
    expect(parseContactConfig({ CONTACT_API_BASE_URL: 'https://api.example.mx/api', CONTACT_SITE_KEY: 'k1' })).toMatchObject({
      baseUrl: 'https://api.example.mx/api/',
    });
  });

  it('is a configuration error on Vercel without an API, never a silent inbox', () => {
    const config = parseContactConfig({ VERCEL: '1' });
    expect(config.mode).toBe('misconfigured');
    expect(config.mode === 'misconfigured' && config.problem).toMatch(/CONTACT_API_BASE_URL/);
  });

  it('is a configuration error when the site key is missing or the URL is malformed', () => {
    expect(parseContactConfig({ CONTACT_API_BASE_URL: 'https://api.example.mx/api/' }).mode).toBe('misconfigured');
    const malformed = parseContactConfig({ CONTACT_API_BASE_URL: 'api.example.mx', CONTACT_SITE_KEY: 'k' });
    expect(malformed.mode === 'misconfigured' && malformed.problem).toMatch(/CONTACT_API_BASE_URL/);
  });
});

describe('outbox environment', () => {
  it('keeps the outbox in files off Vercel, in Redis when REDIS_URL is set, nowhere on Vercel without Redis or when off', () => {
    expect(parseOutboxConfig({}).store).toEqual({ kind: 'files', dir: '.inbox' });
    expect(parseOutboxConfig({ REDIS_URL: 'rediss://u:p@redis.example:6380', VERCEL: '1' }).store).toEqual({
      kind: 'redis',
      redisUrl: 'rediss://u:p@redis.example:6380',
    });
    expect(parseOutboxConfig({ VERCEL: '1' }).store).toEqual({ kind: 'none', why: 'vercel-without-redis' });
    expect(parseOutboxConfig({ CONTACT_OUTBOX: 'off', REDIS_URL: 'redis://127.0.0.1:6379' }).store).toEqual({ kind: 'none', why: 'off' });
  });

  it('reads the backoff list, defaulting to 1 min, 5 min, 15 min, 1 h, 3 h', () => {
    expect(parseOutboxConfig({}).backoffSeconds).toEqual([60, 300, 900, 3600, 10800]);
    expect(parseOutboxConfig({ CONTACT_OUTBOX_BACKOFF_SECONDS: '1, 2,3' }).backoffSeconds).toEqual([1, 2, 3]);
    expect(() => parseOutboxConfig({ CONTACT_OUTBOX_BACKOFF_SECONDS: '60,,x' })).toThrow(/CONTACT_OUTBOX_BACKOFF_SECONDS/);
    expect(() => parseOutboxConfig({ CONTACT_OUTBOX: 'siempre' })).toThrow(/CONTACT_OUTBOX/);
  });

  it('turns alerts on only with all three variables, and says which are missing otherwise', () => {
    const all = { ALERT_SMTP_URL: 'smtps://u:p@smtp.example.mx:465', ALERT_EMAIL_TO: 'ventas@a.mx', ALERT_EMAIL_FROM: 'avisos@a.mx' };
    expect(parseOutboxConfig(all).alert).toEqual({ smtpUrl: all.ALERT_SMTP_URL, to: 'ventas@a.mx', from: 'avisos@a.mx' });
    const partial = parseOutboxConfig({ ALERT_SMTP_URL: all.ALERT_SMTP_URL });
    expect(partial.alert).toBeUndefined();
    expect(partial.alertProblem).toMatch(/ALERT_EMAIL_TO/);
    expect(() => parseOutboxConfig({ ALERT_SMTP_URL: 'http://x' })).toThrow(/ALERT_SMTP_URL/);
  });
});
