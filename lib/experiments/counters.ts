import 'server-only';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type Redis from 'ioredis';
import { Pool } from 'pg';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import { getInboxDir, getRateLimitConfig } from '@/lib/env/server';
import { errorName } from '@/lib/server/error-name';
import { sharedRedis, whenReady } from '@/lib/server/redis-client';
import { TimedOutError, withTimeout } from '@/lib/server/with-timeout';

// Daily counts with no personal data: visitors and leads per experiment and variant, and the staff's totals of leads
// by outcome. Kept where the abuse limit is: Redis (REDIS_URL, shared by every instance), else the Postgres world's
// database, else, on one machine (the local world), a file beside the local inbox. On Vercel without Redis nothing is
// kept: each instance would count only its own visitors, and a page showing one instance's numbers would lie.
// A caller waits WRITE_WAIT_MS at most for a write and never sees it fail; the write itself goes on, bounded by its
// store's own timeouts, and how it ends is what the log says (once when counts stop reaching the store, once when they
// reach it again): a slow count that lands is no error. A read answers within READ_WAIT_MS, or says it cannot count.

export type Day = string; // 'YYYY-MM-DD' in America/Mexico_City
export type LeadOutcome = 'received' | 'live' | 'later' | 'spam' | 'dead';
export type CountsRead =
  | {
      counting: true;
      days: Day[];
      experiments: Record<string, Record<string, { visitors: number[]; leads: number[] }>>;
      outcomes: Record<LeadOutcome, number[]>;
    }
  | { counting: false; why: string };

export const LEAD_OUTCOMES: readonly LeadOutcome[] = ['received', 'live', 'later', 'spam', 'dead'];
/** Days kept, and the most a read may ask for: a year and a bit, enough to compare a season with the last. */
export const KEEP_DAYS = 400;
/** As the abuse limit's wait (LIMIT_WAIT_MS): a count is never worth holding anything for longer. */
export const WRITE_WAIT_MS = 300;
/** The staff page waits this long, at most, for the counts. */
export const READ_WAIT_MS = 3000;
/** A write may wait this long for a connection: off the caller's wait, so a cold instance's first counts land. */
const CONNECT_WAIT_MS = 2000;
/** A write still unanswered by then is given up on (a Redis client's transaction can outlive its command timeout). */
const STORE_WAIT_MS = 5000;
/** The disk file's cap: about 400 days of 4 experiments with 4 variants take a third of it. */
export const MAX_FILE_BYTES = 1_000_000;
/** What one read may ask for: the rest is left out, so a read costs at most this × KEEP_DAYS numbers. */
const MAX_READ_EXPERIMENTS = 20;
const MAX_READ_VARIANTS = 10;

// The names of experiments and variants as lib/experiments defines them: anything else (a cookie's value passed on
// by mistake) is dropped rather than stored, so nothing a visitor writes can grow the store.
const NAME = /^[a-z0-9-]{1,40}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;

const dayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Mexico_City',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The agency's calendar day of `at` (Mexico City), whatever the server's own time zone. */
export function dayOf(at: number): Day {
  const parts = Object.fromEntries(
    dayFormat.formatToParts(at).map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The calendar day `offset` days from `day` (date arithmetic on the date itself, no time zone involved). */
function shiftDay(day: Day, offset: number): Day {
  return new Date(Date.parse(`${day}T00:00:00Z`) + offset * DAY_MS).toISOString().slice(0, 10);
}

// One field per count of a day, the same in every store; short, since the disk file is capped. Names never hold ':'.
const visitsField = (experiment: string, variant: string) => `v:${experiment}:${variant}`;
const leadsField = (experiment: string, variant: string) => `l:${experiment}:${variant}`;
const outcomeField = (outcome: LeadOutcome) => `o:${outcome}`;

/** A visitor's first view of the day in a running experiment (the proxy decides "first"; this only adds one). */
export function countVisit(experiment: string, variant: string, at = Date.now()): Promise<void> {
  return NAME.test(experiment) && NAME.test(variant)
    ? add(visitsField(experiment, variant), at)
    : ignored();
}

/** A confirmed person's lead (not spam, not QA) from a variant. */
export function countLead(experiment: string, variant: string, at = Date.now()): Promise<void> {
  return NAME.test(experiment) && NAME.test(variant)
    ? add(leadsField(experiment, variant), at)
    : ignored();
}

/**
 * The staff's totals: each lead is counted once per outcome it reaches (received when taken; then live, later, spam
 * or dead).
 */
export function countOutcome(outcome: LeadOutcome, at = Date.now()): Promise<void> {
  return LEAD_OUTCOMES.includes(outcome) ? add(outcomeField(outcome), at) : ignored();
}

/**
 * The last `days` days (bounded, at most 400), for the given experiments and their variants: one read, bounded
 * cost.
 */
export async function readCounts(
  experiments: { name: string; variants: string[] }[],
  days: number,
  now = Date.now(),
): Promise<CountsRead> {
  const store = countingStore();
  if (store.kind === 'none') return { counting: false, why: store.why };
  const window = dayWindow(days, now);
  const asked = experiments
    .filter((experiment) => NAME.test(experiment.name))
    .slice(0, MAX_READ_EXPERIMENTS)
    .map(({ name, variants }) => ({
      name,
      variants: variants.filter((v) => NAME.test(v)).slice(0, MAX_READ_VARIANTS),
    }));
  const fields = [
    ...asked.flatMap(({ name, variants }) =>
      variants.flatMap((v) => [visitsField(name, v), leadsField(name, v)]),
    ),
    ...LEAD_OUTCOMES.map(outcomeField),
  ];
  // This process's counts still on their way are part of what it has counted: read after them.
  const inFlight = Promise.allSettled(state.inFlight);
  const read = inFlight.then(() => BACKENDS[store.kind].read(store.at, window, fields));
  try {
    const counts = await withTimeout(read, READ_WAIT_MS);
    const series = (field: string) => window.map((day) => counts.get(day)?.get(field) ?? 0);
    const byExperiment = asked.map(({ name, variants }) => [
      name,
      Object.fromEntries(
        variants.map((v) => [
          v,
          { visitors: series(visitsField(name, v)), leads: series(leadsField(name, v)) },
        ]),
      ),
    ]);
    const outcomes = Object.fromEntries(
      LEAD_OUTCOMES.map((outcome) => [outcome, series(outcomeField(outcome))]),
    );
    return {
      counting: true,
      days: window,
      experiments: Object.fromEntries(byExperiment),
      outcomes: outcomes as Record<LeadOutcome, number[]>,
    };
  } catch (error) {
    const what =
      error instanceof TimedOutError
        ? `no respondió en ${READ_WAIT_MS / 1000} s`
        : error instanceof FileFullError
          ? `pasa de ${MAX_FILE_BYTES / 1_000_000} MB`
          : error instanceof DamagedFileError || error instanceof SyntaxError
            ? 'está dañado'
            : `falló (${errorName(error)})`;
    const why = `No se pudieron leer las cuentas: ${STORE_WORDS[store.kind]} ${what}.`;
    console.error(`[experimentos] ERROR: ${why}`);
    return { counting: false, why };
  }
}

/** The last `days` days up to `now`'s, oldest first; between 1 and KEEP_DAYS of them. */
function dayWindow(days: number, now: number): Day[] {
  const count = Math.min(KEEP_DAYS, Math.max(1, Math.floor(Number.isFinite(days) ? days : 1)));
  const today = dayOf(now);
  return Array.from({ length: count }, (_, i) => shiftDay(today, i - count + 1));
}

/** Where the counts are kept here, or why nowhere (the start-up report and the staff page say it). */
export type CountingStore =
  | { kind: 'redis' | 'postgres'; at: string } // the store's URL
  | { kind: 'disk'; at: string } // the file
  | { kind: 'none'; why: string };

const ON_VERCEL_WITHOUT_REDIS =
  'En Vercel sin REDIS_URL no se cuentan las visitas ni los prospectos de los experimentos, ni los totales del ' +
  'equipo: cada instancia contaría solo los suyos. Define REDIS_URL (la misma Redis del límite de solicitudes).';
const NO_SHARED_STORE =
  'Sin REDIS_URL, y con un motor de entregas que no es el local ni PostgreSQL, no hay dónde guardar cuentas que ' +
  'compartan los servidores: no se cuentan las visitas, los prospectos ni los totales del equipo. Define REDIS_URL.';
const STORE_WORDS = {
  redis: 'Redis',
  postgres: 'PostgreSQL',
  disk: 'el archivo de cuentas',
} as const;

let chosen: CountingStore | undefined;

/** Chosen once per module, at first use: the proxy counts on every first visit of the day. */
export function countingStore(): CountingStore {
  return (chosen ??= chooseStore());
}

function chooseStore(): CountingStore {
  const { redisUrl, postgresUrl, onVercel } = getRateLimitConfig();
  if (redisUrl) return { kind: 'redis', at: redisUrl };
  if (postgresUrl) return { kind: 'postgres', at: postgresUrl };
  const world = getWorkflowWorld();
  // The Postgres world on the SDK's default address (no WORKFLOW_POSTGRES_URL): the database the engine itself uses.
  if (world.kind === 'postgres') return { kind: 'postgres', at: world.url };
  if (onVercel) return { kind: 'none', why: ON_VERCEL_WITHOUT_REDIS };
  if (world.kind !== 'local') return { kind: 'none', why: NO_SHARED_STORE };
  return { kind: 'disk', at: path.join(getInboxDir(), 'experimentos.json') };
}

/**
 * What this process holds: on globalThis, because Next loads this module once per bundle (the proxy, the actions, the
 * staff page) in one process, and the disk's write queue must be one per process or increments are lost.
 */
type Held = {
  inFlight: Set<Promise<void>>;
  redis?: { url: string; client: Redis; release: () => void };
  postgres?: { url: string; pool: Pool; ready: () => Promise<void>; sweptDay?: Day };
  disk: { last: Promise<void>; next?: { adds: Map<string, number>; done: Promise<void> } };
  failing: boolean;
  badNameSaid: boolean;
};
const HELD = Symbol.for('experimentos.cuentas');
const state: Held = ((globalThis as { [HELD]?: Held })[HELD] ??= {
  inFlight: new Set(),
  disk: { last: Promise.resolve() },
  failing: false,
  badNameSaid: false,
});

async function add(field: string, at: number): Promise<void> {
  if (Number.isNaN(new Date(at).getTime())) return ignored();
  const day = dayOf(at);
  // A day the store no longer keeps, or one not begun: nothing to add to.
  const today = dayOf(Date.now());
  if (day < shiftDay(today, -KEEP_DAYS) || day > shiftDay(today, 1)) return ignored();
  let store: CountingStore;
  try {
    store = countingStore();
  } catch (error) {
    return notStored('none', error);
  }
  if (store.kind === 'none') return;
  const { kind, at: where } = store;
  const work = Promise.resolve()
    .then(() => withTimeout(BACKENDS[kind].add(where, day, field), STORE_WAIT_MS))
    .then(
      () => stored(kind),
      (error: unknown) => notStored(kind, error),
    )
    .finally(() => state.inFlight.delete(work));
  state.inFlight.add(work);
  await withTimeout(work, WRITE_WAIT_MS).catch(() => {});
}

/** Said once when counts stop reaching the store, and once when they reach it again. */
function notStored(kind: CountingStore['kind'], error: unknown) {
  if (!state.failing) {
    const what =
      error instanceof FileFullError
        ? error.message
        : `${kind === 'none' ? 'su almacén' : STORE_WORDS[kind]} no guardó una cuenta`;
    console.error(
      `[experimentos] ERROR: ${what} (${errorName(error)}); las cuentas de los experimentos y los totales del ` +
        `equipo quedan cortas mientras tanto`,
    );
  }
  state.failing = true;
}

function stored(kind: keyof typeof STORE_WORDS) {
  if (state.failing)
    console.info(`[experimentos] Las cuentas vuelven a guardarse en ${STORE_WORDS[kind]}`);
  state.failing = false;
}

function ignored(): Promise<void> {
  if (!state.badNameSaid)
    console.warn(
      '[experimentos] AVISO: se ignoró una cuenta con un nombre, resultado o fecha inválidos',
    );
  state.badNameSaid = true;
  return Promise.resolve();
}

/** A store, given where it is (a URL, a file). */
type Backend = {
  add: (at: string, day: Day, field: string) => Promise<void>;
  /** The counts of `fields` on `days`: day -> field -> n, missing when none. */
  read: (at: string, days: Day[], fields: string[]) => Promise<Map<Day, Map<string, number>>>;
};

// Redis: one hash per day, a field per count; it expires KEEP_DAYS after its day, so the store holds at most
// KEEP_DAYS hashes. The process's one client (lib/server/redis-client.ts), as the abuse limit's.
const redisKey = (day: Day) => `experimentos:cuentas:${day}`;

function redisClient(url: string, waitMs: number): Promise<Redis> {
  if (state.redis?.url !== url) {
    state.redis?.release();
    state.redis = { url, ...sharedRedis(url) };
  }
  const { client } = state.redis;
  return whenReady(client, waitMs).then(() => client);
}

const redisBackend: Backend = {
  async add(url, day, field) {
    const client = await redisClient(url, CONNECT_WAIT_MS);
    const expiresAt = Math.floor(
      (Date.parse(`${day}T00:00:00Z`) + (KEEP_DAYS + 1) * DAY_MS) / 1000,
    );
    const replies = await client
      .multi()
      .hincrby(redisKey(day), field, 1)
      .expireat(redisKey(day), expiresAt)
      .exec();
    const failed = replies?.find(([error]) => error)?.[0];
    if (!replies || failed) throw failed ?? new Error('la transacción de Redis se descartó');
  },
  async read(url, days, fields) {
    const client = await redisClient(url, READ_WAIT_MS);
    // One round trip: an HMGET per day, pipelined.
    const replies =
      (await client.pipeline(days.map((day) => ['hmget', redisKey(day), ...fields])).exec()) ?? [];
    const counts = new Map<Day, Map<string, number>>();
    days.forEach((day, i) => {
      const [error, values] = replies[i] ?? [new Error('sin respuesta')];
      if (error) throw error;
      counts.set(
        day,
        new Map(fields.map((field, f) => [field, Number((values as (string | null)[])[f] ?? 0)])),
      );
    });
    return counts;
  },
};

// PostgreSQL: one table in the Postgres world's database, a row per day and count; rows older than KEEP_DAYS are
// deleted once a day by whichever server writes first that day.
const TABLE = 'experimentos_cuentas';
const TABLE_SQL = `create table if not exists ${TABLE}
  (dia date not null, clave varchar(100) not null, n bigint not null default 0, primary key (dia, clave))`;
// Any number, the same on every server: two servers starting at once on an empty database take turns to make the
// table (see lib/abuse/limiter.ts's makeLimitTable for the race a bare CREATE TABLE IF NOT EXISTS loses).
const TABLE_LOCK = 0x6578706572;

function postgres(url: string) {
  if (state.postgres?.url === url) return state.postgres;
  void state.postgres?.pool.end().catch(() => {});
  const pool = new Pool({
    connectionString: url,
    max: 2,
    connectionTimeoutMillis: CONNECT_WAIT_MS,
    idleTimeoutMillis: 30_000,
    // A query nobody waits for any more still ends by then.
    statement_timeout: 5000,
    query_timeout: 6000,
  });
  // An idle client's error (the database restarting) is the pool's to handle, never the process's.
  pool.on('error', () => {});
  let making: Promise<void> | undefined;
  const ready = () =>
    (making ??= makeTable(pool).catch((error: unknown) => {
      making = undefined; // the next count tries again
      throw error;
    }));
  return (state.postgres = { url, pool, ready });
}

async function makeTable(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    await client.query('select pg_advisory_xact_lock($1)', [TABLE_LOCK]);
    await client.query(TABLE_SQL);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

const postgresBackend: Backend = {
  async add(url, day, field) {
    const db = postgres(url);
    await db.ready();
    await db.pool.query(
      `insert into ${TABLE} (dia, clave, n) values ($1, $2, 1)
        on conflict (dia, clave) do update set n = ${TABLE}.n + 1`,
      [day, field],
    );
    const today = dayOf(Date.now());
    if (db.sweptDay !== today) {
      db.sweptDay = today;
      // Off the count's wait: a slow delete must not make the count look lost.
      db.pool
        .query(`delete from ${TABLE} where dia < $1`, [shiftDay(today, -KEEP_DAYS)])
        .catch(() => {
          db.sweptDay = undefined;
        });
    }
  },
  async read(url, days, fields) {
    const db = postgres(url);
    await db.ready();
    const { rows } = await db.pool.query<{ dia: string; clave: string; n: string }>(
      `select dia::text as dia, clave, n from ${TABLE} where dia between $1 and $2 and clave = any($3::text[])`,
      [days[0], days[days.length - 1], fields],
    );
    const counts = new Map<Day, Map<string, number>>();
    for (const { dia, clave, n } of rows) {
      const day = counts.get(dia) ?? new Map<string, number>();
      counts.set(dia, day.set(clave, Number(n)));
    }
    return counts;
  },
};

// Disk, on one machine: a JSON file beside the local inbox, replaced whole by a rename (a reader never sees half of
// it), and increments queued in this process so none is lost between a read and the write after it. One process per
// folder: two `next start` on the same local world folder are not a supported setup (the local world itself is one
// machine's), and each would overwrite the other's counts.
type CountsFile = { dias: Record<Day, Record<string, number>> };

/** The file as this module writes it; checked by hand, as a schema library takes a second for a full file. */
function countsFileOf(value: unknown): CountsFile {
  const dias = (value as Partial<CountsFile> | null)?.dias;
  const isCount = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
  const isObject = (v: unknown): v is object =>
    typeof v === 'object' && v !== null && !Array.isArray(v);
  const valid =
    isObject(dias) &&
    Object.entries(dias).every(
      ([day, fields]) => DAY.test(day) && isObject(fields) && Object.values(fields).every(isCount),
    );
  if (!valid) throw new DamagedFileError();
  return { dias };
}

class DamagedFileError extends Error {
  constructor() {
    super('el archivo de cuentas no tiene la forma esperada');
    this.name = 'DamagedFileError';
  }
}

class FileFullError extends Error {
  constructor(file: string) {
    super(
      `el archivo ${file} llegaría a más de ${MAX_FILE_BYTES / 1_000_000} MB: no se guardan más cuentas`,
    );
    this.name = 'FileFullError';
  }
}

async function readFileCounts(file: string): Promise<CountsFile> {
  const size = await stat(file).then(
    (info) => info.size,
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? -1 : Promise.reject(error)),
  );
  if (size < 0) return { dias: {} };
  if (size > MAX_FILE_BYTES) throw new FileFullError(file);
  return countsFileOf(JSON.parse(await readFile(file, 'utf8')));
}

/** Adds `adds` (day|field -> n) to the file, dropping the days it no longer keeps. */
async function writeBatch(file: string, adds: Map<string, number>): Promise<void> {
  const counts = await readFileCounts(file);
  for (const [slot, n] of adds) {
    const [day = '', field = ''] = slot.split('|');
    const fields = (counts.dias[day] ??= {});
    fields[field] = (fields[field] ?? 0) + n;
  }
  const oldest = shiftDay(dayOf(Date.now()), -KEEP_DAYS);
  for (const day of Object.keys(counts.dias)) if (day < oldest) delete counts.dias[day];
  const text = JSON.stringify(counts);
  if (Buffer.byteLength(text) > MAX_FILE_BYTES) throw new FileFullError(file);
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}

const diskBackend: Backend = {
  add(file, day, field) {
    const queue = state.disk;
    // Every increment that arrives while a write is under way goes into the next one: one write per batch, in order.
    if (!queue.next) {
      const adds = new Map<string, number>();
      const done = queue.last.then(() => {
        queue.next = undefined;
        return writeBatch(file, adds);
      });
      queue.next = { adds, done };
      queue.last = done.catch(() => {});
    }
    const slot = `${day}|${field}`;
    queue.next.adds.set(slot, (queue.next.adds.get(slot) ?? 0) + 1);
    return queue.next.done;
  },
  async read(file, days, fields) {
    const { dias } = await readFileCounts(file);
    return new Map(
      days.map((day) => [day, new Map(fields.map((field) => [field, dias[day]?.[field] ?? 0]))]),
    );
  },
};

const BACKENDS: Record<Exclude<CountingStore['kind'], 'none'>, Backend> = {
  redis: redisBackend,
  postgres: postgresBackend,
  disk: diskBackend,
};

/** Waits for the writes under way, lets go of the store's clients and forgets this process's state (tests). */
export async function closeCounters(): Promise<void> {
  await Promise.allSettled([...state.inFlight, state.disk.last]);
  state.redis?.release();
  state.redis = undefined;
  await state.postgres?.pool.end().catch(() => {});
  state.postgres = undefined;
  const global = globalThis as { [HELD]?: Held };
  if (global[HELD] === state) delete global[HELD];
}
