/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startPostgres, type Postgres } from '@/test-support/postgres';
import { startRedisServer } from '@/test-support/redis-server';
import type { CookieJar } from './sign-in';

/*
 * The staff's sign-in, tried as an attacker would: the link and the session cookie are the only ways in. The mail
 * sender is the one boundary faked; the stores are the real ones: the local world's folder, Redis, PostgreSQL.
 */
const mockSendMail = jest.fn(async (..._args: unknown[]) => ({ sent: true as const }));
jest.mock('@/lib/server/mail', () => ({ sendMail: (...args: unknown[]) => mockSendMail(...args) }));

type SignIn = typeof import('./sign-in');
const STAFF = 'ventas@agencia.mx';
const SECRET = 'una-clave-larga-de-prueba-para-las-sesiones-0123456789';
const saved = { ...process.env };

/** A browser's cookies, as Next's cookies() gives them to iron-session. */
function browser(): CookieJar & { values: Map<string, string> } {
  const values = new Map<string, string>();
  const jar = {
    values,
    get: (name: string) => (values.has(name) ? { name, value: values.get(name) ?? '' } : undefined),
    getAll: () => [...values].map(([name, value]) => ({ name, value })),
    has: (name: string) => values.has(name),
    set: (
      name: string | { name: string; value: string; maxAge?: number },
      value = '',
      options: { maxAge?: number } = {},
    ) => {
      const [key, text, maxAge] =
        typeof name === 'string'
          ? [name, value, options.maxAge]
          : [name.name, name.value, name.maxAge];
      if (maxAge === 0) values.delete(key);
      else values.set(key, text);
      return jar;
    },
    delete: (name: string) => {
      values.delete(name);
      return jar;
    },
  };
  return jar as unknown as CookieJar & { values: Map<string, string> };
}

let staff: SignIn;
let mails: { to: string; text: string }[];
let later: (() => Promise<void>)[];
// Every server started in a test, so that each lets go of its stores' clients.
const started: SignIn[] = [];
/** A server started now with process.env as it is (its own modules: nothing in memory from another). */
function startServer(): SignIn {
  let server: SignIn | undefined;
  jest.isolateModules(() => {
    server = jest.requireActual('./sign-in') as SignIn;
  });
  started.push(server as SignIn);
  return server as SignIn;
}
beforeEach(() => {
  process.env = {
    ...saved,
    STAFF_EMAILS: `${STAFF}, jefa@agencia.mx`,
    STAFF_SESSION_SECRET: SECRET,
  };
  Object.assign(process.env, {
    ALERT_SMTP_URL: 'smtp://127.0.0.1:2525',
    ALERT_EMAIL_TO: 'avisos@agencia.mx',
    ALERT_EMAIL_FROM: 'Formulario <avisos@agencia.mx>',
    NEXT_PUBLIC_SITE_URL: 'https://www.agencia.mx',
    REDIS_URL: '',
    WORKFLOW_TARGET_WORLD: 'local',
    TRUST_PROXY_HEADERS: '1',
    // The local world's data folder: where this one server keeps what must outlive it.
    CONTACT_INBOX_DIR: mkdtempSync(path.join(tmpdir(), 'equipo-')),
  });
  staff = startServer();
  mails = [];
  later = [];
  mockSendMail.mockImplementation(async (config: unknown, mail: unknown) => {
    mails.push({ to: (config as { to: string }).to, text: (mail as { text: string }).text });
    return { sent: true };
  });
});
afterEach(() => {
  for (const server of started.splice(0)) server.closeStaffStores();
  rmSync(process.env.CONTACT_INBOX_DIR ?? '', { recursive: true, force: true });
  process.env = { ...saved };
  jest.restoreAllMocks();
});

const from = (address: string) => new Headers({ 'x-forwarded-for': address });
async function ask(email: string, jar = browser(), client = '203.0.113.10', server = staff) {
  const answer = await server.requestLink(
    email,
    from(client),
    jar,
    (send) => void later.push(send),
  );
  await Promise.all(later.splice(0).map((send) => send()));
  return { answer, jar };
}
const linkIn = (text: string) =>
  new URL(text.match(/https:\S+/)?.[0] ?? 'https://x').searchParams.get('t');
