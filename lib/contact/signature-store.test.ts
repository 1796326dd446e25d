/**
 * @jest-environment node
 */
import { createHash } from 'node:crypto';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import { signToken } from './form-token';
import { startPostgres, type Postgres } from '@/test-support/postgres';
import { startRedisServer } from '@/test-support/redis-server';

type Store = typeof import('./signature-store');

const CLIENT = '203.0.113.44';
const OLD_ENOUGH = () => Date.now() - 10_000;
const saved = { ...process.env };

/** One server instance: the module loaded afresh with `env`, as a second machine would load it. */
function instance(env: Record<string, string>): Store {
  for (const key of [
    'REDIS_URL',
    'WORKFLOW_TARGET_WORLD',
    'WORKFLOW_POSTGRES_URL',
    'CONTACT_FORM_SECRET',
  ])
    delete process.env[key];
  Object.assign(process.env, env);
  // Another process: nothing of the last one's (the module keeps its state on globalThis, across Next's bundles).
  delete (globalThis as Record<symbol, unknown>)[Symbol.for('contacto.firmas')];
  let store: Store | undefined;
  jest.isolateModules(() => {
    store = jest.requireActual('./signature-store') as Store;
  });
  return store as Store;
}

let logs: string[] = [];
const opened: Store[] = [];
beforeEach(() => {
  logs = [];
  jest
    .spyOn(console, 'error')
    .mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(' ')));
});
afterEach(() => {
  for (const store of opened.splice(0)) store.closeSignatureStore();
  process.env = { ...saved };
  jest.restoreAllMocks();
});
const open = (env: Record<string, string>) => {
  const store = instance(env);
  opened.push(store);
  return store;
};

/** What instance `b` makes of a signature `a` issued, and whether each may spend it after. */
async function across(a: Store, b: Store) {
  const token = await a.issueToken('time', CLIENT, OLD_ENOUGH());
  const checked = await b.checkToken(token, CLIENT);
  if (checked.verdict !== 'valid') return { verdict: checked.verdict };
  return {
    verdict: checked.verdict,
    firstInA: await a.spendToken(checked.nonce),
    thenInB: await b.spendToken(checked.nonce),
  };
}

describe('the signing key and the spent signatures, per deployment', () => {
  it('without a shared store each process has its own key: another instance asks to confirm; a signature is spent once here', async () => {
    const [a, b] = [open({}), open({})];
    expect(a.formKeySource()).toBe('process');
    expect((await across(a, b)).verdict).toBe('invalid');
    expect(await across(a, a)).toEqual({ verdict: 'valid', firstInA: true, thenInB: false });
  });

  it('CONTACT_FORM_SECRET: every instance agrees, whatever else is configured', async () => {
    const env = { CONTACT_FORM_SECRET: 's'.repeat(40) };
    const [a, b] = [open(env), open(env)];
    expect(a.formKeySource()).toBe('secret');
    expect((await across(a, b)).verdict).toBe('valid');
  });

  it('a signature forged from CONTACT_SITE_KEY with the old derivation does not verify, whatever the store', async () => {
    const siteKey = 'clave-del-sitio-vista-en-navegadores';
    const derived = createHash('sha256').update(`contacto:firma:${siteKey}`).digest();
    for (const env of [{}, { CONTACT_FORM_SECRET: 's'.repeat(40) }] as Record<string, string>[]) {
      const store = open({ CONTACT_SITE_KEY: siteKey, ...env });
      const forged = signToken(derived, 'time', OLD_ENOUGH(), CLIENT);
      expect((await store.checkToken(forged, CLIENT)).verdict).toBe('invalid');
    }
  });

  it('a shared store that does not answer: a key of this process, said once, and the enquiry still checked', async () => {
    const a = open({ REDIS_URL: 'redis://127.0.0.1:9' });
    // Visitors arriving together all wait for the same answer from the store: one line in the log, not one each.
    const [token] = await Promise.all(
      Array.from({ length: 5 }, () => a.issueToken('time', CLIENT, OLD_ENOUGH())),
    );
    expect(await a.checkToken(token, CLIENT)).toEqual({
      verdict: 'valid',
      nonce: expect.any(String),
    });
    expect(logs.filter((line) => /no dio la clave de las firmas/.test(line))).toHaveLength(1);
  }, 15_000);
});

