import 'server-only';
import { sealData, unsealData } from 'iron-session';
import type { z } from 'zod';

// What the staff area seals with STAFF_SESSION_SECRET (iron-session: encrypted and signed): the link, the session and
// the known browser. Each shape names its purpose in `p`, so that no seal is ever taken for another.

/** Longer than any seal of ours, and than a browser keeps in a cookie. */
const MAX_SEAL = 4096;

export function seal(data: { p: string }, secret: string, ttlSeconds: number): Promise<string> {
  return sealData(data, { password: secret, ttl: ttlSeconds });
}

/**
 * What `sealed` holds when it is our seal of that shape, unexpired; otherwise undefined. Never throws: iron-session 9
 * answers a broken seal with {} (8 threw on some: "Wrong mac prefix", an unknown version or password id), and a token
 * or cookie cut, forged or sealed with another secret is a refusal, never a 500.
 */
export async function unseal<T>(
  shape: z.ZodType<T>,
  sealed: string | null | undefined,
  secret: string,
  ttlSeconds: number,
): Promise<T | undefined> {
  if (!sealed || sealed.length > MAX_SEAL) return undefined;
  const opened: unknown = await unsealData(sealed, { password: secret, ttl: ttlSeconds }).catch(
    () => undefined,
  );
  const parsed = shape.safeParse(opened);
  return parsed.success ? parsed.data : undefined;
}