const lastLink = () => linkIn(mails.at(-1)?.text ?? '');
/** A browser signed in as `email` on `server`: it asked for its link there and opened it. */
async function signedInOn(server: SignIn, email = STAFF, client = '203.0.113.10') {
  const { jar } = await ask(email, browser(), client, server);
  expect(await server.signIn(lastLink(), jar)).toBe('signed-in');
  return jar;
}
const copyOf = (jar: ReturnType<typeof browser>) => {
  const copy = browser();
  for (const [name, value] of jar.values) copy.values.set(name, value);
  return copy;
};

describe('asking for a link', () => {
  it('mails a listed address its link, and answers an unlisted one the same, mailing nothing', async () => {
    const listed = await ask(STAFF);
    const unlisted = await ask('intruso@example.com');
    expect(listed.answer).toBe('sent');
    expect(unlisted.answer).toBe(listed.answer);
    // Both browsers got the same kind of pending cookie: nothing in the answer tells the two apart.
    expect(unlisted.jar.values.has(staff.PENDING_COOKIE)).toBe(true);
    expect(mails).toEqual([
      { to: STAFF, text: expect.stringContaining('https://www.agencia.mx/equipo/entrar?t=') },
    ]);
  });

  it('never waits on the mail server: the link goes out after the answer', async () => {
    mockSendMail.mockImplementation(() => new Promise(() => {}));
    const jar = browser();
    await expect(
      staff.requestLink(STAFF, from('203.0.113.11'), jar, (send) => void later.push(send)),
    ).resolves.toBe('sent');
    expect(later).toHaveLength(1);
  });

  it('limits requests per address, whoever asks, and per client, whatever address it types', async () => {
    const byAddress = [];
    for (let i = 0; i < 6; i++)
      byAddress.push((await ask(STAFF, browser(), `198.51.100.${i}`)).answer);
    expect(byAddress).toEqual(['sent', 'sent', 'sent', 'sent', 'sent', 'limited']);
    const byClient = [];
    for (let i = 0; i < 11; i++)
      byClient.push((await ask(`nadie${i}@example.com`, browser(), '192.0.2.7')).answer);
    expect(byClient.slice(0, 10).every((answer) => answer === 'sent')).toBe(true);
    expect(byClient[10]).toBe('limited');
  });

  it('counts the client by the trusted hop, not by what it writes in X-Forwarded-For', async () => {
    const answers = [];
    for (let i = 0; i < 11; i++) {
      const spoofed = new Headers({ 'x-forwarded-for': `10.0.0.${i}, 192.0.2.8` });
      answers.push(await staff.requestLink(`otro${i}@example.com`, spoofed, browser(), () => {}));
    }
    expect(answers[10]).toBe('limited');
  });

  it('refuses what is not an address, without a cookie or a mail', async () => {
    for (const typed of ['', 'sin-arroba', `${'a'.repeat(250)}@agencia.mx`, 42]) {
      const jar = browser();
      expect(await staff.requestLink(typed, from('203.0.113.12'), jar, () => {})).toBe('invalid');
      expect(jar.values.size).toBe(0);
    }
  });
});

describe("a stranger asking for links in a staff member's name", () => {
  const strangers = async (count: number, email = STAFF) => {
    const answers = [];
    for (let i = 0; i < count; i++)
      answers.push((await ask(email, browser(), `198.51.100.${i + 1}`)).answer);
    return answers;
  };

  it('cannot keep out the browser that signed in before: it asks on its own allowance, and its link works', async () => {
    const jar = await signedInOn(staff);
    await staff.signOut(jar);
    expect(await strangers(6)).toContain('limited');
    const mailed = mails.length;
    expect((await ask(STAFF, jar)).answer).toBe('sent');
    expect(mails).toHaveLength(mailed + 1);
    expect(await staff.signIn(lastLink(), jar)).toBe('signed-in');
    expect(await staff.staffSession(jar)).toMatchObject({ email: STAFF });
  });

  it('gives that allowance only for the address it signed in with, and never to a copy sealed with another secret', async () => {
    const boss = await signedInOn(staff, 'jefa@agencia.mx');
    const known = boss.values.get(staff.KNOWN_COOKIE) ?? '';
    expect(known).not.toBe('');
    expect(await strangers(6)).toContain('limited');
    expect((await ask(STAFF, boss)).answer).toBe('limited');
    const { sealData } = jest.requireActual('iron-session') as typeof import('iron-session');
    const { createHash } = jest.requireActual('node:crypto') as typeof import('node:crypto');
    const forged = browser();
    const h = createHash('sha256').update(STAFF).digest('base64url');
    const anyShape = { p: 'conocido', h, k: 'x', email: STAFF, hash: h, id: 'x' };
    forged.values.set(
      staff.KNOWN_COOKIE,
      await sealData(anyShape, { password: `otra-${SECRET}`, ttl: 3600 }),
    );
    expect((await ask(STAFF, forged)).answer).toBe('limited');
  });

  it('can have strangers mail one address only a few times an hour, however they spread their requests', async () => {
    const now = Date.now();
    const answers = [];
    // Two requests a quarter of an hour, each from a new client: the hour's cap holds, not only a quarter's.
    for (let quarter = 0; quarter < 4; quarter++) {
      jest.spyOn(Date, 'now').mockReturnValue(now + quarter * 16 * 60 * 1000);
      for (let i = 0; i < 2; i++)
        answers.push((await ask(STAFF, browser(), `192.0.2.${quarter * 10 + i}`)).answer);
    }
    expect(mails.length).toBeLessThanOrEqual(5);
    expect(answers.slice(5)).toEqual(['limited', 'limited', 'limited']);
  });
});

