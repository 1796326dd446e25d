/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ALERTS_PER_HOUR, alertIfOwed, sendOutboxFullAlert, sendSpamNotice, SPAM_NOTICES_PER_HOUR } from './alert';
import { alertMessage } from './alert-message';
import { flushStore } from './flush';
import type { OutboxEntry } from './entry';
import { FileOutboxStore } from './file-store';
import { newEntry, owedAlert, spamEntry } from './policy';
import { startSmtpSink } from '@/test-support/smtp-sink';
import { contactApiBreaker } from '../breaker';

/** The alert e-mails, received by a real SMTP server on 127.0.0.1. */

const lead = {
  name: 'José Ángel Muñoz',
  mail: 'jose.munoz@example.mx',
  phone: '5598765432',
  reason: 'Necesito anuncios en redes para mi panadería en Polanco.',
  captcha: 'token',
};
const API = { baseUrl: 'http://127.0.0.1:9/api/', siteKey: 'k' };
const T0 = Date.UTC(2025, 4, 20, 17, 30, 0); // 11:30 in Mexico City
const answer = (status: number, body: unknown) =>
  (async () => new Response(JSON.stringify(body), { status })) as unknown as typeof fetch;

let sink: Awaited<ReturnType<typeof startSmtpSink>>;

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(() => sink.stop());
beforeEach(() => {
  sink.mails.splice(0);
  for (const level of ['info', 'warn', 'error'] as const) jest.spyOn(console, level).mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());
// Each test starts with the API's circuit closed: one test's failing API is not the next one's.
beforeEach(() => contactApiBreaker.reset());

function setUp(smtpUrl = sink.url) {
  const store = new FileOutboxStore(mkdtempSync(path.join(tmpdir(), 'outbox-')));
  const { lease: _lease, ...fresh } = newEntry(randomUUID(), lead, T0, 'live');
  // As the live request leaves it when its alert could not go out.
  const entry: OutboxEntry = { ...fresh, rounds: 1, nextAttemptAt: T0 + 60_000 };
  const config = { backoffSeconds: [60], alert: { smtpUrl, to: 'ventas@agencia.mx', from: 'Formulario <avisos@agencia.mx>' } };
  const flush = (at: number, fetchImpl = answer(503, {})) => flushStore({ store, config, api: API, now: () => at, fetchImpl });
  return { store, entry, flush, config };
}

it('tells the agency at once about a pending enquiry, in Spanish, with everything needed to call the lead', async () => {
  const { store, entry, flush } = setUp();
  await store.add(entry);
  await flush(T0 + 1000);
  expect(sink.mails).toHaveLength(1);
  const [mail] = sink.mails;
  expect(mail?.envelopeTo).toEqual(['ventas@agencia.mx']);
  expect(mail?.to).toContain('ventas@agencia.mx');
  expect(mail?.subject).toBe('Solicitud de contacto pendiente de entrega: José Ángel Muñoz');
  for (const line of [
    'Nombre: José Ángel Muñoz',
    'Correo: jose.munoz@example.mx',
    'Teléfono: 5598765432',
    'Motivo:\n> Necesito anuncios en redes para mi panadería en Polanco.\nRecibida: ',
    `Clave: ${entry.key}`,
    'llama o escribe a esta persona cuanto antes',
  ]) {
    expect(mail?.text).toContain(line);
  }
  expect(mail?.text).toMatch(/Recibida: martes, 20 de mayo de 2025, 11:30/);
  // Sent once: the next flush owes nothing.
  await flush(T0 + 2000);
  expect(sink.mails).toHaveLength(1);
  expect((await store.get(entry.key))?.alerted).toEqual({ pending: true, dead: false });
});

it('retries a failed alert e-mail on the next flush', async () => {
  const { store, entry, config } = setUp('smtp://avisos:secreto-de-prueba@127.0.0.1:9');
  await store.add(entry);
  await flushStore({ store, config, api: API, now: () => T0 + 1000, fetchImpl: answer(503, {}) });
  expect((await store.get(entry.key))?.alerted.pending).toBe(false);
  await flushStore({ store, config: { ...config, alert: { ...config.alert, smtpUrl: sink.url } }, api: API, now: () => T0 + 2000 });
  expect(sink.mails.map((mail) => mail.subject)).toEqual(['Solicitud de contacto pendiente de entrega: José Ángel Muñoz']);
});

it('sends one e-mail per lead: a pending enquiry that later becomes dead sends no second one', async () => {
  const { store, entry, flush } = setUp();
  await store.add(entry);
  await flush(T0 + 1000);
  await flush(T0 + 60_000, answer(400, { success: false, mes: 'El captcha expiró' }));
  expect(sink.mails.map((mail) => mail.subject)).toEqual(['Solicitud de contacto pendiente de entrega: José Ángel Muñoz']);
  // Still a dead letter, for `npm run outbox -- export`.
  expect(await store.get(entry.key)).toMatchObject({ state: 'dead', deadReason: 'refused', alerted: { pending: true } });
  await flush(T0 + 120_000);
  expect(sink.mails).toHaveLength(1);
});

it('sends the dead e-mail when the enquiry is refused before its pending alert went out', async () => {
  const { store, entry, flush } = setUp();
  await store.add(entry);
  await flush(T0 + 60_000, answer(400, { success: false, mes: 'El captcha expiró' }));
  expect(sink.mails).toHaveLength(1);
  expect(sink.mails[0]?.subject).toBe('Solicitud de contacto NO entregada, requiere seguimiento: José Ángel Muñoz');
  expect(sink.mails[0]?.text).toContain('La API la rechazó al reintentarla: «El captcha expiró».');
  expect(sink.mails[0]?.text).toContain('Teléfono: 5598765432');
  expect(sink.mails[0]?.text).toMatch(/Se conserva hasta el .* de junio de 2025/);
  expect((await store.get(entry.key))?.alerted).toEqual({ pending: true, dead: true });
  await flush(T0 + 120_000);
  expect(sink.mails).toHaveLength(1);
});

it('refuses wrong SMTP credentials: the alert stays owed', async () => {
  const { store, entry, config } = setUp();
  await store.add(entry);
  const wrong = { ...config, alert: { ...config.alert, smtpUrl: sink.url.replace('secreto-de-prueba', 'otro') } };
  await flushStore({ store, config: wrong, api: API, now: () => T0 + 1000, fetchImpl: answer(503, {}) });
  expect(sink.mails).toHaveLength(0);
  expect((await store.get(entry.key))?.alerted.pending).toBe(false);
});

describe('which alert an entry owes', () => {
  const base = newEntry('k', lead, T0, 'live');
  const dead = { ...base, rounds: 2, state: 'dead' as const, deadAt: T0, deadReason: 'refused' as const };

  it.each([
    { name: 'a fresh entry', entry: base, owed: null },
    { name: 'a pending entry after its first failed round', entry: { ...base, rounds: 1 }, owed: 'pending' },
    { name: 'a pending entry already alerted', entry: { ...base, rounds: 1, alerted: { pending: true, dead: false } }, owed: null },
    { name: 'a dead entry never alerted', entry: dead, owed: 'dead' },
    { name: 'a dead entry whose pending alert went out', entry: { ...dead, alerted: { pending: true, dead: false } }, owed: null },
    { name: 'a dead entry already alerted as dead', entry: { ...dead, alerted: { pending: true, dead: true } }, owed: null },
    { name: 'a suspected spam', entry: { ...base, rounds: 1, state: 'spam' as const }, owed: null },
  ] as const)('$name owes $owed', ({ entry, owed }) => {
    expect(owedAlert(entry)).toBe(owed);
  });
});

describe('at most 20 alert e-mails an hour', () => {
  const config = { smtpUrl: '', to: 'ventas@agencia.mx', from: 'Formulario <avisos@agencia.mx>' };
  // An hour of its own, far from the other tests' clocks.
  const HOUR = Date.UTC(2031, 0, 1, 12, 0, 0);
  const pending = (): OutboxEntry => ({ ...newEntry(randomUUID(), lead, T0, 'live'), rounds: 1 });

  it('sends the first 20 one by one, then one digest, then nothing until the next hour', async () => {
    const smtp = { ...config, smtpUrl: sink.url };
    const entries = Array.from({ length: ALERTS_PER_HOUR + 2 }, pending);
    const stored: OutboxEntry[] = [];
    for (const [i, entry] of entries.entries()) stored.push(await alertIfOwed(entry, smtp, HOUR + i * 1000));

    const subjects = sink.mails.map((mail) => mail.subject);
    expect(subjects).toHaveLength(ALERTS_PER_HOUR + 1);
    expect(subjects.slice(0, ALERTS_PER_HOUR).every((subject) => subject.startsWith('Solicitud de contacto pendiente de entrega:'))).toBe(true);
    expect(subjects[ALERTS_PER_HOUR]).toBe('Límite de avisos alcanzado: hay más solicitudes pendientes');
    const digest = sink.mails[ALERTS_PER_HOUR]?.text ?? '';
    expect(digest).toContain('npm run outbox -- status');
    expect(digest).toContain('npm run outbox -- export');
    expect(digest).toContain(`Claves retenidas hasta ahora: ${entries[ALERTS_PER_HOUR]?.key}`);
    expect(digest).not.toContain(lead.name);
    expect(digest).not.toContain(lead.mail);
    expect(digest).not.toContain(lead.phone);

    // Every entry is marked, the held-back ones included: none is owed for ever.
    expect(stored.every((entry) => owedAlert(entry) === null)).toBe(true);

    // The next hour, one by one again.
    const next = await alertIfOwed(pending(), smtp, HOUR + 60 * 60 * 1000);
    expect(next.alerted.pending).toBe(true);
    expect(sink.mails).toHaveLength(ALERTS_PER_HOUR + 2);
    expect(sink.mails.at(-1)?.subject).toMatch(/^Solicitud de contacto pendiente de entrega:/);
  });

  it('counts dead alerts in the same 20', async () => {
    const smtp = { ...config, smtpUrl: sink.url };
    const at = HOUR + 5 * 60 * 60 * 1000;
    for (let i = 0; i < ALERTS_PER_HOUR; i++) await alertIfOwed(pending(), smtp, at);
    const dead = { ...pending(), state: 'dead' as const, deadAt: at, deadReason: 'expired' as const };
    await alertIfOwed(dead, smtp, at + 1);
    expect(sink.mails.at(-1)?.subject).toBe('Límite de avisos alcanzado: hay más solicitudes pendientes');
  });

  it('keeps a held-back alert owed while the digest cannot go out', async () => {
    const smtp = { ...config, smtpUrl: sink.url };
    const at = HOUR + 10 * 60 * 60 * 1000;
    for (let i = 0; i < ALERTS_PER_HOUR; i++) await alertIfOwed(pending(), smtp, at);
    const held = pending();
    const unsent = await alertIfOwed(held, { ...config, smtpUrl: 'smtp://avisos:secreto-de-prueba@127.0.0.1:9' }, at + 1);
    expect(owedAlert(unsent)).toBe('pending');
    const sent = await alertIfOwed(held, smtp, at + 2);
    expect(owedAlert(sent)).toBeNull();
    expect(sink.mails.at(-1)?.subject).toBe('Límite de avisos alcanzado: hay más solicitudes pendientes');
  });

  it('does not count an alert that failed to go out', async () => {
    const at = HOUR + 15 * 60 * 60 * 1000;
    const down = { ...config, smtpUrl: 'smtp://avisos:secreto-de-prueba@127.0.0.1:9' };
    for (let i = 0; i < 3; i++) await alertIfOwed(pending(), down, at);
    const smtp = { ...config, smtpUrl: sink.url };
    for (let i = 0; i < ALERTS_PER_HOUR; i++) await alertIfOwed(pending(), smtp, at + 1);
    expect(sink.mails.every((mail) => mail.subject.startsWith('Solicitud de contacto pendiente de entrega:'))).toBe(true);
    expect(sink.mails).toHaveLength(ALERTS_PER_HOUR);
  });
});

describe('the outbox is full', () => {
  const usage = { entries: 2000, bytes: 3 * 1024 * 1024, maxEntries: 2000, maxBytes: 20 * 1024 * 1024 };
  const at = Date.UTC(2032, 0, 1, 12, 0, 0);

  it('tells the agency what it means and what to do, at most once an hour, apart from the alerts', async () => {
    const config = { smtpUrl: sink.url, to: 'ventas@agencia.mx', from: 'Formulario <avisos@agencia.mx>' };
    expect(await sendOutboxFullAlert(config, usage, at)).toBe(true);
    expect(await sendOutboxFullAlert(config, usage, at + 59 * 60 * 1000)).toBe(false);
    expect(sink.mails).toHaveLength(1);
    const [mail] = sink.mails;
    expect(mail?.subject).toBe('Bandeja de salida llena: las solicitudes nuevas ya no se guardan');
    for (const line of [
      'solo se intenta entregar en el momento',
      'WhatsApp',
      'Ocupación: 2,000 de 2,000 solicitudes, 3,072 kB de 20,480 kB.',
      'npm run outbox -- status',
      'CONTACT_OUTBOX_MAX_ENTRIES',
      'CONTACT_OUTBOX_MAX_BYTES',
    ]) {
      expect(mail?.text).toContain(line);
    }
    expect(await sendOutboxFullAlert(config, usage, at + 60 * 60 * 1000)).toBe(true);
  });

  it('tries again next time when the e-mail could not go out', async () => {
    const config = { smtpUrl: 'smtp://avisos:secreto-de-prueba@127.0.0.1:9', to: 'ventas@agencia.mx', from: 'avisos@agencia.mx' };
    const later = at + 5 * 60 * 60 * 1000;
    expect(await sendOutboxFullAlert(config, usage, later)).toBe(false);
    expect(await sendOutboxFullAlert({ ...config, smtpUrl: sink.url }, usage, later + 1)).toBe(true);
  });
});

describe("the visitor's text cannot forge lines of the alert", () => {
  const entryWith = (enquiry: Partial<typeof lead>): OutboxEntry => newEntry(randomUUID(), { ...lead, ...enquiry }, T0, 'live');
  const linesStartingWith = (text: string, start: string) => text.split('\n').filter((line) => line.startsWith(start));

  it('quotes every line of the reason, so fake Teléfono and Clave lines stay inside the quote', () => {
    const entry = entryWith({ reason: 'Llámenme ya.\nTeléfono: 000\r\nClave: falsa\rNombre: Otro' });
    for (const kind of ['pending', 'dead'] as const) {
      const { text } = alertMessage(kind, entry);
      expect(linesStartingWith(text, 'Teléfono:')).toEqual(['Teléfono: 5598765432']);
      expect(linesStartingWith(text, 'Clave:')).toEqual([`Clave: ${entry.key}`]);
      expect(linesStartingWith(text, 'Nombre:')).toEqual(['Nombre: José Ángel Muñoz']);
      expect(text).toContain('Motivo:\n> Llámenme ya.\n> Teléfono: 000\n> Clave: falsa\n> Nombre: Otro\nRecibida: ');
    }
  });

  it('keeps a name with a line break on one line, in the subject and in the Nombre line', () => {
    const entry = entryWith({ name: 'Ana López\r\nBcc: x', mail: 'ana@example.mx\nCc: y', phone: '55\u20281234' });
    for (const kind of ['pending', 'dead'] as const) {
      const { subject, text } = alertMessage(kind, entry);
      expect(subject).not.toMatch(/[\r\n\u2028\u2029]/);
      expect(subject).toMatch(/: Ana López {2}Bcc: x$/);
      expect(linesStartingWith(text, 'Nombre:')).toEqual(['Nombre: Ana López  Bcc: x']);
      expect(linesStartingWith(text, 'Correo:')).toEqual(['Correo: ana@example.mx Cc: y']);
      expect(linesStartingWith(text, 'Teléfono:')).toEqual(['Teléfono: 55 1234']);
      expect(linesStartingWith(text, 'Bcc:')).toEqual([]);
      expect(linesStartingWith(text, 'Cc:')).toEqual([]);
    }
  });

  it("keeps the API's refusal on its own line too", () => {
    const entry = { ...entryWith({}), state: 'dead' as const, deadReason: 'refused' as const, refusal: 'No válido\nClave: falsa' };
    const { text } = alertMessage('dead', entry);
    expect(text).toContain('La API la rechazó al reintentarla: «No válido Clave: falsa».');
    expect(linesStartingWith(text, 'Clave:')).toEqual([`Clave: ${entry.key}`]);
  });
});

describe('suspected spam with no store to keep it in', () => {
  it('goes to the alert address, said to be held back, at most 20 an hour from one instance', async () => {
    const config = { smtpUrl: sink.url, to: 'ventas@agencia.mx', from: 'Formulario <avisos@agencia.mx>' };
    const entry = spamEntry(randomUUID(), lead, T0, 'only-links');
    const sent: boolean[] = [];
    for (let i = 0; i < SPAM_NOTICES_PER_HOUR + 3; i++) sent.push(await sendSpamNotice(entry, config, T0 + i));
    expect(sent.filter(Boolean)).toHaveLength(SPAM_NOTICES_PER_HOUR);
    expect(sink.mails).toHaveLength(SPAM_NOTICES_PER_HOUR);
    expect(sink.mails[0]?.subject).toBe('Posible spam retenido, no se entregó: José Ángel Muñoz');
    expect(sink.mails[0]?.text).toContain('Si es de una persona, llámala o escríbele');
    // The next hour, the next one goes out.
    expect(await sendSpamNotice(entry, config, T0 + 60 * 60 * 1000 + 1)).toBe(true);
  });
});
