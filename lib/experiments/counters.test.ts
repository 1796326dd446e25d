/**
 * @jest-environment node
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { queryRows, startPostgres, type Postgres } from '@/test-support/postgres';
import { startRedisServer } from '@/test-support/redis-server';
import { startStuckRedis } from '@/test-support/stuck-redis';

type Counters = typeof import('./counters');

const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const DAY_MS = 24 * 60 * 60 * 1000;
const ENV_KEYS = [
  'REDIS_URL',
  'WORKFLOW_TARGET_WORLD',
  'WORKFLOW_POSTGRES_URL',
  'WORKFLOW_LOCAL_DATA_DIR',
  'ENGINE_WORLD',
  'VERCEL',
  'VERCEL_DEPLOYMENT_ID',
  'CONTACT_INBOX_DIR',
];
const saved = { ...process.env };

/** One server process: the module loaded afresh with `env`, with its own state (a process's, on globalThis). */
function instance(env: Record<string, string>): Counters {
  for (const key of ENV_KEYS) delete process.env[key];
  Object.assign(process.env, env);
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('experimentos.cuentas')];
  let counters: Counters | undefined;
  jest.isolateModules(() => {
    counters = jest.requireActual('./counters') as Counters;
  });
  return counters as Counters;
}

let logs: { level: string; text: string }[] = [];
const opened: Counters[] = [];
const open = (env: Record<string, string>) => {
  const counters = instance(env);
  opened.push(counters);
  return counters;
};
beforeEach(() => {
  logs = [];
  for (const level of ['error', 'warn', 'info'] as const)
    jest
      .spyOn(console, level)
      .mockImplementation(
        (...args: unknown[]) => void logs.push({ level, text: args.map(String).join(' ') }),
      );
});
afterEach(async () => {
  for (const counters of opened.splice(0)) await counters.closeCounters();
  process.env = { ...saved };
  jest.restoreAllMocks();
});
const said = (pattern: RegExp) => logs.filter((line) => pattern.test(line.text));
const inboxDir = () => mkdtempSync(path.join(tmpdir(), 'cuentas-'));

/** A fresh experiment name per test, so tests sharing one store never see each other's counts. */
let made = 0;
const experimentName = () => `prueba-${process.pid}-${++made}`;

/** A settled promise, or 'held' once `ms` passed: a visitor is never held on a count. */
const settledWithin = (work: Promise<unknown>, ms: number) =>
  Promise.race([
    work.then(() => 'settled'),
    new Promise((resolve) => setTimeout(() => resolve('held'), ms)),
  ]);

describe('the day a count belongs to', () => {
  it("is Mexico City's calendar day, whatever the server's time zone", () => {
    const counters = open({ CONTACT_INBOX_DIR: inboxDir() });
    expect(counters.dayOf(Date.UTC(2025, 0, 1, 5, 59))).toBe('2024-12-31');
    expect(counters.dayOf(Date.UTC(2025, 0, 1, 6, 0))).toBe('2025-01-01');
  });

  it('a read covers 1 to 400 days, oldest first, ending today', async () => {
    const counters = open({ CONTACT_INBOX_DIR: inboxDir() });
    const now = Date.UTC(2025, 2, 1, 18);
    const read = async (days: number) => {
      const answer = await counters.readCounts([], days, now);
      return answer.counting ? answer.days : [];
    };
    expect(await read(3)).toEqual(['2025-02-27', '2025-02-28', '2025-03-01']);
    expect(await read(0)).toEqual(['2025-03-01']);
    expect(await read(Number.NaN)).toEqual(['2025-03-01']);
    const most = await read(100_000);
    expect(most).toHaveLength(400);
    expect(most.at(-1)).toBe('2025-03-01');
    expect(new Set(most).size).toBe(400);
  });
});

