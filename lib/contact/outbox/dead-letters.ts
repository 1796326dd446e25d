import type { OutboxEntry } from './entry';

/**
 * The dead letters as CSV for the agency: UTF-8 with a byte-order mark, so
 * Excel shows Spanish accents right, and CRLF line ends, as Excel writes them.
 * The cells are what visitors typed, so none of them may run as a formula.
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

// Where Excel may start a formula: the cell's start, or after a ',' or ';' (either
// can be its list separator, by locale) and any spaces, if = + - @ tab or CR follows.
const FORMULA_START = /(^|[,;] *)(?=[=+\-@\t\r])/g;

function cell(value: string): string {
  // The apostrophe makes Excel show the text instead of running it.
  const safe = value.replace(FORMULA_START, "$1'");
  // Every cell quoted: no separator, quote or line break inside one can shift the columns.
  return `"${safe.replace(/"/g, '""')}"`;
}
