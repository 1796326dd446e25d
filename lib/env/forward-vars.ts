import { z } from 'zod';
import { parseEach, type Fallbacks, type Parsed } from './parse-each';
import { httpUrl, optional, type Source } from './public';

/** Meta's Graph API, where the Conversions API lives; META_GRAPH_API_URL replaces it in tests. */
export const META_GRAPH_API_DEFAULT = 'https://graph.facebook.com';

const forwardShape = {
  LEAD_WEBHOOK_URL: optional(httpUrl),
  // Standard Webhooks' secret: `whsec_` and base64 (at least 24 bytes, as the spec recommends).
  LEAD_WEBHOOK_SECRET: optional(
    z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, 'debe empezar con whsec_ seguido de al menos 24 bytes en base64'),
  ),
  META_CAPI_ACCESS_TOKEN: optional(z.string().regex(/^[\w-]{20,1024}$/, 'no parece un token de acceso de Meta')),
  META_GRAPH_API_URL: optional(httpUrl),
  META_TEST_EVENT_CODE: optional(
    z.string().regex(/^\w{1,64}$/, 'debe ser el código de prueba de Meta, como TEST12345'),
  ),
  // The pixel's id is public (the browser's Pixel uses it too); the server needs it for the Conversions API.
  NEXT_PUBLIC_META_PIXEL_ID: optional(
    z.string().regex(/^\d{1,20}$/, 'debe ser solo el número del píxel de Meta (dígitos)'),
  ),
};

const fallbacks: Fallbacks<typeof forwardShape> = {
  LEAD_WEBHOOK_URL: 'webhook de prospectos desactivado',
  LEAD_WEBHOOK_SECRET: 'webhook de prospectos desactivado',
  META_CAPI_ACCESS_TOKEN: 'API de Conversiones de Meta desactivada',
  META_GRAPH_API_URL: `se usa ${META_GRAPH_API_DEFAULT}`,
  META_TEST_EVENT_CODE: 'los eventos van como reales, sin código de prueba',
  NEXT_PUBLIC_META_PIXEL_ID: 'API de Conversiones de Meta desactivada',
};

/** Where each confirmed lead is sent on, beside the contact API (lib/contact/lead/forward-workflow.ts). */
export type ForwardConfig = {
  webhook?: { url: string; secret: string };
  capi?: { pixelId: string; accessToken: string; graphUrl: string; testEventCode?: string };
};

export function parseForwardConfig(source: Source): Parsed<ForwardConfig> {
  const { env, problems } = parseEach(forwardShape, source, fallbacks);
  const config: ForwardConfig = {};
  const { LEAD_WEBHOOK_URL: url, LEAD_WEBHOOK_SECRET: secret } = env;
  if (url && secret) config.webhook = { url, secret };
  else if ((url || secret) && !problems.some((problem) => problem.variable.startsWith('LEAD_WEBHOOK_'))) {
    problems.push({
      variable: url ? 'LEAD_WEBHOOK_SECRET' : 'LEAD_WEBHOOK_URL',
      message: 'LEAD_WEBHOOK_URL y LEAD_WEBHOOK_SECRET van juntas: falta una',
      fallback: fallbacks.LEAD_WEBHOOK_URL ?? '',
    });
  }
  const { META_CAPI_ACCESS_TOKEN: accessToken, NEXT_PUBLIC_META_PIXEL_ID: pixelId } = env;
  if (accessToken && pixelId) {
    config.capi = {
      pixelId,
      accessToken,
      graphUrl: (env.META_GRAPH_API_URL ?? META_GRAPH_API_DEFAULT).replace(/\/+$/, ''),
      ...(env.META_TEST_EVENT_CODE ? { testEventCode: env.META_TEST_EVENT_CODE } : {}),
    };
  } else if (accessToken && !problems.some((problem) => problem.variable === 'NEXT_PUBLIC_META_PIXEL_ID')) {
    problems.push({
      variable: 'NEXT_PUBLIC_META_PIXEL_ID',
      message: 'META_CAPI_ACCESS_TOKEN necesita el número del píxel',
      fallback: fallbacks.META_CAPI_ACCESS_TOKEN ?? '',
    });
  }
  return { config, problems };
}