/** The suite every store must pass; `stored` lists the fields the store holds for a day, straight from the store. */
function behavesAsACounter(
  envOf: () => Record<string, string>,
  stored: (day: string) => Promise<string[]>,
) {
  it('counts visitors and leads per experiment, variant and day, and leads by outcome', async () => {
    const counters = open(envOf());
    const name = experimentName();
    const [today, yesterday] = [Date.now(), Date.now() - DAY_MS];
    await Promise.all([
      counters.countVisit(name, 'control', yesterday),
      counters.countVisit(name, 'control'),
      counters.countVisit(name, 'control'),
      counters.countVisit(name, 'b'),
      counters.countLead(name, 'b', today),
      counters.countOutcome('received', today),
      counters.countOutcome('live', yesterday),
    ]);
    // Another instance (another server, or this one restarted) reads the same counts.
    await counters.closeCounters();
    const other = open(envOf());
    const answer = await other.readCounts([{ name, variants: ['control', 'b'] }], 2, today);
    expect(answer).toEqual({
      counting: true,
      days: [other.dayOf(yesterday), other.dayOf(today)],
      experiments: {
        [name]: {
          control: { visitors: [1, 2], leads: [0, 0] },
          b: { visitors: [0, 1], leads: [0, 1] },
        },
      },
      outcomes: expect.objectContaining({ spam: [0, 0], dead: [0, 0] }),
    });
    if (!answer.counting) return;
    // The outcomes are the store's totals: other tests on it add to them too.
    expect(answer.outcomes.received[1]).toBeGreaterThanOrEqual(1);
    expect(answer.outcomes.live[0]).toBeGreaterThanOrEqual(1);
  });

  it('loses none of 100 increments made at once', async () => {
    const counters = open(envOf());
    const name = experimentName();
    await Promise.all(Array.from({ length: 100 }, () => counters.countVisit(name, 'control')));
    const answer = await counters.readCounts([{ name, variants: ['control'] }], 1);
    expect(answer.counting && answer.experiments[name]?.control?.visitors).toEqual([100]);
    expect(said(/ERROR/)).toEqual([]);
  }, 15_000);

  it('stores nothing for a malformed name, an unknown outcome, or a day it does not keep', async () => {
    const counters = open(envOf());
    const name = experimentName();
    const now = Date.now();
    await Promise.all([
      counters.countVisit('Mayúsculas', 'control'),
      counters.countVisit(name, 'x'.repeat(41)),
      counters.countVisit(name, 'b:c'),
      counters.countLead('../fuera', 'control'),
      counters.countOutcome('perdido' as never),
      counters.countVisit(name, 'control', now - 401 * DAY_MS),
      counters.countVisit(name, 'control', now + 3 * DAY_MS),
      counters.countVisit(name, 'control', Number.NaN),
      counters.countVisit(name, 'control', 1e20),
    ]);
    for (const day of [now - 401 * DAY_MS, now, now + 3 * DAY_MS].map(counters.dayOf))
      expect(
        (await stored(day)).filter((field) => !/^o:/.test(field) && !/^[vl]:prueba-/.test(field)),
      ).toEqual([]);
    expect(await stored(counters.dayOf(now))).not.toContainEqual(
      expect.stringContaining(`${name}:`),
    );
    expect(said(/se ignoró una cuenta/)).toHaveLength(1);
  });

  it('reads only the days asked for', async () => {
    const counters = open(envOf());
    const name = experimentName();
    const now = Date.now();
    await counters.countLead(name, 'b', now - 10 * DAY_MS);
    const leads = async (days: number) => {
      const answer = await counters.readCounts([{ name, variants: ['b'] }], days, now);
      return answer.counting ? answer.experiments[name]?.b?.leads : undefined;
    };
    expect(await leads(10)).toEqual(Array(10).fill(0));
    expect(await leads(11)).toEqual([1, ...Array(10).fill(0)]);
  });
}

describe('on one machine (the local world): a file beside the local inbox', () => {
  let dir = '';
  const file = () => path.join(dir, 'experimentos.json');
  const contents = (): { dias: Record<string, Record<string, number>> } =>
    existsSync(file()) ? JSON.parse(readFileSync(file(), 'utf8')) : { dias: {} };
  beforeAll(() => {
    dir = inboxDir();
  });
  behavesAsACounter(
    () => ({ CONTACT_INBOX_DIR: dir }),
    async (day) => Object.keys(contents().dias[day] ?? {}),
  );

  it('drops the days it no longer keeps, and leaves no temporary file behind', async () => {
    const counters = open({ CONTACT_INBOX_DIR: dir });
    const old = counters.dayOf(Date.now() - 500 * DAY_MS);
    writeFileSync(
      file(),
      JSON.stringify({ dias: { ...contents().dias, [old]: { 'o:received': 3 } } }),
    );
    await counters.countOutcome('dead');
    // A count holds no one past WRITE_WAIT_MS: on a busy machine the file is written after that.
    await counters.closeCounters();
    expect(contents().dias[old]).toBeUndefined();
    expect(readdirSync(dir)).toEqual(['experimentos.json']);
  });

  it('refuses to grow past its cap, says so once, and keeps what it had', async () => {
    const own = inboxDir();
    const counters = open({ CONTACT_INBOX_DIR: own });
    const today = counters.dayOf(Date.now());
    // A file exactly at the cap (one long field, read in no time): any count more would take it over.
    const frame = JSON.stringify({ dias: { [today]: { 'v::control': 1 } } }).length;
    const full = JSON.stringify({
      dias: { [today]: { [`v:${'x'.repeat(counters.MAX_FILE_BYTES - frame)}:control`]: 1 } },
    });
    expect(full.length).toBe(counters.MAX_FILE_BYTES);
    writeFileSync(path.join(own, 'experimentos.json'), full);
    await counters.countVisit('nuevo', 'control');
    await counters.countVisit('nuevo', 'control');
    // Still readable, once the refused counts are through: the staff see what was counted.
    expect((await counters.readCounts([], 1)).counting).toBe(true);
    expect(readFileSync(path.join(own, 'experimentos.json'), 'utf8')).toBe(full);
    expect(said(/llegaría a más de 1 MB/)).toHaveLength(1);
  }, 15_000);

  it('a damaged file is neither overwritten nor read as zeros', async () => {
    const own = inboxDir();
    writeFileSync(path.join(own, 'experimentos.json'), '{"dias":[]}');
    const counters = open({ CONTACT_INBOX_DIR: own });
    await counters.countOutcome('received');
    expect(await counters.readCounts([], 7)).toEqual({
      counting: false,
      why: 'No se pudieron leer las cuentas: el archivo de cuentas está dañado.',
    });
    expect(readFileSync(path.join(own, 'experimentos.json'), 'utf8')).toBe('{"dias":[]}');
    expect(said(/ERROR: el archivo de cuentas no guardó una cuenta/)).toHaveLength(1);
  });

  it('a file over the cap is not read: the staff page is told why', async () => {
    const own = inboxDir();
    writeFileSync(path.join(own, 'experimentos.json'), ' '.repeat(1_000_001));
    const counters = open({ CONTACT_INBOX_DIR: own });
    expect(await counters.readCounts([], 7)).toEqual({
      counting: false,
      why: 'No se pudieron leer las cuentas: el archivo de cuentas pasa de 1 MB.',
    });
  });
});

