import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AlertConfig } from '@/lib/env/server';
import type { OutboxEntry } from './entry';
import { withTimeout } from '@/lib/with-timeout';
import { ALERT_TIMEOUT_MS, KEEP_DEAD_MS, owedAlert } from './policy';

/**
 * The e-mail to the agency, one per lead: at once when an enquiry goes pending
 * (so a person can call the lead within minutes), or when it goes dead without
 * having had one (so someone follows it up by hand). At most 20 an hour,
 * then one digest. It carries the lead's details; logs never do.
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

type Mail = { subject: string; text: string };

/**
 * At most this many pending and dead alerts an hour from one instance: when the API is down
 * for a busy day, the agency gets the first leads one by one and then one digest, not a flood.
 */
export const ALERTS_PER_HOUR = 20;
const HOUR_MS = 60 * 60 * 1000;

/** What one instance sent in the hour begun by its first e-mail (a clock set back begins a new hour). */
type HourWindow = { startedAt: number; sent: number };
const isOver = (window: HourWindow, now: number) => now - window.startedAt >= HOUR_MS || now < window.startedAt;

/**
 * The e-mail sent once an hour's alerts are spent: it names no lead (the held-back keys only),
 * just says there are more and where to see them.
 */
export function digestMessage(heldKeys: readonly string[], resumesAt: number): Mail {
  return {
    subject: 'Límite de avisos alcanzado: hay más solicitudes pendientes',
    text: [
      `Se alcanzó el límite de ${ALERTS_PER_HOUR} avisos por correo en una hora desde este servidor.`,
      'Hay más solicitudes de contacto pendientes o no entregadas, y durante el resto de esta hora no se avisará de cada una por separado.',
      'Siguen guardadas en la bandeja de salida: las pendientes se reintentan solas, las no entregadas necesitan seguimiento a mano.',
      '',
      'Para verlas con los datos de cada persona:',
      '  npm run outbox -- status',
      '  npm run outbox -- export   (las no entregadas, a CSV)',
      '',
      `Los avisos uno por uno se reanudan a partir del ${when.format(resumesAt)} (hora de la Ciudad de México).`,
      `Claves retenidas hasta ahora: ${heldKeys.join(', ')}`,
    ].join('\n'),
  };
}

export type OutboxUsage = { entries: number; bytes: number; maxEntries: number; maxBytes: number };