describe('signing in with the link', () => {
  it('works once, in the browser that asked for it', async () => {
    const { jar } = await ask(STAFF);
    const token = linkIn(mails[0]?.text ?? '');
    const pending = jar.values.get(staff.PENDING_COOKIE) ?? '';
    expect(await staff.signIn(token, jar)).toBe('signed-in');
    expect(await staff.staffSession(jar)).toMatchObject({ email: STAFF });
    // The same link again, even from that browser with its old cookie put back: spent.
    const replay = browser();
    replay.values.set(staff.PENDING_COOKIE, pending);
    expect(await staff.signIn(token, replay)).toBe('used');
    expect(await staff.staffSession(replay)).toBeUndefined();
  });

  it('does nothing in another browser (a forwarded mail, a mail scanner), and is still good where it was asked', async () => {
    const { jar } = await ask(STAFF);
    const token = linkIn(mails[0]?.text ?? '');
    const other = browser();
    expect(await staff.signIn(token, other)).toBe('other-browser');
    other.values.set(staff.PENDING_COOKIE, 'una-cookie-inventada');
    expect(await staff.signIn(token, other)).toBe('other-browser');
    expect(await staff.staffSession(other)).toBeUndefined();
    expect(await staff.signIn(token, jar)).toBe('signed-in');
  });

  it('expires after its minutes', async () => {
    const { jar } = await ask(STAFF);
    const token = linkIn(mails[0]?.text ?? '');
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + (staff.LINK_TTL_S + 120) * 1000);
    expect(await staff.signIn(token, jar)).toBe('invalid');
  });

  it('refuses a tampered token, one sealed with another secret, and one for an address off the list', async () => {
    const { jar } = await ask(STAFF);
    const token = linkIn(mails[0]?.text ?? '') ?? '';
    const flipped = token.slice(0, 40) + (token[40] === 'A' ? 'B' : 'A') + token.slice(41);
    expect(await staff.signIn(flipped, jar)).toBe('invalid');
    expect(await staff.signIn(`${token}x`.repeat(300), jar)).toBe('invalid');
    const { sealData } = jest.requireActual('iron-session') as typeof import('iron-session');
    const pending = jar.values.get(staff.PENDING_COOKIE) ?? '';
    const { createHash } = jest.requireActual('node:crypto') as typeof import('node:crypto');
    const forged = {
      p: 'enlace',
      email: STAFF,
      browser: createHash('sha256').update(pending).digest('base64url'),
      id: 'x',
    };
    const otherSecret = await sealData(forged, { password: `otra-${SECRET}`, ttl: 600 });
    expect(await staff.signIn(otherSecret, jar)).toBe('invalid');
    const offList = await sealData(
      { ...forged, email: 'intruso@example.com' },
      { password: SECRET, ttl: 600 },
    );
    expect(await staff.signIn(offList, jar)).toBe('invalid');
  });
});

