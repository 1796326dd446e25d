import 'server-only';
import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';
import { errorName } from '@/lib/server/error-name';
import { sharedRedis, whenReady } from '@/lib/server/redis-client';
import { withTimeout } from '@/lib/server/with-timeout';
import { limitConfigOrDefaults } from './client';

// A random key every instance shares, for what one signs and another verifies: kept in the abuse limit's store (Redis,
// else the Postgres world's database), else this process's own. Whoever comes first writes one; all read what stayed.
export type KeyStore = 'redis' | 'postgres' | 'process';
/** What a process holds on globalThis: Next bundles routes and Server Actions apart, each with its own modules. */
export type HeldKey = {
  processKey: Uint8Array;
  loaded?: Promise<Uint8Array>;
  fellBackUntil: number;
};

/** The shared store's wait for the key, then this process's key for a while before asking again. */
const KEY_WAIT_MS = 1500;
const KEY_RETRY_MS = 30_000;

export function keyStore(): KeyStore {
  const { redisUrl, postgresUrl } = limitConfigOrDefaults();
  return redisUrl ? 'redis' : postgresUrl ? 'postgres' : 'process';
}

/** The shared key `name`; while the store does not answer, this process's (`what` says whose, in the log). */
export async function sharedKey(held: HeldKey, name: string, what: string): Promise<Uint8Array> {
  const store = keyStore();
  if (store === 'process' || Date.now() < held.fellBackUntil) return held.processKey;
  const loading = (held.loaded ??= withTimeout(readOrWrite(store, name), KEY_WAIT_MS));
  try {
    return await loading;
  } catch (error) {
    // Every caller that waited gets this process's key; the first one to see the failure says so, once.
    if (held.loaded !== loading) return held.processKey;
    held.loaded = undefined;
    held.fellBackUntil = Date.now() + KEY_RETRY_MS;
    console.error(
      `[contacto] ERROR: ${store === 'redis' ? 'Redis' : 'PostgreSQL'} no dio ${what} (${errorName(error)}); se ` +
        `firma con una clave de este proceso ${KEY_RETRY_MS / 1000} s (quien envíe desde otra instancia confirma ` +
        `una vez)`,
    );
    return held.processKey;
  }
}

async function readOrWrite(store: 'redis' | 'postgres', name: string): Promise<Uint8Array> {
  const candidate = randomBytes(32).toString('base64');
  const { redisUrl, postgresUrl } = limitConfigOrDefaults();
  if (store === 'redis') {
    const { client, release } = sharedRedis(redisUrl as string);
    try {
      await whenReady(client, KEY_WAIT_MS);
      await client.set(name, candidate, 'NX');
      return keyOf(await client.get(name));
    } finally {
      release();
    }
  }
  const pool = new Pool({
    connectionString: postgresUrl,
    max: 1,
    connectionTimeoutMillis: KEY_WAIT_MS,
  });
  pool.on('error', () => {});
  try {
    await pool.query(
      'CREATE TABLE IF NOT EXISTS contacto_clave (nombre text PRIMARY KEY, valor text NOT NULL)',
    );
    const insert =
      'INSERT INTO contacto_clave (nombre, valor) VALUES ($1, $2) ON CONFLICT (nombre) DO NOTHING';
    await pool.query(insert, [name, candidate]);
    const read = 'SELECT valor FROM contacto_clave WHERE nombre = $1';
    return keyOf((await pool.query<{ valor: string }>(read, [name])).rows[0]?.valor);
  } finally {
    void pool.end().catch(() => {});
  }
}

/** A stored key as bytes; one gone or cut short (flushed, evicted) is an error, never an empty key to sign with. */
function keyOf(stored: string | null | undefined): Uint8Array {
  const key = Buffer.from(stored ?? '', 'base64');
  if (key.byteLength < 32) throw new Error('la clave compartida falta o está incompleta');
  return key;
}