const kilobytes = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('es-MX')} kB`;

export function outboxFullMessage(usage: OutboxUsage): Mail {
  return {
    subject: 'Bandeja de salida llena: las solicitudes nuevas ya no se guardan',
    text: [
      'La bandeja de salida de solicitudes de contacto está llena y no acepta más.',
      'Mientras siga así, cada solicitud nueva solo se intenta entregar en el momento a la API de contacto; si la API falla, no se guarda y a la persona se le pide escribir por WhatsApp o llamar por teléfono.',
      '',
      `Ocupación: ${usage.entries.toLocaleString('es-MX')} de ${usage.maxEntries.toLocaleString('es-MX')} solicitudes, ${kilobytes(usage.bytes)} de ${kilobytes(usage.maxBytes)}.`,
      '',
      'Qué hacer:',
      '1. Revisa que la API de contacto esté funcionando: mientras falle, la bandeja no se vacía.',
      '2. Ejecuta npm run outbox -- status para ver cuántas hay pendientes, no entregadas y de posible spam.',
      '3. Si hace falta más espacio, sube CONTACT_OUTBOX_MAX_ENTRIES o CONTACT_OUTBOX_MAX_BYTES.',
    ].join('\n'),
  };
}

const transports = new Map<string, Transporter>();

/** Sends one e-mail; on failure, the error's code for the log (never its message, which may quote addresses). */
async function sendMail(config: AlertConfig, mail: Mail): Promise<{ sent: true } | { sent: false; code: string }> {
  let transport = transports.get(config.smtpUrl);
  if (!transport) {
    // Short timeouts: the alert runs inside a function's time limit.
    transport = nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 3000, greetingTimeout: 3000, socketTimeout: 5000 });
    transports.set(config.smtpUrl, transport);
  }
  try {
    // A mail server that trickles its answers ends within ALERT_TIMEOUT_MS all the same: the entry's lease covers that much.
    await withTimeout(transport.sendMail({ from: config.from, to: config.to, ...mail }), ALERT_TIMEOUT_MS);
    return { sent: true };
  } catch (error) {
    return { sent: false, code: (error as { code?: string }).code ?? (error instanceof Error ? error.name : 'desconocido') };
  }
}

/** Sends one alert; false (logged, without personal data) when it could not: the flush tries again. */
export async function sendAlert(kind: AlertKind, entry: OutboxEntry, config: AlertConfig): Promise<boolean> {
  const outcome = await sendMail(config, alertMessage(kind, entry));
  if (outcome.sent) console.info(`[contacto] Aviso por correo (${KIND_WORDS[kind]}) enviado: ${entry.key}`);
  else console.error(`[contacto] No se pudo enviar el aviso por correo de ${entry.key} (${outcome.code}); se reintentará`);
  return outcome.sent;
}

type AlertWindow = HourWindow & { heldKeys: string[]; digest?: Promise<boolean> };
let alertWindow: AlertWindow = { startedAt: 0, sent: 0, heldKeys: [] };

const markedAlerted = (entry: OutboxEntry, owed: 'pending' | 'dead'): OutboxEntry => ({
  ...entry,
  alerted: { pending: true, dead: owed === 'dead' },
});

/**
 * Sends the alert the entry still owes the agency, if any and if alerts are
 * configured. Returns the entry to store: marked alerted once the e-mail went
 * out, unchanged otherwise (owed until sent, the flush tries again). Past the
 * hourly limit the entry is marked alerted too, once the hour's digest went out:
 * owed for ever, it would be tried against the mail server at every flush.
 */
export async function alertIfOwed(entry: OutboxEntry, config: AlertConfig | undefined, now = Date.now()): Promise<OutboxEntry> {
  const owed = owedAlert(entry);
  if (!owed || !config) return entry;
  if (isOver(alertWindow, now)) alertWindow = { startedAt: now, sent: 0, heldKeys: [] };
  const window = alertWindow;

  if (window.sent < ALERTS_PER_HOUR) {
    // Counted before the send, which awaits: concurrent rounds never pass the limit; given back if it fails.
    window.sent += 1;
    if (await sendAlert(owed, entry, config)) return markedAlerted(entry, owed);
    window.sent -= 1;
    return entry;
  }

  // Only the digest lists keys: once it is on its way, there is no need to keep them.
  if (!window.digest && !window.heldKeys.includes(entry.key)) window.heldKeys.push(entry.key);
  // Rounds held back while the digest is on its way wait for it: none is marked alerted unless it went out.
  window.digest ??= sendDigest(config, window);
  if (!(await window.digest)) {
    window.digest = undefined;
    return entry;
  }
  console.warn(`[contacto] Aviso de ${entry.key} (${KIND_WORDS[owed]}) no enviado por el límite por hora; npm run outbox -- status la lista`);
  return markedAlerted(entry, owed);
}

async function sendDigest(config: AlertConfig, window: AlertWindow): Promise<boolean> {
  const outcome = await sendMail(config, digestMessage(window.heldKeys, window.startedAt + HOUR_MS));
  if (outcome.sent) console.warn(`[contacto] Límite de ${ALERTS_PER_HOUR} avisos por hora alcanzado: enviado un solo aviso de resumen`);
  else console.error(`[contacto] No se pudo enviar el aviso de límite por correo (${outcome.code}); se reintentará`);
  return outcome.sent;
}

let outboxFullWindow: HourWindow = { startedAt: 0, sent: 0 };

/**
 * Tells the agency the outbox is full (new enquiries are only tried live), at most once an
 * hour from one instance and apart from the alerts' limit. True when the e-mail went out.
 */
export async function sendOutboxFullAlert(config: AlertConfig, usage: OutboxUsage, now = Date.now()): Promise<boolean> {
  if (isOver(outboxFullWindow, now)) outboxFullWindow = { startedAt: now, sent: 0 };
  const window = outboxFullWindow;
  if (window.sent >= 1) return false;
  window.sent = 1;
  const outcome = await sendMail(config, outboxFullMessage(usage));
  if (outcome.sent) {
    console.warn('[contacto] Aviso por correo enviado: la bandeja de salida está llena');
    return true;
  }
  // Not sent: the next full outbox tries again.
  window.sent = 0;
  console.error(`[contacto] No se pudo enviar el aviso de bandeja llena por correo (${outcome.code})`);
  return false;
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
