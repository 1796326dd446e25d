import { dialable } from '@/lib/contact/phone';
import { experimentLines, touchLines } from '@/lib/contact/source';
import type { Lead } from './lead';
import type { Mail } from '@/lib/server/mail';

// The e-mails to the agency: the only place a lead's details go; logs never carry them.
const timeZone = 'America/Mexico_City';
const when = new Intl.DateTimeFormat('es-MX', { dateStyle: 'full', timeStyle: 'short', timeZone });

// The schema refuses control characters in single-line fields, but nothing checks a stored entry again.
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
const LINE_BREAK = /\r\n?|[\n\u2028\u2029]/;

/** One line, whatever the visitor typed: never a forged header or template line. */
const oneLine = (text: string): string => text.replace(CONTROL, ' ');
/** The reason as a quoted block, so none of its lines can pass for one of the template's. */
const quoted = (text: string): string => `> ${text.split(LINE_BREAK).map(oneLine).join('\n> ')}`;
const mail = (subject: string, lines: string[]): Mail => ({ subject, text: lines.join('\n') });

/** pending: an enquiry the API has not got yet; dead: one it will not get. */
export type AlertKind = 'pending' | 'dead';
export const KIND_WORDS: Record<AlertKind, string> = { pending: 'pendiente', dead: 'no entregada' };
/** onVercel: kept by Vercel's retention, not ours (docs/operations.md). */
export type DeadDetail = { reason?: 'refused' | 'expired'; refusal?: string; onVercel?: boolean };

/** The "Origen" block: the visit that sent the form, the first one when it was another, the variant it saw. */
function originLines({ source }: Lead): string[] {
  if (!source) return [];
  const block = (title: string, lines: string[]) =>
    lines.length ? [title, ...lines.map((line) => `    ${oneLine(line)}`)] : [];
  const last = touchLines(source.last);
  const first = touchLines(source.first);
  const same = first.join('|') === last.join('|');
  const visits = [
    ...block('  Esta visita:', last),
    ...block('  Primera visita (90 días):', same ? [] : first),
  ];
  return ['', 'Origen:', ...visits, ...experimentLines(source).map((line) => `  ${line}`)];
}

export function alertMessage(
  kind: AlertKind,
  entry: Lead,
  detail: DeadDetail = {},
  now = Date.now(),
): Mail {
  const name = oneLine(entry.enquiry.name);
  const dial = dialable(entry.enquiry.phone);
  const details = [
    `Nombre: ${name}`,
    `Correo: ${oneLine(entry.enquiry.mail)}`,
    `Teléfono: ${oneLine(entry.enquiry.phone)}`,
    ...(dial ? [`Teléfono (E.164): ${dial.e164}`, `WhatsApp: ${dial.whatsapp}`] : []),
    'Motivo:',
    quoted(entry.enquiry.reason),
    `Recibida: ${when.format(entry.receivedAt)} (hora de la Ciudad de México)`,
    `Clave: ${entry.key}`,
    ...originLines(entry),
  ].join('\n');
  if (kind === 'pending') {
    return mail(`Solicitud de contacto pendiente de entrega: ${name}`, [
      'Llegó una solicitud de contacto que la API de contacto todavía no recibió.',
      'Está guardada y se reintentará sola. Mientras tanto, llama o escribe a esta persona cuanto antes.',
      '',
      details,
    ]);
  }
  const why =
    detail.reason === 'refused'
      ? `La API la rechazó al reintentarla${detail.refusal ? `: «${oneLine(detail.refusal)}»` : ''}.`
      : 'Pasaron 24 horas sin poder entregarla.';
  const keptUntil = when.format(now + entry.keepMs);
  return mail(`Solicitud de contacto NO entregada, requiere seguimiento: ${name}`, [
    `Esta solicitud no llegó a la API de contacto y ya no se reintentará. ${why}`,
    'Dale seguimiento a mano: llama o escribe a esta persona y registra la solicitud donde corresponda.',
    detail.onVercel
      ? 'Vercel la conserva el tiempo que fija su plan (Observability -> Workflows).'
      : `Se conserva hasta el ${keptUntil} y después se borra (npm run leads -- export la exporta a CSV).`,
    '',
    details,
  ]);
}

/** Once an hour's alerts are spent: says there are more and where to see them, naming no lead (only the held keys). */
export function digestMessage(
  heldKeys: readonly string[],
  resumesAt: number,
  alertsPerHour: number,
): Mail {
  return mail('Límite de avisos alcanzado: hay más solicitudes pendientes', [
    `Se alcanzó el límite de ${alertsPerHour} avisos por correo en una hora desde este servidor.`,
    'Hay más solicitudes de contacto pendientes o no entregadas, y durante el resto de esta hora no se avisará ' +
      'de cada una por separado.',
    'Siguen guardadas: las pendientes se reintentan solas, las no entregadas necesitan seguimiento a mano.',
    '',
    'Para verlas con los datos de cada persona:',
    '  npm run leads -- pending',
    '  npm run leads -- export   (las no entregadas, a CSV)',
    '',
    `Los avisos uno por uno se reanudan a partir del ${when.format(resumesAt)} (hora de la Ciudad de México).`,
    `Claves retenidas hasta ahora: ${heldKeys.join(', ')}`,
  ]);
}
