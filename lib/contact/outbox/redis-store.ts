import 'server-only';
import type Redis from 'ioredis';
import { OUTBOX_LIMIT_DEFAULTS, type OutboxLimits } from '@/lib/env/server';
import { sharedRedis, whenReady } from '@/lib/redis-client';
import { withTimeout } from '@/lib/with-timeout';
import { OutboxFullError, StoredTooLateError, type OutboxStore, type OutboxUsage } from './store';
import { isOutboxEntry, type OutboxEntry } from './entry';

/**
 * The outbox in Redis (on Vercel, a Marketplace Redis), on the client the
 * abuse limit uses too (lib/redis-client.ts). One hash per entry: `data` (the entry as JSON, without its
 * lease), its `size`, and the lease in `holder` / `until`; a set lists the
 * keys and a hash keeps the bytes stored, so the limits are checked without
 * reading any entry. Small Lua scripts test and set in one step.
 */

const PREFIX = 'contacto:outbox:';
const INDEX = `${PREFIX}keys`;
const USAGE = `${PREFIX}usage`;

/** Connecting, then any one command: a stuck Redis fails the outbox's step within this, never holds it. */
const CONNECT_WAIT_MS = 1000;
const COMMAND_TIMEOUT_MS = 1000;

// KEYS[1] entry, KEYS[2] index, KEYS[3] usage; ARGV data, holder, until, storeBy (0: none), maxEntries, maxBytes.
// Redis's own clock decides lateness: a command a stalled Redis runs later than storeBy stores nothing.
const ADD = `
local storeBy = tonumber(ARGV[4])
if storeBy > 0 then
  local t = redis.call('TIME')
  if tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) > storeBy then return 'late' end
end
local size = string.len(ARGV[1])
local bytes = tonumber(redis.call('HGET', KEYS[3], 'bytes') or '0')
if redis.call('SCARD', KEYS[2]) + 1 > tonumber(ARGV[5]) or bytes + size > tonumber(ARGV[6]) then return 'full' end
local old = tonumber(redis.call('HGET', KEYS[1], 'size') or '0')
redis.call('HSET', KEYS[1], 'data', ARGV[1], 'holder', ARGV[2], 'until', ARGV[3], 'size', size)
redis.call('SADD', KEYS[2], KEYS[1]:sub(${PREFIX.length + 1}))
redis.call('HINCRBY', KEYS[3], 'bytes', size - old)
return 'ok'`;

