import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { formSecret } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { sharedRedis, whenReady } from '@/lib/redis-client';
import { withTimeout } from '@/lib/with-timeout';
import { signToken, TOKEN_MAX_AGE_MS, verifyToken, type TokenKind, type TokenVerdict } from './form-token';
import { consume, createContactLimiter, limitConfigOrDefaults, type ContactLimiter } from './rate-limit';

/**
 * Where the form's signatures are kept honest across instances: the key that
 * signs them and the record of those already used, in the deployment's shared
 * store (the abuse limit's Redis, else the Postgres world's database), else in
 * this process.
 *
 * The key is never derived from anything a visitor could have seen (the site
 * key was sent from browsers by the site this one replaces):
 * - `secret`: from CONTACT_FORM_SECRET;
 * - `redis` / `postgres`: random, made by the first instance and kept in the
 *   shared store, so every instance agrees;
 * - `process`: random for this process. A restart, or a second instance,
 *   then asks whoever had the page open to confirm (never refuses them).
 *
 * A used signature is remembered for its whole life (TOKEN_MAX_AGE_MS) with
 * rate-limiter-flexible, one point per nonce, in the same store. When that
 * store does not answer within its wait, this instance's memory answers: a
 * signature may then be used once on each instance, and once more after a
 * restart.
 */

export type FormKeySource = 'secret' | 'redis' | 'postgres' | 'process';

/** The shared store's wait for the key, then this process's key for a while (and the store asked again). */
const KEY_WAIT_MS = 1500;
const KEY_RETRY_MS = 30_000;
const KEY_NAME = 'contacto:firma:clave';

/** Which key signs here, decided by the configuration (the start-up report says it). */
export function formKeySource(): FormKeySource {
  if (formSecret()) return 'secret';
  const { redisUrl, postgresUrl } = limitConfigOrDefaults();
  return redisUrl ? 'redis' : postgresUrl ? 'postgres' : 'process';
}

/** One per process, on globalThis: Next bundles the token route and the Server Action apart, each with its own copy of this module. */
type Held = { processKey: Uint8Array; loaded?: Promise<Uint8Array>; fellBackUntil: number; used?: ContactLimiter };
const HELD = Symbol.for('contacto.firmas');
const held: Held = ((globalThis as { [HELD]?: Held })[HELD] ??= { processKey: randomBytes(32), fellBackUntil: 0 });

/** The signing key: from the secret, the shared store, or this process (while the store does not answer). */
async function formKey(): Promise<Uint8Array> {
  const secret = formSecret();
  if (secret) return createHash('sha256').update(`contacto:firma:${secret}`).digest();
  const source = formKeySource();
  if (source !== 'redis' && source !== 'postgres') return held.processKey;
  if (Date.now() < held.fellBackUntil) return held.processKey;
  held.loaded ??= withTimeout(sharedKey(source), KEY_WAIT_MS);
  try {
    return await held.loaded;
  } catch (error) {
    held.loaded = undefined;
    held.fellBackUntil = Date.now() + KEY_RETRY_MS;
    console.error(
      `[contacto] ERROR: ${source === 'redis' ? 'Redis' : 'PostgreSQL'} no dio la clave de las firmas del formulario (${errorName(error)}); se firma con una clave de este proceso ${KEY_RETRY_MS / 1000} s (quien envíe desde otra instancia confirma una vez)`,
    );
    return held.processKey;
  }
}

/** The key every instance shares: whoever comes first writes a random one, everyone reads the one that stayed. */
async function sharedKey(source: 'redis' | 'postgres'): Promise<Uint8Array> {
  const candidate = randomBytes(32).toString('base64');
  const { redisUrl, postgresUrl } = limitConfigOrDefaults();
  if (source === 'redis') {
    const { client, release } = sharedRedis(redisUrl as string);
    try {
      await whenReady(client, KEY_WAIT_MS);
      await client.set(KEY_NAME, candidate, 'NX');
      return keyOf(await client.get(KEY_NAME));
    } finally {
      release();
    }
  }
  const pool = new Pool({ connectionString: postgresUrl, max: 1, connectionTimeoutMillis: KEY_WAIT_MS });
  pool.on('error', () => {});
  try {
    await pool.query('CREATE TABLE IF NOT EXISTS contacto_clave (nombre text PRIMARY KEY, valor text NOT NULL)');
    await pool.query('INSERT INTO contacto_clave (nombre, valor) VALUES ($1, $2) ON CONFLICT (nombre) DO NOTHING', [KEY_NAME, candidate]);
    const { rows } = await pool.query<{ valor: string }>('SELECT valor FROM contacto_clave WHERE nombre = $1', [KEY_NAME]);
    return keyOf(rows[0]?.valor);
  } finally {
    void pool.end().catch(() => {});
  }
}

/** A stored key as bytes; one gone or cut short (flushed, evicted) is an error, never an empty key anyone could sign with. */
function keyOf(stored: string | null | undefined): Uint8Array {
  const key = Buffer.from(stored ?? '', 'base64');
  if (key.byteLength < 32) throw new Error('la clave compartida de las firmas falta o está incompleta');
  return key;
}

/** True the first time `nonce` is seen (here or, with a shared store, on any instance); false after. */
async function firstUse(nonce: string): Promise<boolean> {
  const config = { ...limitConfigOrDefaults(), max: 1, windowSeconds: TOKEN_MAX_AGE_MS / 1000 };
  try {
    held.used ??= createContactLimiter(config, undefined, 'contacto_firma');
  } catch (error) {
    // A store client that cannot even be made: this instance's memory, as the abuse limit does.
    console.error(`[contacto] ERROR: no se pudo preparar el registro de firmas usadas (${errorName(error)}); se usa en memoria`);
    held.used = createContactLimiter({ ...config, redisUrl: undefined, postgresUrl: undefined }, undefined, 'contacto_firma');
  }
  return (await consume(held.used, nonce)).allowed;
}

/** A signature of now (or of `at`, for tests) for `client`: `time` for the island, `confirm` for an answer. */
export async function issueToken(kind: TokenKind, client: string, at = Date.now()): Promise<string> {
  return signToken(await formKey(), kind, at, client);
}

/** What the posted signature is worth for `client`; a valid one is not yet spent (see spendToken). */
export async function checkToken(token: string | undefined, client: string): Promise<TokenVerdict> {
  return verifyToken(await formKey(), token, Date.now(), client);
}

/** Spends a valid signature: true for its first enquiry, false for any after. */
export const spendToken = (nonce: string) => firstUse(nonce);

/** Drops the used-signature store's clients (tests). */
export function closeSignatureStore(): void {
  held.used?.release?.();
  held.used = undefined;
  held.loaded = undefined;
  held.fellBackUntil = 0;
}
