import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { formSecret } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { sharedRedis, whenReady } from '@/lib/redis-client';
import { withTimeout } from '@/lib/with-timeout';
import { signToken, TOKEN_MAX_AGE_MS, verifyToken, type TokenKind } from './form-token';
import { consume, createContactLimiter, limitConfigOrDefaults, type ContactLimiter } from './rate-limit';

/**
 * The signing key and the used signatures, in the shared store (the abuse limit's Redis, else the Postgres world's
 * database), else in this process. The key never derives from anything a visitor could have seen (the old site sent its
 * site key to browsers): CONTACT_FORM_SECRET, else a random one the first instance stores, else this process's (a
 * restart or another instance then asks whoever had the page open to confirm). A used nonce is one limiter point for
 * TOKEN_MAX_AGE_MS; while the store does not answer, in memory (then usable once per instance, and again after a
 * restart).
 */
export type FormKeySource = 'secret' | 'redis' | 'postgres' | 'process';

/** The shared store's wait for the key, then this process's key for a while before asking again. */
const KEY_WAIT_MS = 1500;
const KEY_RETRY_MS = 30_000;
const KEY_NAME = 'contacto:firma:clave';

/** Which key signs here (the start-up report says it). */
export function formKeySource(): FormKeySource {
  if (formSecret()) return 'secret';
  const { redisUrl, postgresUrl } = limitConfigOrDefaults();
  return redisUrl ? 'redis' : postgresUrl ? 'postgres' : 'process';
}

/**
 * One per process, on globalThis: Next bundles the token route and the Server Action apart, each with its own copy of
 * this module.
 */
type Held = { processKey: Uint8Array; loaded?: Promise<Uint8Array>; fellBackUntil: number; used?: ContactLimiter };
const HELD = Symbol.for('contacto.firmas');
const held: Held = ((globalThis as { [HELD]?: Held })[HELD] ??= { processKey: randomBytes(32), fellBackUntil: 0 });

async function formKey(): Promise<Uint8Array> {
  const secret = formSecret();
  if (secret) return createHash('sha256').update(`contacto:firma:${secret}`).digest();
  const source = formKeySource();
  if ((source !== 'redis' && source !== 'postgres') || Date.now() < held.fellBackUntil) return held.processKey;
  held.loaded ??= withTimeout(sharedKey(source), KEY_WAIT_MS);
  try {
    return await held.loaded;
  } catch (error) {
    held.loaded = undefined;
    held.fellBackUntil = Date.now() + KEY_RETRY_MS;
    console.error(
      `[contacto] ERROR: ${source === 'redis' ? 'Redis' : 'PostgreSQL'} no dio la clave de las firmas del ` +
        `formulario (${errorName(error)}); se firma con una clave de este proceso ${KEY_RETRY_MS / 1000} s (quien ` +
        `envíe desde otra instancia confirma una vez)`,
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
    await pool.query('INSERT INTO contacto_clave (nombre, valor) VALUES ($1, $2) ON CONFLICT (nombre) DO NOTHING', [
      KEY_NAME,
      candidate,
    ]);
    const { rows } = await pool.query<{ valor: string }>('SELECT valor FROM contacto_clave WHERE nombre = $1', [
      KEY_NAME,
    ]);
    return keyOf(rows[0]?.valor);
  } finally {
    void pool.end().catch(() => {});
  }
}

/**
 * A stored key as bytes; one gone or cut short (flushed, evicted) is an error, never an empty key anyone could sign
 * with.
 */
function keyOf(stored: string | null | undefined): Uint8Array {
  const key = Buffer.from(stored ?? '', 'base64');
  if (key.byteLength < 32) throw new Error('la clave compartida de las firmas falta o está incompleta');
  return key;
}

/**
 * Spends a valid signature: true the first time `nonce` is seen (here or, with a shared store, on any instance), false
 * after.
 */
export async function spendToken(nonce: string): Promise<boolean> {
  const config = { ...limitConfigOrDefaults(), max: 1, windowSeconds: TOKEN_MAX_AGE_MS / 1000 };
  try {
    held.used ??= createContactLimiter(config, undefined, 'contacto_firma');
  } catch (error) {
    // A store client that cannot even be made: this instance's memory, as the abuse limit does.
    console.error(
      `[contacto] ERROR: no se pudo preparar el registro de firmas usadas (${errorName(error)}); se usa en memoria`,
    );
    held.used = createContactLimiter(
      { ...config, redisUrl: undefined, postgresUrl: undefined },
      undefined,
      'contacto_firma',
    );
  }
  return (await consume(held.used, nonce)).allowed;
}

/** A signature of now (or of `at`, for tests) for `client`: `time` for the island, `confirm` for an answer. */
export const issueToken = async (kind: TokenKind, client: string, at = Date.now()) =>
  signToken(await formKey(), kind, at, client);

/** What the posted signature is worth for `client`; a valid one is not yet spent (see spendToken). */
export const checkToken = async (token: string | undefined, client: string) =>
  verifyToken(await formKey(), token, Date.now(), client);

/** Drops the used-signature store's clients (tests). */
export function closeSignatureStore(): void {
  held.used?.release?.();
  Object.assign(held, { used: undefined, loaded: undefined, fellBackUntil: 0 });
}
