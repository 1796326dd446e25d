/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { startSmtpSink } from '@/test-support/smtp-sink';
import { ALERTS_PER_HOUR, sendLeadAlert } from './alert';
import type { Lead } from './lead';

/** The alert e-mails, received by a real SMTP server on 127.0.0.1. */

const T0 = Date.UTC(2025, 4, 20, 17, 30, 0); // 11:30 in Mexico City
const enquiry = {
  name: 'José Ángel Muñoz',
  mail: 'jose.munoz@example.mx',
  phone: '5598765432',
  reason: 'Necesito anuncios en redes para mi panadería en Polanco.',
  captcha: 'token',
};
const newLead = (): Lead => ({
  key: randomUUID(),
  enquiry,
  receivedAt: T0,
  backoffSeconds: [60],
  keepMs: 30 * 24 * 60 * 60 * 1000,
});
const DOWN = 'smtp://avisos:secreto-de-prueba@127.0.0.1:9';

let sink: Awaited<ReturnType<typeof startSmtpSink>>;
let config: { smtpUrl: string; to: string; from: string };

beforeAll(async () => {
  sink = await startSmtpSink();
  config = { smtpUrl: sink.url, to: 'ventas@agencia.mx', from: 'Formulario <avisos@agencia.mx>' };
});
afterAll(() => sink.stop());
beforeEach(() => {
  sink.mails.splice(0);
  for (const level of ['info', 'warn', 'error'] as const)
    jest.spyOn(console, level).mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

it('tells the agency about a pending enquiry, in Spanish, with everything needed to call the lead', async () => {
  const lead = newLead();
  expect(await sendLeadAlert('pending', lead, {}, config, T0 + 1000)).toBe(true);
  const [mail] = sink.mails;
  expect(mail?.envelopeTo).toEqual(['ventas@agencia.mx']);
  expect(mail?.subject).toBe('Solicitud de contacto pendiente de entrega: José Ángel Muñoz');
  for (const line of [
    'Nombre: José Ángel Muñoz',
    'Correo: jose.munoz@example.mx',
    'Teléfono: 5598765432\nTeléfono (E.164): +525598765432\nWhatsApp: https://wa.me/525598765432\n',
    'Motivo:\n> Necesito anuncios en redes para mi panadería en Polanco.\nRecibida: ',
    `Clave: ${lead.key}`,
    'llama o escribe a esta persona cuanto antes',
  ]) {
    expect(mail?.text).toContain(line);
  }
  expect(mail?.text).toMatch(/Recibida: martes, 20 de mayo de 2025, 11:30/);
});

it('says where the lead came from, in an "Origen" block: this visit, and the first when it was another', async () => {
  const lead: Lead = {
    ...newLead(),
    source: {
      last: {
        utm_source: 'google',
        utm_campaign: 'florerias',
        gclid: 'Cj0K',
        landing: '/',
        referrer: 'https://www.google.com',
        at: T0,
      },
      first: { fbclid: 'IwAR', landing: '/', at: T0 - 2 * 86_400_000 },
    },
  };
  await sendLeadAlert('pending', lead, {}, config, T0 + 1500);
  expect(sink.mails[0]?.text).toContain(
    [
      'Origen:',
      '  Esta visita:',
      '    gclid: Cj0K',
      '    utm_source: google',
      '    utm_campaign: florerias',
      '    página de llegada: /',
      '    llegó desde: https://www.google.com',
      '  Primera visita (90 días):',
      '    fbclid: IwAR',
      '    página de llegada: /',
    ].join('\n'),
  );
});

it('names the experiment and variant the page showed, in the "Origen" block; a lead before them names none', async () => {
  const lead: Lead = {
    ...newLead(),
    source: {
      last: { utm_source: 'google', at: T0 },
      experiments: [{ name: 'titular-verano', variant: 'b' }],
    },
  };
  await sendLeadAlert('pending', lead, {}, config, T0 + 1600);
  expect(sink.mails[0]?.text).toContain(
    [
      'Origen:',
      '  Esta visita:',
      '    utm_source: google',
      '  Experimento: titular-verano, variante b',
    ].join('\n'),
  );
  // Only an experiment known: the block still says it.
  await sendLeadAlert(
    'pending',
    {
      ...newLead(),
      source: {
        experiments: [
          { name: 'cta', variant: 'control' },
          { name: 'orden', variant: 'c' },
        ],
      },
    },
    {},
    config,
    T0 + 1700,
  );
  // Two experiments at once: a line each.
  expect(sink.mails[1]?.text).toContain(
    'Origen:\n  Experimento: cta, variante control\n  Experimento: orden, variante c',
  );
  // A run kept by a build before experiments, or one whose names do not hold: no such line.
  const odd = {
    ...newLead(),
    source: { last: { gclid: 'x', at: T0 }, experiment: { name: 'A\nB', variant: 'b' } },
  };
  await sendLeadAlert('pending', odd, {}, config, T0 + 1800);
  expect(sink.mails[2]?.text).not.toContain('Experimento');
});

it("says why a dead letter is dead, in the API's own words, and until when it is kept", async () => {
  await sendLeadAlert(
    'dead',
    newLead(),
    { reason: 'refused', refusal: 'El token de captcha expiró' },
    config,
    T0 + 2000,
  );
  const [mail] = sink.mails;
  expect(mail?.subject).toBe(
    'Solicitud de contacto NO entregada, requiere seguimiento: José Ángel Muñoz',
  );
  expect(mail?.text).toContain('La API la rechazó al reintentarla: «El token de captcha expiró».');
  expect(mail?.text).toMatch(/Se conserva hasta el jueves, 19 de junio de 2025/);
  expect(mail?.text).toContain('npm run leads -- export');
});

it('on Vercel, says the platform keeps a dead letter, not until when we do', async () => {
  await sendLeadAlert('dead', newLead(), { reason: 'expired', onVercel: true }, config, T0 + 2500);
  const mail = sink.mails.at(-1);
  expect(mail?.text).toContain('Vercel la conserva el tiempo que fija su plan');
  expect(mail?.text).not.toMatch(/Se conserva hasta|se borra/);
});

it('answers false when the mail server is away, so the workflow owes the alert still', async () => {
  expect(
    await sendLeadAlert('pending', newLead(), {}, { ...config, smtpUrl: DOWN }, T0 + 3000),
  ).toBe(false);
  expect(sink.mails).toHaveLength(0);
});

describe('at most 20 alert e-mails an hour', () => {
  // An hour of its own, far from the other tests' clocks.
  const HOUR = Date.UTC(2031, 0, 1, 12, 0, 0);

  it('sends the first 20 one by one, then one digest naming keys only, then one by one the next hour', async () => {
    const leads = Array.from({ length: ALERTS_PER_HOUR + 2 }, newLead);
    const told: boolean[] = [];
    for (const [i, lead] of leads.entries())
      told.push(await sendLeadAlert('pending', lead, {}, config, HOUR + i * 1000));
    expect(told.every(Boolean)).toBe(true);

    const subjects = sink.mails.map((mail) => mail.subject);
    expect(subjects).toHaveLength(ALERTS_PER_HOUR + 1);
    expect(subjects[ALERTS_PER_HOUR]).toBe(
      'Límite de avisos alcanzado: hay más solicitudes pendientes',
    );
    const digest = sink.mails[ALERTS_PER_HOUR]?.text ?? '';
    expect(digest).toContain('npm run leads -- pending');
    expect(digest).toContain(`Claves retenidas hasta ahora: ${leads[ALERTS_PER_HOUR]?.key}`);
    for (const value of [enquiry.name, enquiry.mail, enquiry.phone])
      expect(digest).not.toContain(value);

    expect(await sendLeadAlert('pending', newLead(), {}, config, HOUR + 60 * 60 * 1000)).toBe(true);
    expect(sink.mails.at(-1)?.subject).toMatch(/^Solicitud de contacto pendiente de entrega:/);
  });

  it('keeps a held-back alert owed while the digest cannot go out', async () => {
    const at = HOUR + 10 * 60 * 60 * 1000;
    for (let i = 0; i < ALERTS_PER_HOUR; i++)
      await sendLeadAlert('pending', newLead(), {}, config, at);
    const held = newLead();
    expect(await sendLeadAlert('pending', held, {}, { ...config, smtpUrl: DOWN }, at + 1)).toBe(
      false,
    );
    expect(await sendLeadAlert('pending', held, {}, config, at + 2)).toBe(true);
    expect(sink.mails.at(-1)?.subject).toBe(
      'Límite de avisos alcanzado: hay más solicitudes pendientes',
    );
  });

  it('does not count an alert that failed to go out', async () => {
    const at = HOUR + 15 * 60 * 60 * 1000;
    for (let i = 0; i < 3; i++)
      await sendLeadAlert('pending', newLead(), {}, { ...config, smtpUrl: DOWN }, at);
    for (let i = 0; i < ALERTS_PER_HOUR; i++)
      expect(await sendLeadAlert('pending', newLead(), {}, config, at + 1)).toBe(true);
    expect(
      sink.mails
        .map((mail) => mail.subject)
        .every((subject) => subject.startsWith('Solicitud de contacto pendiente')),
    ).toBe(true);
  });
});
