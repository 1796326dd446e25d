import 'server-only';
import { clientKey, limitConfigOrDefaults } from '@/lib/abuse/client';
import { consume, heldLimiter, type LimitVerdict, type SharedLimiter } from '@/lib/abuse/limiter';

// The abuse limit on enquiries: CONTACT_RATE_LIMIT_MAX per client and window, counted where lib/abuse/limiter.ts says.
const held: { limiter?: SharedLimiter } = {};

/** One enquiry from this request's client, against the configured limit. Never throws because of configuration. */
export async function consumeEnquiry(requestHeaders: Pick<Headers, 'get'>): Promise<LimitVerdict> {
  const config = limitConfigOrDefaults();
  return consume(
    heldLimiter(held, 'contacto', 'el límite de solicitudes', config),
    clientKey(requestHeaders, config),
  );
}

/** Drops the shared limiter and its store client (tests, scripts), so nothing keeps the process alive. */
export function closeEnquiryLimiter(): void {
  held.limiter?.release?.();
  held.limiter = undefined;
}