describe('the session cookie', () => {
  async function signedIn() {
    const { jar } = await ask(STAFF);
    await staff.signIn(linkIn(mails[0]?.text ?? ''), jar);
    return jar;
  }

  it('is refused when forged, tampered or sealed with another secret', async () => {
    const jar = await signedIn();
    const sealed = jar.values.get(staff.SESSION_COOKIE) ?? '';
    const { sealData } = jest.requireActual('iron-session') as typeof import('iron-session');
    const forgeries = [
      'eyJlbWFpbCI6InZlbnRhc0BhZ2VuY2lhLm14In0',
      sealed.slice(0, 30) + (sealed[30] === 'A' ? 'B' : 'A') + sealed.slice(31),
      await sealData(
        { p: 'sesion', email: STAFF, sid: 'x', at: Date.now() },
        { password: `otra-${SECRET}`, ttl: 3600 },
      ),
    ];
    for (const value of forgeries) {
      const forged = browser();
      forged.values.set(staff.SESSION_COOKIE, value);
      expect(await staff.staffSession(forged)).toBeUndefined();
    }
  });

  it('ends after a working day', async () => {
    const jar = await signedIn();
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + (staff.SESSION_TTL_S + 60) * 1000);
    expect(await staff.staffSession(jar)).toBeUndefined();
  });

  it('ends when the address is taken off the list', async () => {
    const jar = await signedIn();
    process.env.STAFF_EMAILS = 'jefa@agencia.mx';
    expect(await startServer().staffSession(jar)).toBeUndefined();
  });

  it('is ended by signing out, even if someone kept a copy of it', async () => {
    const jar = await signedIn();
    const copy = browser();
    copy.values.set(staff.SESSION_COOKIE, jar.values.get(staff.SESSION_COOKIE) ?? '');
    await staff.signOut(jar);
    expect(jar.values.has(staff.SESSION_COOKIE)).toBe(false);
    expect(await staff.staffSession(copy)).toBeUndefined();
  });
});

describe('cut, forged and foreign tokens and cookies', () => {
  // Each of these once made iron-session throw (Wrong mac prefix, a bad version, no password id): a 500, not a refusal.
  const garbage = [
    'Fe26.1*a*b*c*d*e*f*g',
    'Fe26.2*a*b*c*d*e*f*g',
    'Fe26.2*1*b*c*d*e*f*g~2',
    'Fe26.2**b*c*d*e*f*g',
    '*******',
    'Fe26.2*1*x*x*x*0*x*x~99',
    '~',
    '%FF',
  ];

  it('are refused as links: the sign-in page says the link does not work', async () => {
    const { jar } = await ask(STAFF);
    const token = lastLink() ?? '';
    const cut = [10, 40, token.indexOf('*', 20), token.length - 3].map((at) => token.slice(0, at));
    // The `~2` after a seal is outside its MAC: iron-session 9 ignores it, so another one there is the same link.
    for (const bad of [...garbage, ...cut]) {
      await expect(staff.signIn(bad, jar)).resolves.toBe('invalid');
    }
    expect(await staff.signIn(token, jar)).toBe('signed-in');
  });

  it('are refused as a session: signed out, and signing out with one is harmless', async () => {
    const jar = await signedInOn(staff);
    const sealed = jar.values.get(staff.SESSION_COOKIE) ?? '';
    const cut = [10, 40, sealed.length - 3].map((at) => sealed.slice(0, at));
    for (const bad of [...garbage, ...cut]) {
      const forged = browser();
      forged.values.set(staff.SESSION_COOKIE, bad);
      forged.values.set(staff.KNOWN_COOKIE, bad);
      await expect(staff.staffSession(forged)).resolves.toBeUndefined();
      await expect(staff.signOut(forged)).resolves.toBeUndefined();
      await expect(
        staff.requestLink(STAFF, from('203.0.113.20'), forged, () => {}),
      ).resolves.toMatch(/sent|limited/);
    }
    expect(await staff.staffSession(jar)).toMatchObject({ email: STAFF });
  });

  it('each seal opens only the door it was made for: a link is no session, a session no link', async () => {
    const { jar } = await ask(STAFF);
    const token = lastLink() ?? '';
    const asSession = browser();
    asSession.values.set(staff.SESSION_COOKIE, token);
    expect(await staff.staffSession(asSession)).toBeUndefined();
    expect(await staff.signIn(token, jar)).toBe('signed-in');
    for (const name of [staff.SESSION_COOKIE, staff.KNOWN_COOKIE]) {
      const other = copyOf(jar);
      expect(await staff.signIn(jar.values.get(name) ?? '', other)).toBe('invalid');
    }
    const knownAsSession = browser();
    knownAsSession.values.set(staff.SESSION_COOKIE, jar.values.get(staff.KNOWN_COOKIE) ?? '');
    expect(await staff.staffSession(knownAsSession)).toBeUndefined();
    // Even a seal of ours whose fields would fit another door: each names its own.
    const { sealData } = jest.requireActual('iron-session') as typeof import('iron-session');
    const fits = { email: STAFF, sid: 'x', at: Date.now(), browser: 'x', id: 'x' };
    const otherDoor = browser();
    otherDoor.values.set(
      staff.SESSION_COOKIE,
      await sealData({ ...fits, p: 'enlace' }, { password: SECRET, ttl: 600 }),
    );
    expect(await staff.staffSession(otherDoor)).toBeUndefined();
    otherDoor.values.set(
      staff.SESSION_COOKIE,
      await sealData({ ...fits, p: 'sesion' }, { password: SECRET, ttl: 600 }),
    );
    expect(await staff.staffSession(otherDoor)).toMatchObject({ email: STAFF });
  });
});

