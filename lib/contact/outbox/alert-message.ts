import type { OutboxEntry } from './entry';
import { KEEP_DEAD_MS } from './policy';
import type { OutboxUsage } from './store';

/**
 * The text of the e-mails to the agency (alert.ts sends them). Only these carry
 * a lead's details; logs never do.
 */

export type Mail = { subject: string; text: string };

const when = new Intl.DateTimeFormat('es-MX', { dateStyle: 'full', timeStyle: 'short', timeZone: 'America/Mexico_City' });

// Line breaks and other control characters: the schema refuses them in single-line
// fields, but nothing checks a stored entry again.
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
export const KIND_WORDS: Record<AlertKind, string> = { pending: 'pendiente', dead: 'no entregada', spam: 'posible spam' };

export function alertMessage(kind: AlertKind, entry: OutboxEntry): Mail {
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

/**
 * The e-mail sent once an hour's alerts are spent: it names no lead (the held-back keys only),
 * just says there are more and where to see them.
 */
export function digestMessage(heldKeys: readonly string[], resumesAt: number, alertsPerHour: number): Mail {
  return {
    subject: 'Límite de avisos alcanzado: hay más solicitudes pendientes',
    text: [
      `Se alcanzó el límite de ${alertsPerHour} avisos por correo en una hora desde este servidor.`,
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
