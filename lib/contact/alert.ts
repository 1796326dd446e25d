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

export function alertMessage(kind: 'pending' | 'dead', entry: OutboxEntry): { subject: string; text: string } {
  const { name, mail, phone, reason } = entry.enquiry;
  const details = [
    `Nombre: ${name}`,
    `Correo: ${mail}`,
    `Teléfono: ${phone}`,
    `Motivo: ${reason}`,
    `Recibida: ${when.format(entry.receivedAt)} (hora de la Ciudad de México)`,
    `Clave: ${entry.key}`,
  ].join('\n');

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
      ? `La API la rechazó al reintentarla${entry.refusal ? `: «${entry.refusal}»` : ''}.`
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
export async function sendAlert(kind: 'pending' | 'dead', entry: OutboxEntry, config: AlertConfig): Promise<boolean> {
  let transport = transports.get(config.smtpUrl);
  if (!transport) {
    // Short timeouts: the alert runs inside a function's time limit.
    transport = nodemailer.createTransport({ url: config.smtpUrl, connectionTimeout: 3000, greetingTimeout: 3000, socketTimeout: 5000 });
    transports.set(config.smtpUrl, transport);
  }
  try {
    await transport.sendMail({ from: config.from, to: config.to, ...alertMessage(kind, entry) });
    console.info(`[contacto] Aviso por correo (${kind === 'pending' ? 'pendiente' : 'no entregada'}) enviado: ${entry.key}`);
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