describe('in Redis (REDIS_URL): one hash per day, shared by every instance', () => {
  let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  let client: Redis | undefined;
  beforeAll(async () => {
    redis = await startRedisServer(6390 + OFFSET + Math.floor(Math.random() * 1000));
    client = new Redis(redis.url);
  }, 30_000);
  afterAll(() => {
    client?.disconnect();
    redis?.stop();
  });
  behavesAsACounter(
    // The Postgres world too: Redis comes first, as for the abuse limit.
    () => ({
      REDIS_URL: redis?.url ?? '',
      WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
      WORKFLOW_POSTGRES_URL: 'postgres://nadie:nada@127.0.0.1:9/nada',
    }),
    async (day) => (await client?.hkeys(`experimentos:cuentas:${day}`)) ?? [],
  );

  it("each day's hash expires 400 days after its day", async () => {
    const counters = open({ REDIS_URL: redis?.url ?? '' });
    await counters.countOutcome('spam');
    await counters.closeCounters(); // the write landed, however long it took
    const ttl = (await client?.ttl(`experimentos:cuentas:${counters.dayOf(Date.now())}`)) ?? -1;
    expect(ttl).toBeGreaterThan(399 * 24 * 3600);
    expect(ttl).toBeLessThanOrEqual(401 * 24 * 3600);
  });

  it('on Vercel, with REDIS_URL: counts there', async () => {
    const counters = open({ REDIS_URL: redis?.url ?? '', VERCEL: '1' });
    const name = experimentName();
    await counters.countVisit(name, 'control');
    const answer = await counters.readCounts([{ name, variants: ['control'] }], 1);
    expect(answer.counting && answer.experiments[name]?.control?.visitors).toEqual([1]);
  });
});

describe("in the Postgres world's database (no Redis): one table", () => {
  let postgres: Postgres | undefined;
  const env = () => ({
    WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
    WORKFLOW_POSTGRES_URL: postgres?.url ?? '',
  });
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());
  behavesAsACounter(env, async (day) =>
    (
      await queryRows(
        postgres?.url ?? '',
        `select clave from experimentos_cuentas where dia = '${day}'`,
      )
    ).map((row) => String(row.clave)),
  );

  it('deletes the rows of days it no longer keeps', async () => {
    const counters = open(env());
    await counters.countOutcome('later');
    const old = counters.dayOf(Date.now() - 500 * DAY_MS);
    await queryRows(
      postgres?.url ?? '',
      `insert into experimentos_cuentas values ('${old}', 'o:received', 3)`,
    );
    // The first count of a process's day sweeps.
    await open(env()).countOutcome('later');
    const left = async () =>
      queryRows(postgres?.url ?? '', `select 1 from experimentos_cuentas where dia = '${old}'`);
    // The sweep is not awaited by the count: give it a moment.
    for (let i = 0; i < 50 && (await left()).length; i++)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await left()).toEqual([]);
  });

  it('two servers starting at once on an empty database both count there', async () => {
    const url = (await postgres?.createDatabase()) ?? '';
    const own = { WORKFLOW_TARGET_WORLD: '@workflow/world-postgres', WORKFLOW_POSTGRES_URL: url };
    const [a, b] = [open(own), open(own)];
    await Promise.all([a.countOutcome('received'), b.countOutcome('received')]);
    await Promise.all([a.closeCounters(), b.closeCounters()]);
    const answer = await open(own).readCounts([], 1);
    expect(answer.counting && answer.outcomes.received).toEqual([2]);
    expect(said(/ERROR/)).toEqual([]);
  });
});

