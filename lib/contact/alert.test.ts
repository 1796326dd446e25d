/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { alertMessage, sendSpamNotice, SPAM_NOTICES_PER_HOUR } from './alert';
import { flushStore } from './flush';
import type { OutboxEntry } from './outbox-entry';
import { FileOutboxStore } from './outbox-file-store';
import { newEntry, spamEntry } from './policy';
import { startSmtpSink } from '@/test-support/smtp-sink';

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

it('sends a second e-mail when a replay is refused and the enquiry becomes dead', async () => {
  const { store, entry, flush } = setUp();
  await store.add({ ...entry, alerted: { pending: true, dead: false } });
  await flush(T0 + 60_000, answer(400, { success: false, mes: 'El captcha expiró' }));
  expect(sink.mails).toHaveLength(1);
  expect(sink.mails[0]?.subject).toBe('Solicitud de contacto NO entregada, requiere seguimiento: José Ángel Muñoz');
  expect(sink.mails[0]?.text).toContain('La API la rechazó al reintentarla: «El captcha expiró».');
  expect(sink.mails[0]?.text).toContain('Teléfono: 5598765432');
  expect(sink.mails[0]?.text).toMatch(/Se conserva hasta el .* de junio de 2025/);
});

it('refuses wrong SMTP credentials: the alert stays owed', async () => {
  const { store, entry, config } = setUp();
  await store.add(entry);
  const wrong = { ...config, alert: { ...config.alert, smtpUrl: sink.url.replace('secreto-de-prueba', 'otro') } };
  await flushStore({ store, config: wrong, api: API, now: () => T0 + 1000, fetchImpl: answer(503, {}) });
  expect(sink.mails).toHaveLength(0);
  expect((await store.get(entry.key))?.alerted.pending).toBe(false);
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
