import 'server-only';
import { createHash, timingSafeEqual } from 'node:crypto';

/** `Authorization: Bearer <CRON_SECRET>`, compared in constant time; no secret set means no one. */
export function isAuthorizedFlush(authorization: string | null, secret: string | undefined): boolean {
  if (!secret || !authorization) return false;
  // Hashing first gives equal lengths, so the comparison's time says nothing about the secret.
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(authorization), digest(`Bearer ${secret}`));
}