describe('in Redis (REDIS_URL): one random key for every instance, each signature spent once across them', () => {
  let redis: Awaited<ReturnType<typeof startRedisServer>> | undefined;
  beforeAll(async () => {
    redis = await startRedisServer();
  }, 30_000);
  afterAll(() => redis?.stop());

  it('a second instance verifies what the first signed, and refuses to spend it again', async () => {
    const env = { REDIS_URL: redis?.url ?? '' };
    const [a, b] = [open(env), open(env)];
    expect(a.formKeySource()).toBe('redis');
    expect(await across(a, b)).toEqual({ verdict: 'valid', firstInA: true, thenInB: false });
    expect(logs).toEqual([]);
  }, 15_000);

  it('a key emptied in the store is never signed with: this process signs with its own, saying so', async () => {
    const env = { REDIS_URL: redis?.url ?? '' };
    const client = new Redis(redis?.url ?? '');
    try {
      await client.set('contacto:firma:clave', '');
      // What an empty key would sign, which anyone could compute.
      const empty = signToken(new Uint8Array(0), 'time', OLD_ENOUGH(), CLIENT);
      const a = open(env);
      expect((await a.checkToken(empty, CLIENT)).verdict).toBe('invalid');
      expect(logs.filter((line) => /no dio la clave de las firmas/.test(line))).toHaveLength(1);
    } finally {
      await client.del('contacto:firma:clave');
      client.disconnect();
    }
  }, 15_000);
  it("a signature made with this process's key while the store did not answer stays good here once it answers", async () => {
    const port = await freePort();
    const env = { REDIS_URL: `redis://127.0.0.1:${port}` };
    const a = open(env);
    // Nothing listens yet: a cold start that found its store slow. The form a visitor fills meanwhile is signed here.
    const signedMeanwhile = await a.issueToken('time', CLIENT, OLD_ENOUGH());
    const late = await startRedisServer(port);
    try {
      // Past the 30 s of the fallback: this process asks the store again, and signs with the shared key from then on.
      jest.spyOn(Date, 'now').mockReturnValue(Date.now() + 31_000);
      const b = open(env);
      expect(await across(a, b)).toEqual({ verdict: 'valid', firstInA: true, thenInB: false });
      // The visitor who filled the form meanwhile sends it here: not asked to confirm. Elsewhere, asked once.
      expect((await a.checkToken(signedMeanwhile, CLIENT)).verdict).toBe('valid');
      expect((await b.checkToken(signedMeanwhile, CLIENT)).verdict).toBe('invalid');
      expect(logs.filter((line) => /no dio la clave de las firmas/.test(line))).toHaveLength(1);
    } finally {
      late.stop();
    }
  }, 20_000);
});

describe("in the Postgres world's database: the same, with one PostgreSQL and no Redis", () => {
  let postgres: Postgres | undefined;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.stop());

  it('a second instance verifies what the first signed, and refuses to spend it again', async () => {
    const env = {
      WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
      WORKFLOW_POSTGRES_URL: postgres?.url ?? '',
    };
    const [a, b] = [open(env), open(env)];
    expect(a.formKeySource()).toBe('postgres');
    const token = await a.issueToken('time', CLIENT, OLD_ENOUGH());
    const checked = await b.checkToken(token, CLIENT);
    expect(checked.verdict).toBe('valid');
    if (checked.verdict !== 'valid') return;
    // The spent-signature table is made at first use; the memory answers meanwhile, so wait for the shared one.
    await waitForSharedTable(a);
    await waitForSharedTable(b);
    expect(await a.spendToken(checked.nonce)).toBe(true);
    expect(await b.spendToken(checked.nonce)).toBe(false);
  }, 30_000);
});

/** A port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

/** Spends throwaway nonces until the store answers for itself (rate-limiter-flexible makes its table asynchronously). */
async function waitForSharedTable(store: Store) {
  for (let i = 0; i < 50; i++) {
    await store.spendToken(`prueba-${i}`);
    if (!logs.some((line) => /registro de firmas|PostgreSQL no respondió/.test(line))) return;
    logs = [];
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
