import { z } from 'zod';
import { optional } from './public';

/** REDIS_URL, shared by the abuse limit and the outbox. */
export const redisUrl = optional(z.url({ protocol: /^rediss?$/, message: 'debe ser una URL redis:// o rediss://' }));

export const REDIS_URL_FALLBACK =
  'se sigue como sin REDIS_URL: límite de solicitudes en memoria, bandeja de salida en archivos fuera de Vercel y ninguna en Vercel';
