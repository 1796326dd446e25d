import { z } from 'zod';

/**
 * The public half of the env module: the NEXT_PUBLIC_* values, parsed so a typo in Vercel's settings fails the build
 * naming the variable instead of shipping a broken link. No secrets, so next.config.ts imports it for the CSP; client
 * islands never do: server components pass them what they need. Its zod helpers serve lib/env/server.ts too.
 */

export type Source = Record<string, string | undefined>;

// Vercel stores "unset" variables as empty strings: treat them as absent.
const blankAsUndefined = (value: unknown) =>
  typeof value === 'string' ? value.trim() || undefined : value;

export const httpUrl = z.url({
  protocol: /^https?$/,
  message: 'debe ser una URL http(s) completa',
});
export const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess(blankAsUndefined, schema.optional());
export const withDefault = (schema: z.ZodType<string>, fallback: string) =>
  z.preprocess(blankAsUndefined, schema.default(fallback));

/** An absolute http(s) URL, or a path on this site ("/gracias"). */
const link = z.union([
  httpUrl,
  z.string().regex(/^\/(?!\/)\S*$/, 'debe ser una URL http(s) o una ruta que empiece con /'),
]);

const publicSchema = z.object({
  // The site's public address (canonical URL, Open Graph); unset: Vercel's production domain, else localhost.
  NEXT_PUBLIC_SITE_URL: optional(httpUrl),
  // The floating chat button's target.
  NEXT_PUBLIC_WHATSAPP_URL: withDefault(httpUrl, 'https://wa.me/525512345678'),
  NEXT_PUBLIC_PRIVACY_NOTICE_URL: withDefault(link, '/aviso-de-privacidad'),
  // Where the browser goes after a confirmed enquiry.
  NEXT_PUBLIC_THANK_YOU_URL: withDefault(link, '/gracias'),
  NEXT_PUBLIC_GA_MEASUREMENT_ID: optional(
    z.string().regex(/^G-[A-Z0-9]+$/, 'debe tener la forma G-XXXXXXX'),
  ),
  NEXT_PUBLIC_GOOGLE_ADS_ID: optional(
    z.string().regex(/^AW-[0-9]+$/, 'debe tener la forma AW-123456789'),
  ),
  // Only the label, the part of the Ads "send_to" after the slash: with the Ads ID, sent on each confirmed enquiry.
  NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL: optional(
    z
      .string()
      .regex(
        /^[\w-]+$/,
        'debe ser solo la etiqueta de conversión (lo que va después de "AW-…/" en send_to)',
      ),
  ),
  // "1" sends the visitor's e-mail and phone with the Ads conversion (Google hashes them); anything else, nothing.
  NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS: optional(
    z.enum(['0', '1'], { message: 'debe ser 1 (activadas) o 0' }),
  ),
  NEXT_PUBLIC_META_PIXEL_ID: optional(
    z.string().regex(/^\d+$/, 'debe ser solo el número del píxel de Meta (dígitos)'),
  ),
  // The chat widget's script, https only.
  NEXT_PUBLIC_CHAT_WIDGET_SRC: optional(
    z.url({ protocol: /^https$/, message: 'debe ser una URL https' }),
  ),
  NEXT_PUBLIC_RECAPTCHA_SITE_KEY: optional(
    z.string().regex(/^[\w-]+$/, 'no parece una clave de reCAPTCHA'),
  ),
  // Set by Vercel itself; used only to derive a default site URL.
  VERCEL_PROJECT_PRODUCTION_URL: optional(z.string()),
});

export function parsePublicEnv(source: Source) {
  const result = publicSchema.safeParse(source);
  const lines = result.error?.issues.map(
    (issue) => `  - ${issue.path.join('.')}: ${issue.message}`,
  );
  if (!result.success) throw new Error(`Variables de entorno inválidas:\n${lines?.join('\n')}`);
  const env = result.data;
  const siteUrl =
    env.NEXT_PUBLIC_SITE_URL ??
    (env.VERCEL_PROJECT_PRODUCTION_URL
      ? `https://${env.VERCEL_PROJECT_PRODUCTION_URL}`
      : 'http://localhost:3000');
  return {
    siteUrl: siteUrl.replace(/\/+$/, ''),
    whatsappUrl: env.NEXT_PUBLIC_WHATSAPP_URL,
    privacyNoticeUrl: env.NEXT_PUBLIC_PRIVACY_NOTICE_URL,
    thankYouUrl: env.NEXT_PUBLIC_THANK_YOU_URL,
    gaMeasurementId: env.NEXT_PUBLIC_GA_MEASUREMENT_ID,
    googleAdsId: env.NEXT_PUBLIC_GOOGLE_ADS_ID,
    googleAdsConversionLabel: env.NEXT_PUBLIC_GOOGLE_ADS_CONVERSION_LABEL,
    googleAdsEnhancedConversions: env.NEXT_PUBLIC_GOOGLE_ADS_ENHANCED_CONVERSIONS === '1',
    metaPixelId: env.NEXT_PUBLIC_META_PIXEL_ID,
    chatWidgetSrc: env.NEXT_PUBLIC_CHAT_WIDGET_SRC,
    recaptchaSiteKey: env.NEXT_PUBLIC_RECAPTCHA_SITE_KEY,
  };
}

export const publicEnv = parsePublicEnv(process.env);

// This build's edition of the form (lib/proxy/stale-form.ts), made by next.config.ts and inlined by Next under its
// literal name (so not from the object above); empty where nothing was built.
export const formEdition: string =
  optional(z.string()).parse(process.env.CONTACT_FORM_EDITION) ?? '';
