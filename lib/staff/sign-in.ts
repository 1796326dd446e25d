import 'server-only';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { cookies } from 'next/headers';
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { clientKey, limitConfigOrDefaults } from '@/lib/abuse/client';
import { consume, heldLimiter, type SharedLimiter } from '@/lib/abuse/limiter';
import { errorName } from '@/lib/server/error-name';
import { sendMail } from '@/lib/server/mail';
import { getStaffConfig, type StaffConfig } from './config';
import { ledger } from './ledger';
import { seal, unseal } from './seal';
import { normalMail } from '@/lib/contact/fields';

// The staff's sign-in: a one-time link mailed through the alert SMTP, and a session in a sealed cookie (iron-session:
// encrypted and signed with STAFF_SESSION_SECRET). A link works once, for LINK_TTL_S, and only in the browser that
// asked for it (its pending cookie's hash is sealed into the link). The links spent and the sessions ended are noted
// in the ledger (ledger.ts), which every server that may serve the site shares, until they would have expired.

export const SESSION_COOKIE = 'equipo_sesion';
export const PENDING_COOKIE = 'equipo_pendiente';
/** Set at sign-in: this browser signed in before with an address (its hash), so it asks on its own allowance. */
export const KNOWN_COOKIE = 'equipo_conocido';
/** A working day: after this the staff member asks for a new link. */
export const SESSION_TTL_S = 9 * 60 * 60;
/** Minutes, not hours: a link left in an inbox is worth nothing soon. */
export const LINK_TTL_S = 10 * 60;
/** Half a year: a browser used now and then stays known. It names an address's hash, and opens nothing by itself. */
const KNOWN_TTL_S = 180 * 24 * 60 * 60;
// Anyone can type a staff address. Per client (the abuse limit's trusted hops), a person asks once or twice and a bot
// gets nowhere; per address, the mails anyone can have sent to it are capped by the hour. A browser that signed in
// with that address before asks on an allowance of its own, which no stranger can spend.
const PER_CLIENT = { max: 10, windowSeconds: 15 * 60 };
const PER_ADDRESS = { max: 5, windowSeconds: 60 * 60 };
const PER_KNOWN_BROWSER = { max: 3, windowSeconds: 15 * 60 };
const MAX_ADDRESS = 254;
// A link spent or a session ended must hold on every server: the store gets seconds, and without it, no.
const STORE_WAIT_MS = 3000;

export type StaffSession = { email: string; sid: string; at: number };
/** A request's cookies, as Next's cookies() gives them. */
export type CookieJar = Awaited<ReturnType<typeof cookies>>;

// What each seal holds; `p` says which door it is for.
const text = z.string().max(MAX_ADDRESS);
const LinkSeal = z.object({ p: z.literal('enlace'), email: text, browser: text, id: text });
const SessionSeal = z.object({ p: z.literal('sesion'), email: text, sid: text, at: z.number() });
const KnownSeal = z.object({ p: z.literal('conocido'), address: text, browser: text });

type Held = { limiter?: SharedLimiter };
const held = { perAddress: {} as Held, perClient: {} as Held, perKnownBrowser: {} as Held };
const spentLinks = ledger({
  key: 'equipo_enlace_usado',
  folder: 'enlaces-usados',
  seconds: LINK_TTL_S,
});
const endedSessions = ledger({
  key: 'equipo_sesion_fin',
  folder: 'sesiones-cerradas',
  seconds: SESSION_TTL_S,
});

const sha = (text: string) => createHash('sha256').update(text).digest('base64url');
function sameHash(a: string, b: string): boolean {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
}
const random = (bytes: number) => randomBytes(bytes).toString('base64url');
const store = (limit: { max: number; windowSeconds: number }) => ({
  ...limitConfigOrDefaults(),
  ...limit,
});
const limiter = (
  which: keyof typeof held,
  keyPrefix: string,
  limit: { max: number; windowSeconds: number },
) => heldLimiter(held[which], keyPrefix, 'el límite de enlaces', store(limit));
const cookieOptions = (config: StaffConfig) => ({
  httpOnly: true,
  secure: config.siteUrl.startsWith('https:'),
  sameSite: 'lax' as const,
  path: '/equipo',
});