describe('a store that does not answer', () => {
  it('a stuck Redis: writes give up without holding anyone, said once; a read says it cannot count', async () => {
    const stuck = await startStuckRedis();
    try {
      const counters = open({ REDIS_URL: stuck.url });
      for (let i = 0; i < 3; i++)
        expect(await settledWithin(counters.countVisit('lenta', 'control'), 2000)).toBe('settled');
      expect(stuck.heldCommands()).toBeGreaterThan(0);
      expect(await counters.readCounts([{ name: 'lenta', variants: ['control'] }], 30)).toEqual({
        counting: false,
        why: 'No se pudieron leer las cuentas: Redis no respondió en 3 s.',
      });
      // The writes themselves are given up on at 5 s, said once.
      for (let i = 0; i < 80 && !said(/no guardó/).length; i++)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(said(/\[experimentos\] ERROR: Redis no guardó una cuenta/)).toHaveLength(1);
    } finally {
      await stuck.stop();
    }
  }, 20_000);

  it('an unreachable PostgreSQL: writes return, said once; a read says it cannot count', async () => {
    const counters = open({
      WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
      WORKFLOW_POSTGRES_URL: 'postgres://nadie:nada@127.0.0.1:9/nada',
    });
    for (let i = 0; i < 3; i++)
      expect(await settledWithin(counters.countLead('lenta', 'b'), 2000)).toBe('settled');
    await counters.readCounts([], 1);
    expect(said(/\[experimentos\] ERROR: PostgreSQL no guardó una cuenta/)).toHaveLength(1);
    expect(await counters.readCounts([], 30)).toEqual({
      counting: false,
      why: expect.stringMatching(/^No se pudieron leer las cuentas: PostgreSQL falló/),
    });
  }, 15_000);
});

describe('where nothing would be shared', () => {
  it('on Vercel without REDIS_URL: nothing is counted, nothing is written, and the page is told why', async () => {
    const dir = inboxDir();
    const counters = open({ VERCEL: '1', CONTACT_INBOX_DIR: dir });
    await counters.countVisit('portada', 'control');
    await counters.countLead('portada', 'control');
    await counters.countOutcome('received');
    expect(readdirSync(dir)).toEqual([]);
    expect(await counters.readCounts([{ name: 'portada', variants: ['control'] }], 30)).toEqual({
      counting: false,
      why: expect.stringMatching(
        /^En Vercel sin REDIS_URL no se cuentan las visitas ni los prospectos.*Define REDIS_URL/,
      ),
    });
    expect(counters.countingStore()).toEqual({ kind: 'none', why: expect.any(String) });
    expect(logs).toEqual([]);
  });

  it('off Vercel, on another world and without Redis: the same', async () => {
    const dir = inboxDir();
    const counters = open({ WORKFLOW_TARGET_WORLD: 'otro-mundo', CONTACT_INBOX_DIR: dir });
    await counters.countVisit('portada', 'control');
    expect(existsSync(path.join(dir, 'experimentos.json'))).toBe(false);
    expect((await counters.readCounts([], 1)).counting).toBe(false);
  });

  it('the file stays small: 400 days of 4 experiments with 4 variants and every outcome fit well under the cap', async () => {
    const dir = inboxDir();
    const counters = open({ CONTACT_INBOX_DIR: dir });
    const names = ['titulo-portada', 'llamada-formulario', 'orden-secciones', 'texto-servicios'];
    const variants = ['control', 'b', 'c', 'd'];
    const day: Record<string, number> = {};
    for (const name of names)
      for (const variant of variants)
        Object.assign(day, { [`v:${name}:${variant}`]: 99999, [`l:${name}:${variant}`]: 999 });
    for (const outcome of ['received', 'live', 'later', 'spam', 'dead']) day[`o:${outcome}`] = 9999;
    const now = Date.now();
    const dias = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [counters.dayOf(now - i * DAY_MS), day]),
    );
    writeFileSync(path.join(dir, 'experimentos.json'), JSON.stringify({ dias }));
    await counters.countOutcome('received');
    expect(statSync(path.join(dir, 'experimentos.json')).size).toBeLessThan(
      counters.MAX_FILE_BYTES * 0.8,
    );
    expect(said(/ERROR/)).toEqual([]);
  });
});
