import 'server-only';
import Redis from 'ioredis';
import type { OutboxStore } from './outbox-store';
import { isOutboxEntry, type OutboxEntry } from './outbox-entry';

/**
 * The outbox in Redis (on Vercel, a Marketplace Redis; the same one as the
 * abuse limit). One hash per entry: `data` (the entry as JSON, without its
 * lease) and the lease in `holder` / `until`, which small Lua scripts test
 * and set in one step; a set lists the keys.
 */

const PREFIX = 'contacto:outbox:';
const INDEX = `${PREFIX}keys`;

// KEYS[1] entry; ARGV holder, now, until. Returns the data, or nil if held by someone else.
const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local holder = redis.call('HGET', KEYS[1], 'holder')
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if holder and holder ~= '' and holder ~= ARGV[1] and untilMs > tonumber(ARGV[2]) then return nil end
redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'until', ARGV[3])
return redis.call('HGET', KEYS[1], 'data')`;

// KEYS[1] entry; ARGV holder, data.
const RELEASE = `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'holder', '', 'until', '0')
return 1`;

// KEYS[1] entry, KEYS[2] index; ARGV holder, key.
const REMOVE = `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[2])
return 1`;

export class RedisOutboxStore implements OutboxStore {
  private readonly redis: Redis;

  constructor(redisUrlOrClient: string | Redis) {
    this.redis =
      typeof redisUrlOrClient === 'string'
        ? new Redis(redisUrlOrClient, {
            // Fail within about a second when Redis is away: the visitor's delivery goes on without the outbox.
            maxRetriesPerRequest: 1,
            connectTimeout: 1000,
            commandTimeout: 1500,
          })
        : redisUrlOrClient;
    this.redis.on('error', () => {}); // surfaced by the failing command, logged there
  }

  async add(entry: OutboxEntry): Promise<void> {
    const { lease, ...data } = entry;
    await this.redis
      .multi()
      .hset(PREFIX + entry.key, { data: JSON.stringify(data), holder: lease?.holder ?? '', until: String(lease?.until ?? 0) })
      .sadd(INDEX, entry.key)
      .exec()
      .then((replies) => {
        const failed = replies?.find(([error]) => error);
        if (!replies || failed) throw failed?.[0] ?? new Error('MULTI interrumpido');
      });
  }

  async keys(): Promise<string[]> {
    return this.redis.smembers(INDEX);
  }

  async get(key: string): Promise<OutboxEntry | null> {
    const fields = await this.redis.hgetall(PREFIX + key);
    if (!fields.data) {
      await this.redis.srem(INDEX, key); // an index entry whose hash is gone
      return null;
    }
    const entry = this.parse(key, fields.data);
    if (entry && fields.holder) entry.lease = { holder: fields.holder, until: Number(fields.until) };
    return entry;
  }

  async claim(key: string, holder: string, now: number, until: number): Promise<OutboxEntry | null> {
    const data = (await this.redis.eval(CLAIM, 1, PREFIX + key, holder, String(now), String(until))) as string | null;
    if (data === null) return null;
    const entry = this.parse(key, data);
    return entry && { ...entry, lease: { holder, until } };
  }

  async release(entry: OutboxEntry, holder: string): Promise<boolean> {
    const { lease: _lease, ...data } = entry;
    return (await this.redis.eval(RELEASE, 1, PREFIX + entry.key, holder, JSON.stringify(data))) === 1;
  }

  async remove(key: string, holder: string): Promise<boolean> {
    return (await this.redis.eval(REMOVE, 2, PREFIX + key, INDEX, holder, key)) === 1;
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }

  private parse(key: string, data: string): OutboxEntry | null {
    try {
      const entry: unknown = JSON.parse(data);
      if (isOutboxEntry(entry) && entry.key === key) return entry;
    } catch {}
    console.error(`[contacto] Entrada ilegible en la bandeja de salida (Redis), se omite: ${key}`);
    return null;
  }
}