// KEYS[1] entry; ARGV holder, now, until. Returns the data, or nil if held by someone else.
const CLAIM = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
local holder = redis.call('HGET', KEYS[1], 'holder')
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if holder and holder ~= '' and holder ~= ARGV[1] and untilMs > tonumber(ARGV[2]) then return nil end
redis.call('HSET', KEYS[1], 'holder', ARGV[1], 'until', ARGV[3])
return redis.call('HGET', KEYS[1], 'data')`;

// KEYS[1] entry, KEYS[2] usage; ARGV holder, data.
const RELEASE = `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
local size = string.len(ARGV[2])
local old = tonumber(redis.call('HGET', KEYS[1], 'size') or '0')
redis.call('HSET', KEYS[1], 'data', ARGV[2], 'holder', '', 'until', '0', 'size', size)
redis.call('HINCRBY', KEYS[2], 'bytes', size - old)
return 1`;

// KEYS[1] entry, KEYS[2] index, KEYS[3] usage; ARGV holder, key.
const REMOVE = `
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[1] then return 0 end
local size = tonumber(redis.call('HGET', KEYS[1], 'size') or '0')
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[2])
redis.call('HINCRBY', KEYS[3], 'bytes', -size)
return 1`;

export class RedisOutboxStore implements OutboxStore {
  private readonly redis: Redis;
  /** Lets go of the process's shared client; none when the client was handed in (the store then owns it). */
  private readonly letGo?: () => void;

  constructor(
    redisUrlOrClient: string | Redis,
    private readonly limits: OutboxLimits = OUTBOX_LIMIT_DEFAULTS,
  ) {
    if (typeof redisUrlOrClient === 'string') {
      const lease = sharedRedis(redisUrlOrClient);
      this.redis = lease.client;
      this.letGo = lease.release;
    } else {
      this.redis = redisUrlOrClient;
    }
  }

  async add(entry: OutboxEntry, { storeBy = 0 }: { storeBy?: number } = {}): Promise<void> {
    const { lease, ...data } = entry;
    await this.ready();
    const answer = await this.run(
      this.redis.eval(
        ADD,
        3,
        PREFIX + entry.key,
        INDEX,
        USAGE,
        JSON.stringify(data),
        lease?.holder ?? '',
        String(lease?.until ?? 0),
        String(storeBy),
        String(Math.floor(this.limits.maxEntries * (entry.state === 'spam' ? 0.5 : 1))),
        String(Math.floor(this.limits.maxBytes * (entry.state === 'spam' ? 0.5 : 1))),
      ),
    );
    if (answer === 'full') throw new OutboxFullError();
    if (answer === 'late') throw new StoredTooLateError();
  }

  /** Read in pages (SSCAN), never one reply the size of the whole set. */
  async keys(): Promise<string[]> {
    await this.ready();
    const keys: string[] = [];
    let cursor = '0';
    do {
      const [next, page] = await this.run(this.redis.sscan(INDEX, cursor, 'COUNT', 200));
      keys.push(...page);
      cursor = next;
    } while (cursor !== '0');
    return [...new Set(keys)];
  }

  async get(key: string): Promise<OutboxEntry | null> {
    await this.ready();
    const fields = await this.run(this.redis.hgetall(PREFIX + key));
    if (!fields.data) {
      await this.run(this.redis.srem(INDEX, key)); // an index entry whose hash is gone
      return null;
    }
    const entry = this.parse(key, fields.data);
    if (entry && fields.holder) entry.lease = { holder: fields.holder, until: Number(fields.until) };
    return entry;
  }

  async claim(key: string, holder: string, now: number, until: number): Promise<OutboxEntry | null> {
    await this.ready();
    const data = (await this.run(this.redis.eval(CLAIM, 1, PREFIX + key, holder, String(now), String(until)))) as string | null;
    if (data === null) return null;
    const entry = this.parse(key, data);
    return entry && { ...entry, lease: { holder, until } };
  }

  async release(entry: OutboxEntry, holder: string): Promise<boolean> {
    const { lease: _lease, ...data } = entry;
    await this.ready();
    return (await this.run(this.redis.eval(RELEASE, 2, PREFIX + entry.key, USAGE, holder, JSON.stringify(data)))) === 1;
  }

  async remove(key: string, holder: string): Promise<boolean> {
    await this.ready();
    return (await this.run(this.redis.eval(REMOVE, 3, PREFIX + key, INDEX, USAGE, holder, key))) === 1;
  }

  async usage(): Promise<OutboxUsage> {
    await this.ready();
    const [entries, bytes] = await this.run(Promise.all([this.redis.scard(INDEX), this.redis.hget(USAGE, 'bytes')]));
    return { entries, bytes: Math.max(0, Number(bytes ?? 0)), ...this.limits };
  }

  async cleanUp(): Promise<number> {
    return 0; // every write is one atomic script: nothing is left half-done
  }

  async close(): Promise<void> {
    if (this.letGo) this.letGo();
    else this.redis.disconnect();
  }

  private ready(): Promise<void> {
    return whenReady(this.redis, CONNECT_WAIT_MS);
  }

  /** The shared client waits longer than the outbox may: each command is bounded here. */
  private run<T>(command: Promise<T>): Promise<T> {
    return withTimeout(command, COMMAND_TIMEOUT_MS);
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
