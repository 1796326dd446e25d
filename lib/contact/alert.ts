import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AlertConfig } from '@/lib/env/server';
import type { OutboxEntry } from './outbox-entry';
import { KEEP_DEAD_MS, owedAlert } from './policy';

/**
 * The e-mail to the agency: at once when an enquiry goes pending (so a person
 * can call the lead within minutes) and when it goes dead (so someone follows
 * it up by hand). It carries the lead's details; logs never do.
 */

const when = new Intl.DateTimeFormat('es-MX', { dateStyle: 'full', timeStyle: 'short', timeZone: 'America/Mexico_City' });

// Line breaks and other control characters. The schema refuses them in single-line
// fields, but an entry stored before it did may still carry them.
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/;

/** One line, whatever the visitor typed: never a forged header or template line. */
function oneLine(text: string): string {
  return text.replace(CONTROL, ' ');
}

/** The reason as a quoted block, so none of its lines can pass for one of the template's. */
function quoted(text: string): string {
  return text
    .split(LINE_BREAK)
    .map((line) => `> ${oneLine(line)}`)
    .join('\n');
}

/** pending and dead: an enquiry the API has not got; spam: a suspected spam with no store to keep it in. */
export type AlertKind = 'pending' | 'dead' | 'spam';
const KIND_WORDS: Record<AlertKind, string> = { pending: 'pendiente', dead: 'no entregada', spam: 'posible spam' };

export function alertMessage(kind: AlertKind, entry: OutboxEntry): { subject: string; text: string } {
  const name = oneLine(entry.enquiry.name);
  const details = [
    `Nombre: ${name}`,
    `Correo: ${oneLine(entry.enquiry.mail)}`,
    `Teléfono: ${oneLine(entry.enquiry.phone)}`,
    'Motivo:',
    quoted(entry.enquiry.reason),
    `Recibida: ${when.format(entry.receivedAt)} (hora de la Ciudad de México)`,
    `Clave: ${entry.key}`,
  ].join('\n');

  if (kind === 'spam') {
    return {
      subject: `Posible spam retenido, no se entregó: ${name}`,
      text: [
        'El filtro de spam retuvo este mensaje del formulario y no lo entregó a la API de contacto (no hay bandeja de salida donde guardarlo).',
        'Si es de una persona, llámala o escríbele y registra la solicitud a mano.',
        '',
        details,
      ].join('\n'),
    };
  }

  if (kind === 'pending') {
    return {
      subject: `Solicitud de contacto pendiente de entrega: ${name}`,
      text: [
        'Llegó una solicitud de contacto que la API de contacto todavía no recibió.',
        'Está guardada y se reintentará sola. Mientras tanto, llama o escribe a esta persona cuanto antes.',
        '',
        details,
      ].join('\n'),
    };
  }

  const why =
    entry.deadReason === 'refused'
      ? `La API la rechazó al reintentarla${entry.refusal ? `: «${oneLine(entry.refusal)}»` : ''}.`
      : 'Pasaron 24 horas sin poder entregarla.';
  const keptUntil = when.format((entry.deadAt ?? Date.now()) + KEEP_DEAD_MS);
  return {
    subject: `Solicitud de contacto NO entregada, requiere seguimiento: ${name}`,
    text: [
      `Esta solicitud no llegó a la API de contacto y ya no se reintentará. ${why}`,
      'Dale seguimiento a mano: llama o escribe a esta persona y registra la solicitud donde corresponda.',
      `Se conserva hasta el ${keptUntil} y después se borra (npm run outbox -- export la exporta a CSV).`,
      '',
      details,
    ].join('\n'),
  };
}

const transports = new Map<string, Transporter>();

/** Sends one alert; false (logged, without personal data) when it could not: the flush tries again. */
export async function sendAlert(kind: AlertKind, entry: OutboxEntry, config: AlertConfig): Promise<boolean> {
  let transport = transports.get(config.smtpUrl);
  if (!transport) {
    // Short timeouts: the alert runs inside a function's time limit.
    transport = nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 3000, greetingTimeout: 3000, socketTimeout: 5000 });
    transports.set(config.smtpUrl, transport);
  }
  try {
    await transport.sendMail({ from: config.from, to: config.to, ...alertMessage(kind, entry) });
    console.info(`[contacto] Aviso por correo (${KIND_WORDS[kind]}) enviado: ${entry.key}`);
    return true;
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error instanceof Error ? error.name : 'desconocido');
    console.error(`[contacto] No se pudo enviar el aviso por correo de ${entry.key} (${code}); se reintentará`);
    return false;
  }
}

/**
 * Sends the alert the entry still owes the agency, if any and if alerts are
 * configured. Returns the entry to store: marked alerted once the e-mail went
 * out, unchanged otherwise (owed until sent, the flush tries again).
 */
export async function alertIfOwed(entry: OutboxEntry, config: AlertConfig | undefined): Promise<OutboxEntry> {
  const owed = owedAlert(entry);
  if (!owed || !config || !(await sendAlert(owed, entry, config))) return entry;
  return { ...entry, alerted: { pending: true, dead: owed === 'dead' } };
}

/** At most this many suspected-spam e-mails an hour from one instance: a flood must not bury the agency's inbox. */
export const SPAM_NOTICES_PER_HOUR = 20;
let spamWindow = { startedAt: 0, sent: 0 };

/**
 * Where there is no store to keep a suspected spam apart (CONTACT_OUTBOX=off, Vercel
 * without Redis), it goes to the alert address instead, a few an hour; past that it is
 * only counted in the log. True when the e-mail went out.
 */
export async function sendSpamNotice(entry: OutboxEntry, config: AlertConfig, now = Date.now()): Promise<boolean> {
  if (now - spamWindow.startedAt >= 60 * 60 * 1000) spamWindow = { startedAt: now, sent: 0 };
  if (spamWindow.sent >= SPAM_NOTICES_PER_HOUR) return false;
  spamWindow.sent += 1;
  return sendAlert('spam', entry, config);
}
