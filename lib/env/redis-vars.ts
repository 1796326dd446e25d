import { z } from 'zod';
import { optional } from './public';

/** REDIS_URL: the abuse limit's shared store. */
export const redisUrl = optional(z.url({ protocol: /^rediss?$/, message: 'debe ser una URL redis:// o rediss://' }));

export const REDIS_URL_FALLBACK = 'se sigue como sin REDIS_URL: límite de solicitudes en memoria';
