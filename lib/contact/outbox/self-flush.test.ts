/**
 * @jest-environment node
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { everyMinute } from './self-flush';

const API = { CONTACT_API_BASE_URL: 'http://127.0.0.1:9/api/', CONTACT_SITE_KEY: 'k' };
const saved = { ...process.env };
let errors: string[];

beforeEach(() => {
  jest.useFakeTimers();
  errors = [];
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
});
afterEach(() => {
  jest.clearAllTimers();
  jest.useRealTimers();
  jest.restoreAllMocks();
  process.env = { ...saved };
});

/** Lets the flush's promise callbacks run between timer ticks. */
const settle = () => jest.advanceTimersByTimeAsync(0);

describe('the minute flush of a self-hosted server', () => {
  it('flushes every 60 s, on a timer that does not keep the process alive', async () => {
    const setIntervalSpy = jest.spyOn(global, 'setInterval');
    const flush = jest.fn(async () => {});
    const stop = everyMinute(flush);
    await jest.advanceTimersByTimeAsync(59_999);
    expect(flush).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(flush).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(4 * 60_000);
    expect(flush).toHaveBeenCalledTimes(5);
    expect((setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout).hasRef()).toBe(false);
    stop();
    await jest.advanceTimersByTimeAsync(10 * 60_000);
    expect(flush).toHaveBeenCalledTimes(5);
  });

  it('never runs two flushes at once: a turn that finds one still running is skipped', async () => {
    let finish: () => void = () => {};
    let running = 0;
    let most = 0;
    const flush = jest.fn(async () => {
      running += 1;
      most = Math.max(most, running);
      await new Promise<void>((resolve) => (finish = resolve));
      running -= 1;
    });
    everyMinute(flush);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(flush).toHaveBeenCalledTimes(1);
    // A slow flush (the API hangs): two more turns go by.
    await jest.advanceTimersByTimeAsync(2 * 60_000);
    expect(flush).toHaveBeenCalledTimes(1);
    finish();
    await settle();
    await jest.advanceTimersByTimeAsync(60_000);
    expect(flush).toHaveBeenCalledTimes(2);
    expect(most).toBe(1);
  });

  it('logs a failed flush and goes on with the next one', async () => {
    const flush = jest.fn().mockRejectedValueOnce(new TypeError('boom')).mockResolvedValue(undefined);
    everyMinute(flush);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(errors).toEqual([expect.stringMatching(/^\[contacto\] Falló el reenvío automático de la bandeja de salida \(TypeError\)/)]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(flush).toHaveBeenCalledTimes(2);
  });
});

describe('starting the minute flush', () => {
  /** startSelfFlush for a server started with `env`, and the flushes it made in 5 minutes. */
  async function start(env: Record<string, string>) {
    for (const key of ['CONTACT_API_BASE_URL', 'CONTACT_SITE_KEY', 'VERCEL', 'REDIS_URL', 'CONTACT_OUTBOX']) delete process.env[key];
    Object.assign(process.env, { CONTACT_INBOX_DIR: mkdtempSync(path.join(tmpdir(), 'self-flush-')) }, env);
    const flush = jest.fn(async () => {});
    let started = false;
    let close = async () => {};
    jest.isolateModules(() => {
      const { startSelfFlush } = jest.requireActual('./self-flush') as typeof import('./self-flush');
      const { getOutbox } = jest.requireActual('./outbox') as typeof import('./outbox');
      started = startSelfFlush(flush);
      // A Redis client it may have opened would keep reconnecting after the test.
      close = async () => getOutbox()?.store.close();
    });
    await jest.advanceTimersByTimeAsync(5 * 60_000);
    await close();
    return { started, flushes: flush.mock.calls.length };
  }

  it('starts off Vercel with an outbox and a contact API', async () => {
    expect(await start(API)).toEqual({ started: true, flushes: 5 });
  });

  it('never on Vercel, even with an outbox in Redis', async () => {
    expect(await start({ ...API, VERCEL: '1', REDIS_URL: 'redis://127.0.0.1:9' })).toEqual({ started: false, flushes: 0 });
  });

  it('never without an outbox, or without a contact API', async () => {
    expect(await start({ ...API, CONTACT_OUTBOX: 'off' })).toEqual({ started: false, flushes: 0 });
    expect(await start({})).toEqual({ started: false, flushes: 0 });
  });
});
