import type { OutboxEntry } from './outbox-entry';

/**
 * The dead letters as CSV for the agency: UTF-8 with a byte-order mark, so
 * Excel shows Spanish accents right, and CRLF line ends, as Excel writes them.
 */
export function deadLettersCsv(entries: OutboxEntry[]): string {
  const header = ['Clave', 'Recibida', 'No entregada desde', 'Por qué', 'Nombre', 'Correo', 'Teléfono', 'Motivo', 'Respuesta de la API'];
  const rows = entries
    .filter((entry) => entry.state === 'dead')
    .sort((a, b) => a.receivedAt - b.receivedAt)
    .map((entry) => [
      entry.key,
      new Date(entry.receivedAt).toISOString(),
      entry.deadAt ? new Date(entry.deadAt).toISOString() : '',
      entry.deadReason === 'refused' ? 'rechazada por la API' : 'sin entregar en 24 horas',
      entry.enquiry.name,
      entry.enquiry.mail,
      entry.enquiry.phone,
      entry.enquiry.reason,
      entry.refusal ?? '',
    ]);
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

function cell(value: string): string {
  // A leading = + - @ would make Excel run the cell as a formula.
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) || safe !== value ? `"${safe.replace(/"/g, '""')}"` : safe;
}
