import { experimentsOf, touchLines, type LeadSource } from '@/lib/contact/source';
import type { Lead, LeadOutcome } from '@/lib/contact/lead/lead';
import type { LeadRun } from './runs';
import { whenGone, whyHere } from './words';

/** A lead whose run ended undelivered: what the agency follows up by hand. */
export type DeadLetter = { lead: Lead; outcome: Extract<LeadOutcome, { outcome: 'dead' }> };

/**
 * The dead letters as CSV for the agency: UTF-8 with a byte-order mark, so
 * Excel shows Spanish accents right, and CRLF line ends, as Excel writes them.
 * The cells are what visitors typed, so none of them may run as a formula.
 */
export function deadLettersCsv(letters: DeadLetter[]): string {
  const header = [
    'Clave',
    'Recibida',
    'No entregada desde',
    'Por qué',
    'Nombre',
    'Correo',
    'Teléfono',
    'Motivo',
    'Respuesta de la API',
    'Origen (esta visita)',
    'Origen (primera visita)',
    ...EXPERIMENT_HEADER,
  ];
  const rows = [...letters]
    .sort((a, b) => a.lead.receivedAt - b.lead.receivedAt)
    .map(({ lead, outcome }) => [
      lead.key,
      new Date(lead.receivedAt).toISOString(),
      new Date(outcome.deadAt).toISOString(),
      outcome.reason === 'refused' ? 'rechazada por la API' : 'sin entregar en 24 horas',
      lead.enquiry.name,
      lead.enquiry.mail,
      lead.enquiry.phone,
      lead.enquiry.reason,
      outcome.refusal ?? '',
      touchLines(lead.source?.last).join('; '),
      touchLines(lead.source?.first).join('; '),
      ...experimentCells(lead.source),
    ]);
  return `\uFEFF${[header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

/**
 * Any list of leads as CSV, the same way (the staff page's export of held leads and suspected spam): when each came,
 * why it is there, when it goes, the person and where they came from.
 */
export function leadsCsv(runs: readonly LeadRun[]): string {
  const header = [
    'Clave',
    'Recibida',
    'Por qué',
    'Plazo',
    'Nombre',
    'Correo',
    'Teléfono',
    'Motivo',
  ];
  const rows = runs.map((run) => {
    const { key, receivedAt, enquiry, source } = run.lead;
    const [why, until] = [whyHere(run), whenGone(run) ?? ''];
    const origin = [touchLines(source?.last).join('; '), touchLines(source?.first).join('; ')];
    return [
      key,
      new Date(receivedAt).toISOString(),
      why,
      until,
      enquiry.name,
      enquiry.mail,
      enquiry.phone,
      enquiry.reason,
      ...origin,
      ...experimentCells(source),
    ];
  });
  const all = [
    [...header, 'Origen (esta visita)', 'Origen (primera visita)', ...EXPERIMENT_HEADER],
    ...rows,
  ];
  return `\uFEFF${all.map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

// Last, so a sheet or a script that reads the columns before them by position reads them as before; empty for a lead
// that saw no experiment (or kept by a build before them). Two cells, so a sheet filters by variant; a lead that saw
// several names each in both, in the same order, joined by '; '.
const EXPERIMENT_HEADER = ['Experimento', 'Variante'];
function experimentCells(source: LeadSource | undefined): string[] {
  const experiments = experimentsOf(source);
  return [
    experiments.map(({ name }) => name).join('; '),
    experiments.map(({ variant }) => variant).join('; '),
  ];
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