/*
 * "Salir" and "once" hold on every server that can serve the site, and after a restart: on the local world (one
 * machine) in its data folder, with several machines in Redis or the Postgres world's database.
 */
describe('one truth across servers', () => {
  let redis: { url: string; stop: () => void } | undefined;
  let postgres: Postgres | undefined;
  beforeAll(async () => {
    [redis, postgres] = await Promise.all([startRedisServer(), startPostgres()]);
  }, 60_000);
  afterAll(async () => {
    redis?.stop();
    await postgres?.stop();
  });

  const stores: Array<[string, () => Record<string, string>]> = [
    ['the local world (one machine, its data folder)', () => ({})],
    ['Redis', () => ({ REDIS_URL: redis?.url ?? '' })],
    [
      'the Postgres world',
      () => ({
        WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
        WORKFLOW_POSTGRES_URL: postgres?.url ?? '',
      }),
    ],
  ];

  for (const [where, env] of stores) {
    describe(`on ${where}`, () => {
      beforeEach(() => void Object.assign(process.env, env()));

      it('a session ended with Salir opens nothing on another server, nor after a restart', async () => {
        const [first, second] = [startServer(), startServer()];
        const jar = await signedInOn(first);
        const copy = copyOf(jar);
        expect(await second.staffSession(copy)).toMatchObject({ email: STAFF });
        await first.signOut(jar);
        expect(await second.staffSession(copy)).toBeUndefined();
        expect(await first.staffSession(copy)).toBeUndefined();
        expect(await startServer().staffSession(copy)).toBeUndefined();
      }, 30_000);

      it('a link spent on one server is spent on another, and after a restart', async () => {
        const [first, second] = [startServer(), startServer()];
        const { jar } = await ask(STAFF, browser(), '203.0.113.30', first);
        const token = lastLink();
        const copy = copyOf(jar);
        expect(await first.signIn(token, jar)).toBe('signed-in');
        expect(await second.signIn(token, copyOf(copy))).toBe('used');
        expect(await startServer().signIn(token, copyOf(copy))).toBe('used');
      }, 30_000);
    });
  }
});

describe('where spent links and ended sessions cannot be shared', () => {
  it('on Vercel without REDIS_URL: the area does not open, and the start-up report says why', async () => {
    const jar = await signedInOn(staff);
    Object.assign(process.env, { VERCEL: '1', WORKFLOW_TARGET_WORLD: '' });
    const vercel = startServer();
    expect(await vercel.staffSession(copyOf(jar))).toBeUndefined();
    const asker = browser();
    expect(await vercel.requestLink(STAFF, from('203.0.113.40'), asker, () => {})).toBe('invalid');
    expect(asker.values.size).toBe(0);
    let config: typeof import('./config') | undefined;
    jest.isolateModules(() => {
      config = jest.requireActual('./config') as typeof import('./config');
    });
    expect(config?.getStaffConfig()).toBeUndefined();
    expect(config?.staffAreaMissing().join(' ')).toMatch(/REDIS_URL/);
  });

  it('on Vercel with REDIS_URL, it opens', () => {
    Object.assign(process.env, {
      VERCEL: '1',
      WORKFLOW_TARGET_WORLD: '',
      REDIS_URL: 'redis://127.0.0.1:9',
    });
    let config: typeof import('./config') | undefined;
    jest.isolateModules(() => {
      config = jest.requireActual('./config') as typeof import('./config');
    });
    expect(config?.getStaffConfig()).toMatchObject({ emails: [STAFF, 'jefa@agencia.mx'] });
  });
});

describe('without its variables', () => {
  it('the area does not exist: no link, no session', async () => {
    process.env.STAFF_EMAILS = '';
    const off = startServer();
    const jar = browser();
    expect(await off.requestLink(STAFF, from('203.0.113.13'), jar, () => {})).toBe('invalid');
    expect(await off.signIn('x', jar)).toBe('invalid');
    expect(jar.values.size).toBe(0);
  });
});
