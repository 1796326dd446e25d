/**
 * @jest-environment node
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { clientIp, consume, createContactLimiter } from './rate-limit';

const config = { max: 5, windowSeconds: 60, trustForwardedFor: false };

describe('abuse limit, in memory', () => {
  it('allows 5 enquiries per IP and window, then says when to come back', async () => {
    const limiter = createContactLimiter(config);
    for (let i = 0; i < 5; i++) expect(await consume(limiter, '203.0.113.1')).toEqual({ allowed: true });
    const verdict = await consume(limiter, '203.0.113.1');
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed === false && verdict.retryAfterSeconds).toBeGreaterThan(50);
    // Another visitor is not affected.
    expect(await consume(limiter, '203.0.113.2')).toEqual({ allowed: true });
  });

  it('lets the visitor in again once the window has passed', async () => {
    const limiter = createContactLimiter({ ...config, max: 1, windowSeconds: 1 });
    expect((await consume(limiter, 'a')).allowed).toBe(true);
    expect((await consume(limiter, 'a')).allowed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect((await consume(limiter, 'a')).allowed).toBe(true);
  });
});

describe('client IP', () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it('trusts only the entry Next.js or the nearest proxy wrote, off Vercel', () => {
    expect(clientIp(headers({ 'x-forwarded-for': '1.1.1.1, 198.51.100.7' }), false)).toBe('198.51.100.7');
    expect(clientIp(headers({ 'x-real-ip': '1.1.1.1', 'x-forwarded-for': '198.51.100.7' }), false)).toBe('198.51.100.7');
  });

  it("uses Vercel's own headers on Vercel", () => {
    expect(clientIp(headers({ 'x-real-ip': '198.51.100.9', 'x-forwarded-for': '198.51.100.9, 10.0.0.1' }), true)).toBe(
      '198.51.100.9',
    );
    expect(clientIp(headers({ 'x-forwarded-for': '198.51.100.9, 10.0.0.1' }), true)).toBe('198.51.100.9');
  });

  it('has a bucket even when no header is there', () => {
    expect(clientIp(headers({}), false)).toBe('desconocida');
  });
});

// A real redis-server on 127.0.0.1, started and stopped here.
describe('abuse limit, in Redis (shared by every instance)', () => {
  const port = 6390 + Math.floor(Math.random() * 500);
  let server: ChildProcess | undefined;
  const clients: Redis[] = [];
  const connect = () => {
    const client = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    if (spawnSync('redis-server', ['--version']).status !== 0) {
      throw new Error('redis-server is missing: run scripts/ensure-test-tools.mjs (apt-get install redis-server)');
    }
    server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    for (let i = 0; i < 50; i++) {
      const probe = connect();
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error('redis-server did not start');
  });

  afterAll(() => {
    clients.forEach((client) => client.disconnect());
    server?.kill();
  });

  it('counts across two instances sharing one Redis', async () => {
    const [a, b] = [connect(), connect()];
    await Promise.all([a.connect(), b.connect()]);
    const instanceA = createContactLimiter({ ...config, redisUrl: `redis://127.0.0.1:${port}` }, a);
    const instanceB = createContactLimiter({ ...config, redisUrl: `redis://127.0.0.1:${port}` }, b);
    const ip = `198.51.100.${Math.floor(Math.random() * 200)}`;
    for (let i = 0; i < 3; i++) expect((await consume(instanceA, ip)).allowed).toBe(true);
    for (let i = 0; i < 2; i++) expect((await consume(instanceB, ip)).allowed).toBe(true);
    expect((await consume(instanceA, ip)).allowed).toBe(false);
    expect((await consume(instanceB, ip)).allowed).toBe(false);
    expect(Number(await a.get(`contacto:${ip}`))).toBe(7);
  });

  it('keeps limiting in memory when Redis goes away', async () => {
    const client = connect();
    await client.connect();
    const limiter = createContactLimiter({ ...config, max: 2, redisUrl: `redis://127.0.0.1:${port}` }, client);
    client.disconnect();
    expect((await consume(limiter, 'x')).allowed).toBe(true);
    expect((await consume(limiter, 'x')).allowed).toBe(true);
    expect((await consume(limiter, 'x')).allowed).toBe(false);
  });
});
