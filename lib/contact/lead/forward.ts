import { createHash } from 'node:crypto';
import type { ForwardConfig } from '@/lib/env/server-schema';
import { dialable } from '../phone';
import type { ContactEnquiry } from '../schema';
import type { LeadSource } from '@/lib/source';

/**
 * A confirmed lead as it is sent on, beside the contact API: to the agency's
 * webhook (its CRM, a sheet, Zapier or Make) and to Meta's Conversions API.
 * Serialisable: the forwarding workflow (forward-workflow.ts) carries it, and
 * forgets it once sent. No secret: the steps read those where they run.
 */
export type Forward = {
  /** The lead's Idempotency-Key: the webhook's `webhook-id` and Meta's `event_id`, the browser's `eventID` too. */
  key: string;
  enquiry: ContactEnquiry;
  /** ms since the epoch. */
  receivedAt: number;
  source?: LeadSource;
  /** Only when Meta's Conversions API is configured: what it matches the visitor with. */
  visitor?: Visitor;
};

/** What Meta asks of a browser event it cannot see: every value bounded, each as the request gave it. */
export type Visitor = { ip?: string; userAgent?: string; fbp?: string; fbc?: string; page?: string };

export type Target = 'webhook' | 'capi';

/** The targets configured now, for a lead that has what each needs. */
export function targetsOf(config: ForwardConfig): Target[] {
  return [...(config.webhook ? (['webhook'] as const) : []), ...(config.capi ? (['capi'] as const) : [])];
}

/**
 * The webhook's JSON body, in Standard Webhooks' shape ({type, timestamp,
 * data}). The enquiry as the visitor sent it, the phone also in E.164 with a
 * WhatsApp link, and where the lead came from.
 */
export function webhookBody(forward: Forward): { type: 'lead.received'; timestamp: string; data: Record<string, unknown> } {
  const { key, enquiry, receivedAt, source } = forward;
  const phone = dialable(enquiry.phone);
  return {
    type: 'lead.received',
    timestamp: new Date(receivedAt).toISOString(),
    data: {
      key,
      receivedAt: new Date(receivedAt).toISOString(),
      enquiry: { name: enquiry.name, mail: enquiry.mail, phone: enquiry.phone, reason: enquiry.reason },
      phone: phone ? { e164: phone.e164, whatsapp: phone.whatsapp } : null,
      source: { first: source?.first ?? null, last: source?.last ?? null },
    },
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The Conversions API's `Lead` event: the same `event_id` as the browser's
 * `fbq('track', 'Lead', …, {eventID})`, so Meta counts one. The e-mail and the
 * phone go hashed (SHA-256 of the normalised value, as Meta asks); the click
 * id comes from the `_fbc` cookie or, failing it, from the `fbclid` kept with
 * the lead's source.
 */
export function capiEvent(forward: Forward): Record<string, unknown> {
  const { key, enquiry, receivedAt, source, visitor = {} } = forward;
  const phone = dialable(enquiry.phone);
  const fbclid = source?.last?.fbclid ?? source?.first?.fbclid;
  const clickAt = (source?.last?.fbclid ? source.last.at : source?.first?.at) ?? receivedAt;
  const fbc = visitor.fbc ?? (fbclid ? `fb.1.${clickAt}.${fbclid}` : undefined);
  const userData: Record<string, unknown> = { em: [sha256(enquiry.mail.trim().toLowerCase())] };
  if (phone) userData.ph = [sha256(phone.e164.slice(1))];
  if (visitor.fbp) userData.fbp = visitor.fbp;
  if (fbc) userData.fbc = fbc;
  if (visitor.ip) userData.client_ip_address = visitor.ip;
  if (visitor.userAgent) userData.client_user_agent = visitor.userAgent;
  return {
    event_name: 'Lead',
    event_time: Math.floor(receivedAt / 1000),
    event_id: key,
    action_source: 'website',
    ...(visitor.page ? { event_source_url: visitor.page } : {}),
    user_data: userData,
  };
}

const FB_COOKIE = /^fb\.\d\.\d{1,16}\.[\w-]{1,255}$/;
const MAX_USER_AGENT = 512;
const MAX_PAGE = 512;

/**
 * The visitor's side of a Conversions API event from the request: each
 * value checked and bounded, anything else left out (Meta matches less, the
 * visitor never notices). `ip` is the address the abuse limit trusts.
 */
export function visitorOf(request: { ip?: string; userAgent?: string | null; fbp?: string; fbc?: string; referer?: string | null; siteOrigin?: string }): Visitor {
  const visitor: Visitor = {};
  if (request.ip) visitor.ip = request.ip;
  const userAgent = request.userAgent?.trim();
  if (userAgent && userAgent.length <= MAX_USER_AGENT && !/[\u0000-\u001f\u007f]/.test(userAgent)) visitor.userAgent = userAgent;
  if (request.fbp && FB_COOKIE.test(request.fbp)) visitor.fbp = request.fbp;
  if (request.fbc && FB_COOKIE.test(request.fbc)) visitor.fbc = request.fbc;
  const page = pageOf(request.referer, request.siteOrigin);
  if (page) visitor.page = page;
  return visitor;
}

/** The page the form was sent from, when it is this site's: its address without the query (which Meta need not see). */
function pageOf(referer: string | null | undefined, siteOrigin: string | undefined): string | undefined {
  if (!referer || referer.length > 2048) return undefined;
  try {
    const url = new URL(referer);
    if (siteOrigin && url.origin !== siteOrigin) return undefined;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    const page = `${url.origin}${url.pathname}`;
    return page.length <= MAX_PAGE ? page : undefined;
  } catch {
    return undefined;
  }
}
