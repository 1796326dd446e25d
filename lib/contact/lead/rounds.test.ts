/**
 * @jest-environment node
 */
import { DEAD_AFTER_MS, ROUNDS_PER_RUN, type Try } from './lead';

/*
 * The one retry idiom of the lead and of its forwarding copies, run as a plain function: the engine's `sleep` moves a
 * fake clock on, and each round answers from a script.
 */
let now = 0;
const mockWaits: number[] = [];
jest.mock('workflow', () => ({
  sleep: async (ms: number) => {
    mockWaits.push(ms);
    now += ms;
  },
}));
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the mock
const { tryInRounds } = require('./rounds') as typeof import('./rounds');

const down: Try = { outcome: 'unavailable', failures: 'http-503' };

type Extra = {
  from?: number;
  receivedAt?: number;
  retryAfterMs?: number;
  backoffSeconds?: number[];
};

function plan(answers: Try[], extra: Extra = {}) {
  const rounds: number[] = [];
  const failures: number[] = [];
  const fresh: Array<[number, number]> = [];
  const run = tryInRounds({
    from: extra.from ?? 1,
    receivedAt: extra.receivedAt ?? now,
    backoffSeconds: extra.backoffSeconds ?? [60, 300],
    retryAfterMs: extra.retryAfterMs,
    attempt: async () => {
      rounds.push(now);
      return answers.shift() ?? down;
    },
    afterFailure: async () => void failures.push(now),
    goOnInNewRun: async (round, retryAfterMs) => void fresh.push([round, retryAfterMs]),
  });
  return { run, rounds, failures, fresh };
}

beforeEach(() => {
  now = 1_000_000;
  mockWaits.length = 0;
  jest.spyOn(Date, 'now').mockImplementation(() => now);
  jest.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => jest.restoreAllMocks());

test('waits the backoff before each round, the last wait repeating, and says in which round it was delivered', async () => {
  const { run, failures } = plan([down, down, { outcome: 'delivered' }]);
  expect(await run).toEqual({ outcome: 'delivered', rounds: 4 });
  expect(mockWaits).toEqual([60_000, 300_000, 300_000]);
  expect(failures).toHaveLength(2);
});

test('round 0 goes at once (a released spam); a refusal ends the rounds with its words', async () => {
  const { run, rounds } = plan([down, { outcome: 'refused', refusal: 'correo inválido' }], {
    from: 0,
  });
  expect(await run).toEqual({ outcome: 'refused', refusal: 'correo inválido' });
  expect(rounds).toEqual([1_000_000, 1_060_000]);
});

test('honours a Retry-After, the one given before this run and each round’s, up to the longest wait', async () => {
  const { run } = plan(
    [
      { outcome: 'unavailable', failures: 'http-429', retryAfterMs: 3_600_000 },
      { outcome: 'delivered' },
    ],
    { retryAfterMs: 50_000, backoffSeconds: [10, 20, 120] },
  );
  await run;
  // Without Retry-After: 10 s, then 20 s; an hour asked for is held to the longest wait, 120 s.
  expect(mockWaits).toEqual([50_000, 120_000]);
});

test(`after ${ROUNDS_PER_RUN} rounds in one run, a fresh run goes on from the next round with the last Retry-After`, async () => {
  const answers = Array.from({ length: ROUNDS_PER_RUN }, (): Try => ({
    ...down,
    retryAfterMs: 90_000,
  }));
  const { run, rounds, fresh } = plan(answers, { from: 3 });
  expect(await run).toEqual({ outcome: 'continued' });
  expect(rounds).toHaveLength(ROUNDS_PER_RUN);
  expect(fresh).toEqual([[3 + ROUNDS_PER_RUN, 90_000]]);
});

test('gives up before a wait that would end past 24 hours, naming the last failure, and sleeps no more', async () => {
  const { run, rounds } = plan([down], { receivedAt: now - DEAD_AFTER_MS + 100_000 });
  expect(await run).toEqual({ outcome: 'expired', lastFailure: 'http-503' });
  expect(rounds).toHaveLength(1);
  expect(mockWaits).toEqual([60_000]);
});