/** An address as typed, compared and limited in one form; undefined when it cannot be one. */
export function staffAddress(typed: unknown): string | undefined {
  const address = typeof typed === 'string' ? normalMail(typed) : '';
  return address.length <= MAX_ADDRESS && /^[^\s@]+@[^\s@]+$/.test(address) ? address : undefined;
}

export type LinkAnswer = 'sent' | 'limited' | 'invalid';

/**
 * Asks for a link for `typed`: the same answer, and the same work before it, whether or not the address is on the
 * list; the mail goes out in `later` (after the answer), so no answer waits on SMTP either.
 */
export async function requestLink(
  typed: unknown,
  requestHeaders: Pick<Headers, 'get'>,
  jar: CookieJar,
  later: (send: () => Promise<void>) => void,
): Promise<LinkAnswer> {
  const config = getStaffConfig();
  const email = staffAddress(typed);
  if (!config || !email) return 'invalid';
  if (!(await allowance(config, email, requestHeaders, jar))) return 'limited';
  const browser = random(32);
  jar.set(PENDING_COOKIE, browser, { ...cookieOptions(config), maxAge: LINK_TTL_S });
  const link = { p: 'enlace', email, browser: sha(browser), id: random(16) } satisfies z.infer<
    typeof LinkSeal
  >;
  const token = await seal(link, config.secret, LINK_TTL_S);
  if (config.emails.includes(email))
    later(() => mailLink(config, email, `${config.siteUrl}/equipo/entrar?t=${token}`));
  return 'sent';
}

/** Whether this request may have a link mailed to `email`: on its browser's own allowance, or on the shared ones. */
async function allowance(
  config: StaffConfig,
  email: string,
  requestHeaders: Pick<Headers, 'get'>,
  jar: CookieJar,
) {
  const known = await knownBrowser(config, jar, email);
  if (known) {
    const own = limiter('perKnownBrowser', 'equipo_enlace_navegador', PER_KNOWN_BROWSER);
    return (await consume(own, `${sha(email)}:${known}`)).allowed;
  }
  const perClient = limiter('perClient', 'equipo_enlace_cliente', PER_CLIENT);
  const perAddress = limiter('perAddress', 'equipo_enlace_correo_hora', PER_ADDRESS);
  const byClient = await consume(perClient, clientKey(requestHeaders, limitConfigOrDefaults()));
  const byAddress = await consume(perAddress, sha(email));
  return byClient.allowed && byAddress.allowed;
}

/** This browser's own name when its known-browser cookie is ours and for `email`; undefined otherwise. */
async function knownBrowser(
  config: StaffConfig,
  jar: CookieJar,
  email: string,
): Promise<string | undefined> {
  const known = await unseal(KnownSeal, jar.get(KNOWN_COOKIE)?.value, config.secret, KNOWN_TTL_S);
  return known && sameHash(known.address, sha(email)) ? known.browser : undefined;
}

async function mailLink(config: StaffConfig, to: string, url: string): Promise<void> {
  const text = [
    'Para entrar al área del equipo, abre este enlace en el mismo navegador donde lo pediste.',
    `Sirve una sola vez, durante ${LINK_TTL_S / 60} minutos:`,
    '',
    url,
    '',
    'Si no lo pediste, ignora este correo: sin ese navegador nadie puede usarlo.',
  ].join('\n');
  const sent = await sendMail(
    { ...config.mail, to },
    { subject: 'Tu enlace para entrar al área del equipo', text },
  );
  if (!sent.sent) console.error(`[equipo] No se pudo enviar un enlace de acceso (${sent.why})`);
}

export type SignInAnswer = 'signed-in' | 'invalid' | 'other-browser' | 'used';

