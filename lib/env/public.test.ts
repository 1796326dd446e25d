import { parsePublicEnv } from './public';

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
      googleAdsEnhancedConversions: false,
      metaPixelId: undefined,
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
      NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: '1',
      NEXT_PUBLIC_META_PIXEL_ID: '123456789012345',
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
      googleAdsEnhancedConversions: true,
      metaPixelId: '123456789012345',
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
    expect(() =>
      parsePublicEnv({ NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: 'AW-123456789/AbC-D_efG-h12' }),
    ).toThrow(/NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL/);
  });

  it('takes only the digits of a Meta Pixel ID, and says so in Spanish', () => {
    expect(() => parsePublicEnv({ NEXT_PUBLIC_META_PIXEL_ID: 'fb-123456789012345' })).toThrow(
      /NEXT_PUBLIC_META_PIXEL_ID: debe ser solo el número del píxel de Meta/,
    );
    expect(parsePublicEnv({ NEXT_PUBLIC_META_PIXEL_ID: ' 123456789012345 ' }).metaPixelId).toBe(
      '123456789012345',
    );
  });

  it('turns enhanced conversions on with 1 only; 0 or empty is off, anything else a mistake', () => {
    expect(
      parsePublicEnv({ NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: '1' })
        .googleAdsEnhancedConversions,
    ).toBe(true);
    expect(
      parsePublicEnv({ NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: '0' })
        .googleAdsEnhancedConversions,
    ).toBe(false);
    expect(
      parsePublicEnv({ NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: '' })
        .googleAdsEnhancedConversions,
    ).toBe(false);
    expect(() => parsePublicEnv({ NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: 'true' })).toThrow(
      /NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: debe ser 1/,
    );
  });

  it('rejects protocol-relative paths that would leave the site', () => {
    expect(() => parsePublicEnv({ NEXT_PUBLIC_THANK_YOU_URL: '//evil.example' })).toThrow(
      /NEXT_PUBLIC_THANK_YOU_URL/,
    );
  });
});
