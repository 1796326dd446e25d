/**
 * @jest-environment node
 */
import { getWorld } from 'workflow/runtime';
import { getWorkflowWorld } from './choose-world';
import { rescueCutOffRuns, rescueGivenUpLeads } from './rescue';
import { restartQueueWhenWorkersGone, startEngine } from './start';

// The engine's own modules do not load under Jest (ES modules); the watch is given its counts and its engine.
jest.mock('workflow/runtime', () => ({ getWorld: jest.fn(), setWorld: jest.fn() }));
jest.mock('./rescue', () => ({ rescueCutOffRuns: jest.fn(), rescueGivenUpLeads: jest.fn() }));
jest.mock('./door', () => ({}));
jest.mock('./choose-world', () => ({ getWorkflowWorld: jest.fn() }));

type FakeWorld = { name: string; start: jest.Mock; close: jest.Mock };

/** An engine whose getWorld() makes a new world after set(undefined), as the SDK's does. */
function fakeEngine(failStarts = 0) {
  let made = 0;
  let current: FakeWorld | undefined;
  const make = (): FakeWorld => {
    made += 1;
    const name = `world-${made}`;
    const failing = made - 1 <= failStarts && made > 1;
    return {
      name,
      start: jest.fn(async () => {
        if (failing) throw new Error('ECONNREFUSED');
      }),
      close: jest.fn(async () => {}),
    };
  };
  current = make();
  const engine = {
    get: () => (current ??= make()),
    set: (world: unknown) => {
      current = world as FakeWorld | undefined;
    },
  };
  return { engine: engine as never, current: () => current as FakeWorld };
}

beforeEach(() => {
  jest.spyOn(console, 'warn').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

describe("the Postgres world's queue, watched", () => {
  it('is left alone while its workers run, and when this server runs none', async () => {
    const { engine, current } = fakeEngine();
    const counts = [undefined, 10, 10, 10, undefined];
    const watch = restartQueueWhenWorkersGone(() => counts.shift(), engine);
    for (let i = 0; i < 5; i++) await watch();
    expect(current().name).toBe('world-1');
    expect(current().start).not.toHaveBeenCalled();
  });

  it('is started again, in a fresh world, once a worker has ended; the old world is closed', async () => {
    const { engine, current } = fakeEngine();
    const old = current();
    const counts = [10, 10, 3];
    const watch = restartQueueWhenWorkersGone(() => counts.shift(), engine);
    for (let i = 0; i < 3; i++) await watch();
    expect(current().name).toBe('world-2');
    expect(current().start).toHaveBeenCalledTimes(1);
    expect(old.close).toHaveBeenCalledTimes(1);
    expect(console.warn).toHaveBeenCalledWith(expect.stringContaining('3 de 10 trabajadores'));
  });

  it('keeps the old world while PostgreSQL is still away, and tries again at the next look', async () => {
    const { engine, current } = fakeEngine(1);
    const old = current();
    const counts = [10, 0, 0];
    const watch = restartQueueWhenWorkersGone(() => counts.shift(), engine);
    await watch();
    await watch(); // world-2 fails to start: closed, world-1 back
    expect(current()).toBe(old);
    expect(console.error).toHaveBeenCalledWith(expect.stringContaining('no volvió a arrancar'));
    await watch(); // world-3 starts
    expect(current().name).toBe('world-3');
    expect(old.close).toHaveBeenCalledTimes(1);
  });
});

describe('the engine, started', () => {
  const ours = { byName: {}, forgetLater: async () => {} };

  /** What happened, in order: the rescue's passes and the world's start (its re-enqueueing of every unfinished run). */
  function record() {
    const happened: string[] = [];
    jest.mocked(getWorkflowWorld).mockReturnValue({ kind: 'local', dir: '/tmp/mundo' } as never);
    jest.mocked(getWorld).mockReturnValue({
      start: jest.fn(async () => {
        happened.push('world started');
      }),
    } as never);
    jest.mocked(rescueCutOffRuns).mockImplementation(async () => {
      happened.push('cut-off runs rescued');
      return 0;
    });
    jest.mocked(rescueGivenUpLeads).mockResolvedValue(0);
    return happened;
  }

  it("rescues the local world's runs cut off by the last process before it re-enqueues the others", async () => {
    const happened = record();
    await startEngine(ours);
    expect(happened).toEqual(['cut-off runs rescued', 'world started']);
    // Only the torn ones: a run asleep past its time is the re-enqueueing's to continue.
    expect(rescueCutOffRuns).toHaveBeenCalledWith(ours, { tornOnly: true });
  });

  it('starts the local world even when that rescue fails, and says so', async () => {
    const happened = record();
    jest.mocked(rescueCutOffRuns).mockRejectedValueOnce(new Error('EIO'));
    await startEngine(ours);
    expect(happened).toEqual(['world started']);
    expect(console.error).toHaveBeenCalledWith(
      expect.stringContaining('No se pudieron revisar las ejecuciones cortadas'),
    );
  });
});