/** Signs in with a link's token, in the browser that asked for it, once; the session cookie is set on `jar`. */
export async function signIn(token: string | null, jar: CookieJar): Promise<SignInAnswer> {
  const config = getStaffConfig();
  if (!config || !token || token.length > 2048) return 'invalid';
  const link = await unseal(LinkSeal, token, config.secret, LINK_TTL_S);
  if (!link || !config.emails.includes(link.email)) return 'invalid';
  const browser = jar.get(PENDING_COOKIE)?.value;
  // Checked before the link is spent: a mail scanner that opens it first (without the cookie) spends nothing.
  if (!browser || !sameHash(sha(browser), link.browser)) return 'other-browser';
  const first = await spentLinks.note(link.id, STORE_WAIT_MS).catch((error: unknown) => {
    console.error(
      `[equipo] No se pudo anotar el enlace como usado (${errorName(error)}); se pide otro`,
    );
    return undefined;
  });
  if (first === undefined) return 'invalid';
  if (!first) return 'used';
  const options = cookieOptions(config);
  jar.set(PENDING_COOKIE, '', { ...options, maxAge: 0 });
  const session = { p: 'sesion', email: link.email, sid: random(16), at: Date.now() } as const;
  // A minute short of the seal, as iron-session's own cookies: the browser drops it before the server would refuse it.
  jar.set(SESSION_COOKIE, await seal(session, config.secret, SESSION_TTL_S), {
    ...options,
    maxAge: SESSION_TTL_S - 60,
  });
  const known = { p: 'conocido', address: sha(link.email), browser: random(16) } as const;
  jar.set(KNOWN_COOKIE, await seal(known, config.secret, KNOWN_TTL_S), {
    ...options,
    maxAge: KNOWN_TTL_S - 60,
  });
  console.info(`[equipo] Sesión iniciada (${sha(link.email).slice(0, 8)})`);
  return 'signed-in';
}

/**
 * The staff member this request's cookie signs in, or undefined: no area, no cookie, a cut, forged, tampered or
 * expired one, an address taken off the list, or a session ended (also when the ledger does not answer).
 */
export async function staffSession(jar: CookieJar): Promise<StaffSession | undefined> {
  const config = getStaffConfig();
  if (!config) return undefined;
  const session = await unseal(
    SessionSeal,
    jar.get(SESSION_COOKIE)?.value,
    config.secret,
    SESSION_TTL_S,
  );
  if (!session || !config.emails.includes(session.email)) return undefined;
  if (Date.now() - session.at > SESSION_TTL_S * 1000) return undefined;
  try {
    if (await endedSessions.noted(session.sid, STORE_WAIT_MS)) return undefined;
  } catch (error) {
    console.error(
      `[equipo] No se pudo comprobar la sesión (${errorName(error)}); se pide entrar de nuevo`,
    );
    return undefined;
  }
  return { email: session.email, sid: session.sid, at: session.at };
}

/** The signed-in staff member, or back to the sign-in page: every action and route of the area starts here. */
export async function requireStaff(): Promise<StaffSession> {
  const session = await staffSession(await cookies());
  if (!session) redirect('/equipo');
  return session;
}

/** Ends the session for every server (noted until it would have expired) and drops its cookie. */
export async function signOut(jar: CookieJar): Promise<void> {
  const config = getStaffConfig();
  if (!config) return;
  const session = await unseal(
    SessionSeal,
    jar.get(SESSION_COOKIE)?.value,
    config.secret,
    SESSION_TTL_S,
  );
  jar.set(SESSION_COOKIE, '', { ...cookieOptions(config), maxAge: 0 });
  if (!session) return;
  await endedSessions
    .note(session.sid, STORE_WAIT_MS)
    .catch((error: unknown) =>
      console.error(
        `[equipo] La sesión se cerró en este navegador, no en el registro compartido (${errorName(error)})`,
      ),
    );
}

/** Drops the stores' clients (tests). */
export function closeStaffStores(): void {
  for (const one of Object.values(held)) {
    one.limiter?.release?.();
    one.limiter = undefined;
  }
  spentLinks.close();
  endedSessions.close();
}
