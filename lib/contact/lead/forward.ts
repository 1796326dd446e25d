import { createHash } from 'node:crypto';
import type { ForwardConfig } from '@/lib/env/server';
import { dialable } from '@/lib/contact/phone';
import type { ContactEnquiry } from '../schema';
import { experimentsOf, type LeadSource } from '@/lib/contact/source';
import { normalMail } from '@/lib/contact/fields';

/** A confirmed lead for the webhook and Meta's Conversions API; in a workflow, so no secret (its steps read those). */
export type Forward = {
  /** The Idempotency-Key, the same in every round so a receiver tells a repeat: `webhook-id`, `event_id`, `eventID`. */
  key: string;
  enquiry: ContactEnquiry;
  receivedAt: number;
  source?: LeadSource;
  /** Only when Meta's Conversions API is configured: what it matches the visitor with. */
  visitor?: Visitor;
};
export type Visitor = {
  ip?: string;
  userAgent?: string;
  fbp?: string;
  fbc?: string;
  page?: string;
};
export type Target = 'webhook' | 'capi';
/** Each target's name in the log. */
export const NAMES: Record<Target, string> = {
  webhook: 'webhook',
  capi: 'API de Conversiones de Meta',
};

export const targetsOf = (config: ForwardConfig): Target[] =>
  (['webhook', 'capi'] as const).filter((to) => config[to]);

type WebhookBody = { type: 'lead.received'; timestamp: string; data: Record<string, unknown> };
/** Standard Webhooks' shape ({type, timestamp, data}); the phone also in E.164 with a WhatsApp link. */
export function webhookBody(forward: Forward): WebhookBody {
  const { key, enquiry, receivedAt, source } = forward;
  return {
    type: 'lead.received',
    timestamp: new Date(receivedAt).toISOString(),
    data: {
      key,
      receivedAt: new Date(receivedAt).toISOString(),
      enquiry: {
        name: enquiry.name,
        mail: enquiry.mail,
        phone: enquiry.phone,
        reason: enquiry.reason,
      },
      phone: dialable(enquiry.phone) ?? null,
      source: webhookSource(source),
    },
  };
}

/**
 * Where it came from, for the receiver: `experiments` lists every experiment's variant the lead saw; `experiment` is
 * the first of them (null with none), as the webhook sent before leads named several.
 */
function webhookSource(source: LeadSource | undefined) {
  const experiments = experimentsOf(source);
  return {
    first: source?.first ?? null,
    last: source?.last ?? null,
    experiment: experiments[0] ?? null,
    experiments,
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
// The browser's `eventID` as `event_id`, so Meta counts one `Lead`; e-mail and phone hashed as Meta asks; the click id
// from `_fbc`, else the source's `fbclid`.
export function capiEvent(forward: Forward): Record<string, unknown> {
  const { key, enquiry, receivedAt, source, visitor = {} } = forward;
  const phone = dialable(enquiry.phone);
  const fbclid = source?.last?.fbclid ?? source?.first?.fbclid;
  const clickAt = (source?.last?.fbclid ? source.last.at : source?.first?.at) ?? receivedAt;
  const fbc = visitor.fbc ?? (fbclid ? `fb.1.${clickAt}.${fbclid}` : undefined);
  const userData: Record<string, unknown> = { em: [sha256(normalMail(enquiry.mail))] };
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
type FromRequest = {
  ip?: string;
  userAgent?: string | null;
  fbp?: string;
  fbc?: string;
  referer?: string | null;
};
/** Each value checked and bounded, else left out (Meta matches less; no visitor notices); `ip`: the abuse limit's. */
export function visitorOf(request: FromRequest & { siteOrigin?: string }): Visitor {
  const visitor: Visitor = {};
  if (request.ip) visitor.ip = request.ip;
  const userAgent = request.userAgent?.trim();
  if (userAgent && userAgent.length <= 512 && !/[\u0000-\u001f\u007f]/.test(userAgent))
    visitor.userAgent = userAgent;
  if (request.fbp && FB_COOKIE.test(request.fbp)) visitor.fbp = request.fbp;
  if (request.fbc && FB_COOKIE.test(request.fbc)) visitor.fbc = request.fbc;
  const page = pageOf(request.referer, request.siteOrigin);
  if (page) visitor.page = page;
  return visitor;
}

/** The page the form was sent from, if this site's, without the query (which Meta need not see). */
function pageOf(
  referer: string | null | undefined,
  siteOrigin: string | undefined,
): string | undefined {
  if (!referer || referer.length > 2048) return undefined;
  try {
    const url = new URL(referer);
    if (siteOrigin && url.origin !== siteOrigin) return undefined;
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
    const page = `${url.origin}${url.pathname}`;
    return page.length <= 512 ? page : undefined;
  } catch {
    return undefined;
  }
}
