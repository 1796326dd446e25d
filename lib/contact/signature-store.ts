import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { limitConfigOrDefaults } from '@/lib/abuse/client';
import { consume, heldLimiter, type SharedLimiter } from '@/lib/abuse/limiter';
import { keyStore, sharedKey, type HeldKey } from '@/lib/abuse/shared-key';
import { formSecret } from '@/lib/env/server';
import {
  signToken,
  TOKEN_MAX_AGE_MS,
  verifyToken,
  type TokenKind,
  type TokenVerdict,
} from './form-token';
import { resentKey, signResend } from './resend-key';
import type { ContactEnquiry } from './schema';

// The form's signing key and its used signatures. The key never derives from anything a visitor could have seen (the
// old site sent its site key to browsers): CONTACT_FORM_SECRET, else a random one the instances share
// (lib/abuse/shared-key.ts). A used nonce is one limiter point for TOKEN_MAX_AGE_MS, in the same store; while it does
// not answer, in memory (then usable once per instance, and again after a restart).
export type FormKeySource = 'secret' | 'redis' | 'postgres' | 'process';

/** Which key signs here (the start-up report says it). */
export const formKeySource = (): FormKeySource => (formSecret() ? 'secret' : keyStore());

const HELD = Symbol.for('contacto.firmas');
type Held = HeldKey & { limiter?: SharedLimiter };
const held: Held = ((globalThis as { [HELD]?: Held })[HELD] ??= {
  processKey: randomBytes(32),
  fellBackUntil: 0,
});

async function formKey(): Promise<Uint8Array> {
  const secret = formSecret();
  if (secret) return createHash('sha256').update(`contacto:firma:${secret}`).digest();
  return sharedKey(held, 'contacto:firma:clave', 'la clave de las firmas del formulario');
}

/**
 * Spends a valid signature: true the first time `nonce` is seen (here or, with a shared store, on any instance), false
 * after.
 */
export async function spendToken(nonce: string): Promise<boolean> {
  const config = { ...limitConfigOrDefaults(), max: 1, windowSeconds: TOKEN_MAX_AGE_MS / 1000 };
  return (
    await consume(
      heldLimiter(held, 'contacto_firma', 'el registro de firmas usadas', config),
      nonce,
    )
  ).allowed;
}

/** A signature of now (or of `at`, for tests) for `client`: `time` for the island, `confirm` for an answer. */
export const issueToken = async (kind: TokenKind, client: string, at = Date.now()) =>
  signToken(await formKey(), kind, at, client);

/** What the posted signature is worth for `client`; a valid one is not yet spent (see spendToken). */
export async function checkToken(token: string | undefined, client: string): Promise<TokenVerdict> {
  const now = Date.now();
  const checked = verifyToken(await formKey(), token, now, client);
  // Signed here with this process's own key while the shared store did not answer (shared-key.ts): still good here
  // once the store answers again, so a visitor who filled the form meanwhile is not asked to confirm. The key never
  // leaves this process, so it proves as much as the shared one.
  if (checked.verdict === 'invalid' && !formSecret()) {
    const own = verifyToken(held.processKey, token, now, client);
    if (own.verdict !== 'invalid') return own;
  }
  return checked;
}

/** What a failed delivery's answer gives back for `key` (resend-key.ts), signed with the form's key. */
export const issueResend = async (key: string, client: string, enquiry: ContactEnquiry) =>
  signResend(await formKey(), key, client, enquiry);

/** The key a resend keeps, when `posted` was signed for this client and these words (also with this process's key). */
export async function checkResend(
  posted: string | undefined,
  client: string,
  enquiry: ContactEnquiry,
): Promise<string | undefined> {
  const kept = resentKey(await formKey(), posted, client, enquiry);
  if (kept || formSecret()) return kept;
  return resentKey(held.processKey, posted, client, enquiry);
}

/** Drops the used-signature store's clients (tests). */
export function closeSignatureStore(): void {
  held.limiter?.release?.();
  Object.assign(held, { limiter: undefined, loaded: undefined, fellBackUntil: 0 });
}
