import 'server-only';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { getRateLimitConfig, RATE_LIMIT_DEFAULTS, type RateLimitConfig } from '@/lib/env/server';

// Who the client is, for every limit and guard: an address only from the hops we trust.

export type AddressTrust = Pick<RateLimitConfig, 'trustedProxies' | 'onVercel'>;
/** Shared by every missing, unreadable or oversized address: garbage can neither lock a person out nor mint keys. */
export const UNKNOWN_CLIENT_KEY = 'desconocida';
// The longest real address (an IPv4-mapped IPv6 with a zone id) is well under this.
const MAX_ADDRESS_LENGTH = 64;

/**
 * The abuse limit's key: the client's address as written by a hop we trust, never by the client. On Vercel,
 * x-vercel-forwarded-for, else x-real-ip, else the first x-forwarded-for entry (Vercel overwrites all three). Behind N
 * proxies of yours (TRUST_PROXY_HEADERS=N), the N-th x-forwarded-for entry from the right: each appends what it saw,
 * and further left the client may have written; never x-real-ip, which a proxy that does not set it passes on. With no
 * proxy (N = 0), the last entry, which Next writes only when the client wrote none, so the client can choose it
 * (start-up warns).
 */
export function clientKey(headers: Pick<Headers, 'get'>, trust: AddressTrust): string {
  return addressKey(clientAddressOf(headers, trust));
}

function clientAddressOf(
  headers: Pick<Headers, 'get'>,
  { trustedProxies, onVercel }: AddressTrust,
): string | undefined {
  const forwarded = entries(headers.get('x-forwarded-for'));
  if (onVercel)
    return (
      entries(headers.get('x-vercel-forwarded-for'))[0] ??
      (headers.get('x-real-ip')?.trim() || forwarded[0])
    );
  // N = 0 and N = 1 both take the last entry; fewer entries than proxies: the leftmost.
  return forwarded[Math.max(0, forwarded.length - Math.max(1, trustedProxies))];
}

function entries(header: string | null): string[] {
  return (header ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
}

/**
 * IPv4 as it is; IPv6 by its /64, which one subscriber gets whole (one visitor, not 2^64); an IPv4-mapped IPv6 as its
 * IPv4.
 */
export function addressKey(address: string | undefined): string {
  const host = hostOf(address);
  return !host ? UNKNOWN_CLIENT_KEY : isIP(host) === 4 ? host : ipv6Key(host);
}

/**
 * The address alone, when it is one: `[v6]:port`, `[v6]`, `v4:port` and `v6%zone` bare; a zone only on IPv6 and only of
 * plain characters.
 */
function hostOf(address: string | undefined): string | undefined {
  if (!address || address.length > MAX_ADDRESS_LENGTH) return undefined;
  const trimmed = address.trim();
  const host =
    trimmed.match(/^\[([^\]]+)\](?::\d{1,5})?$/)?.[1] ??
    trimmed.match(/^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/)?.[1] ??
    trimmed;
  if (!host.includes('%')) return isIP(host) ? host : undefined;
  const zoned = host.match(/^([\da-fA-F:.]+)%[\w.~-]{1,32}$/)?.[1];
  return zoned && isIP(zoned) === 6 ? zoned : undefined;
}

/** A valid IPv6 address as its /64, or as the IPv4 it maps (a dual-stack socket's IPv4 client). */
function ipv6Key(address: string): string {
  const parsed = ipaddr.process(address);
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  return `${parsed.parts
    .slice(0, 4)
    .map((hextet) => hextet.toString(16))
    .join(':')}::/64`;
}

/** The abuse limit's configuration, or its defaults in memory when it cannot be read (logged where it is used). */
export function limitConfigOrDefaults(): RateLimitConfig {
  try {
    return getRateLimitConfig();
  } catch {
    return { ...RATE_LIMIT_DEFAULTS, trustedProxies: 0, onVercel: false };
  }
}

/** This request's client as the abuse limit counts it: the key a signature is bound to (form-token.ts). */
export const requestClient = (requestHeaders: Pick<Headers, 'get'>) =>
  clientKey(requestHeaders, limitConfigOrDefaults());

/** This request's client's address, whole, when it is one: the same the abuse limit trusts. */
export const requestAddress = (requestHeaders: Pick<Headers, 'get'>) =>
  hostOf(clientAddressOf(requestHeaders, limitConfigOrDefaults()));
