import 'server-only';
import nodemailer, { type Transporter } from 'nodemailer';
import type { AlertConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { withTimeout } from '@/lib/with-timeout';
import { alertMessage, digestMessage, KIND_WORDS, outboxFullMessage, type AlertKind, type Mail } from './alert-message';
import type { OutboxEntry } from './entry';
import { ALERT_TIMEOUT_MS, owedAlert } from './policy';
import type { OutboxUsage } from './store';

/**
 * The e-mail to the agency, one per lead: at once when an enquiry goes pending
 * (so a person can call the lead within minutes), or when it goes dead without
 * having had one (so someone follows it up by hand). At most 20 an hour,
 * then one digest. The texts are in alert-message.ts.
 */

/**
 * At most this many pending and dead alerts an hour from one instance: when the API is down
 * for a busy day, the agency gets the first leads one by one and then one digest, not a flood.
 */
export const ALERTS_PER_HOUR = 20;
const HOUR_MS = 60 * 60 * 1000;

/** What one instance sent in the hour begun by its first e-mail (a clock set back begins a new hour). */
type HourWindow = { startedAt: number; sent: number };
const isOver = (window: HourWindow, now: number) => now - window.startedAt >= HOUR_MS || now < window.startedAt;

const transports = new Map<string, Transporter>();

/** Sends one e-mail; on failure, the error's kind and code for the log. */
async function sendMail(config: AlertConfig, mail: Mail): Promise<{ sent: true } | { sent: false; why: string }> {
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
    return { sent: false, why: errorName(error) };
  }
}

/** Sends one alert; false (logged, without personal data) when it could not: the flush tries again. */
export async function sendAlert(kind: AlertKind, entry: OutboxEntry, config: AlertConfig): Promise<boolean> {
  const outcome = await sendMail(config, alertMessage(kind, entry));
  if (outcome.sent) console.info(`[contacto] Aviso por correo (${KIND_WORDS[kind]}) enviado: ${entry.key}`);
  else console.error(`[contacto] No se pudo enviar el aviso por correo de ${entry.key} (${outcome.why}); se reintentará`);
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
  const outcome = await sendMail(config, digestMessage(window.heldKeys, window.startedAt + HOUR_MS, ALERTS_PER_HOUR));
  if (outcome.sent) console.warn(`[contacto] Límite de ${ALERTS_PER_HOUR} avisos por hora alcanzado: enviado un solo aviso de resumen`);
  else console.error(`[contacto] No se pudo enviar el aviso de límite por correo (${outcome.why}); se reintentará`);
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
  console.error(`[contacto] No se pudo enviar el aviso de bandeja llena por correo (${outcome.why})`);
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
  if (now - spamWindow.startedAt >= HOUR_MS) spamWindow = { startedAt: now, sent: 0 };
  if (spamWindow.sent >= SPAM_NOTICES_PER_HOUR) return false;
  spamWindow.sent += 1;
  return sendAlert('spam', entry, config);
}
