import path from 'node:path';
import { SPAM_RULE_LABELS } from '@/lib/contact/spam-rules';
import { experimentsOf, experimentWords, touchLines } from '@/lib/contact/source';
import type { LeadOutcome } from '@/lib/contact/lead/lead';
import type { CountsRead, LeadOutcome as Counted } from '@/lib/experiments/counters';
import type { WorkflowWorld } from '@/lib/engine/choose-world';
import type { LeadRun } from './runs';
import type { ReleaseResult } from './release';
import type { ForgetReport } from './forget';

// What the staff read about their leads, in Spanish, the same on the command line and on the staff page.

/** postgres://user:****@host/db: the password never reaches a screen (nor the whole value, when it is not a URL). */
export function maskedUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return '(WORKFLOW_POSTGRES_URL no es una URL)';
  }
}

/** Which world holds the leads (production's?): said before anything is read, released or deleted. */
export const worldLine = (where: WorkflowWorld) =>
  where.kind === 'local'
    ? `Motor de entregas: archivos locales en ${path.resolve(where.dir)}`
    : where.kind === 'postgres'
      ? `Motor de entregas: PostgreSQL ${maskedUrl(where.url)}`
      : where.kind === 'vercel'
        ? 'Motor de entregas: Vercel'
        : `Motor de entregas: ${where.target}`;

/** Control characters (a terminal's escape sequences) never reach the screen; long text is cut at `max`. */
export const oneLine = (text: string, max: number) => {
  const flat = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
export const person = ({ lead: { enquiry } }: Pick<LeadRun, 'lead'>) =>
  `${oneLine(enquiry.name, 60)} <${oneLine(enquiry.mail, 60)}> ${oneLine(enquiry.phone, 20)}`;
export const isoDate = (ms: number) => new Date(ms).toISOString();

/** What the filter saw: a content rule's label, or the honeypot. */
export const whySpam = (rule = '') =>
  rule === 'honeypot'
    ? 'llenó el campo oculto que solo llenan los programas'
    : rule === 'honeypot-missing'
      ? 'envió el formulario sin su campo oculto (no salió de la página)'
      : ((SPAM_RULE_LABELS as Record<string, string>)[rule] ?? rule);
export const whyDead = (outcome: Extract<LeadOutcome, { outcome: 'dead' }>) =>
  outcome.reason === 'refused'
    ? `rechazada por la API${outcome.refusal ? `: ${oneLine(outcome.refusal, 120)}` : ''}`
    : `sin entregar en 24 horas${outcome.lastFailure ? ` (${oneLine(outcome.lastFailure, 80)})` : ''}`;

/** Why a lead is where it is, for the lists that show people (held, dead letters, spam). */
export function whyHere({ state, lead, outcome }: LeadRun): string {
  if (state === 'spam') return whySpam(lead.spamRule);
  if (state === 'dead' && outcome?.outcome === 'dead') return whyDead(outcome);
  if (state === 'pending') return 'la API de contacto no la ha tomado: el motor la reintenta';
  return STATE_WORDS[state];
}
const STATE_WORDS: Record<LeadRun['state'], string> = {
  pending: 'pendiente de entrega',
  spam: 'posible spam en espera',
  delivered: 'entregada',
  dead: 'no entregada',
  'spam-expired': 'spam descartado sin liberar',
  continued: 'sigue en otra ejecución',
  cancelled: 'cancelada',
  failed: 'con error del motor',
};

/** The days the totals add up: the privacy notice's default period, so they span about what the lists can show. */
export const TOTALS_DAYS = 30;
const COUNTED: ReadonlyArray<readonly [Counted, string]> = [
  ['received', 'Recibidas'],
  ['live', 'Entregadas al momento'],
  ['later', 'Entregadas al reintentar'],
  ['spam', 'Posible spam'],
  ['dead', 'No entregadas'],
];

/** The counters' totals over their days, one line each (the staff page, `npm run leads -- status`), or why none. */
export function totalsLines(counts: CountsRead): string[] {
  if (!counts.counting) return [`No se puede contar: ${counts.why}`];
  const sum = (days: readonly number[] | undefined) =>
    (days ?? []).reduce((total, day) => total + day, 0);
  return COUNTED.map(([outcome, words]) => `${words}: ${sum(counts.outcomes[outcome])}`);
}
/** What the totals count, said under them. */
export const TOTALS_NOTE =
  `Últimos ${TOTALS_DAYS} días. «Recibidas» son todas las solicitudes que el sitio tomó, también las apartadas como ` +
  'posible spam (no las de prueba); una apartada que se entrega cuenta además como entregada.';

/**
 * Where it came from: the visit that sent it (campaign, click id, landing page), then the first one if another, then
 * the variant it saw of each experiment.
 */
export function origin({ lead: { source } }: Pick<LeadRun, 'lead'>): string {
  const [last, first] = [touchLines(source?.last).join('; '), touchLines(source?.first).join('; ')];
  const experiments = experimentsOf(source);
  return [
    last,
    first && first !== last ? `primera visita: ${first}` : '',
    experiments.length ? `experimento: ${experimentWords(experiments)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** When it leaves: a held lead is retried for 24 hours (then a dead letter); a dead letter or a spam is forgotten. */
export function whenGone({ state, forgetAt, retriedUntil }: LeadRun): string | undefined {
  if (retriedUntil !== undefined)
    return `se reintenta hasta el ${isoDate(retriedUntil).slice(0, 16).replace('T', ' ')} UTC`;
  if (forgetAt === undefined) return undefined;
  return `${state === 'spam' ? 'se descarta' : 'se borra'} el ${isoDate(forgetAt).slice(0, 10)}`;
}

/** What the command says when a key cannot be released, by why. */
export const RELEASE_SAID: Record<
  Exclude<ReleaseResult['result'], 'released' | 'server-down'>,
  string
> = {
  unknown: 'no existe entre las solicitudes del motor de entregas.',
  'not-spam': 'no está entre el posible spam (ver npm run leads -- status).',
  'not-waiting-yet':
    'aún no empieza a esperar (¿está en marcha el servidor?); inténtalo en un momento.',
  expired: 'pasó su plazo sin que nadie la liberara y se descartó.',
  'already-released': 'ya fue liberada.',
};

/** What forgetting a person did, one line each: `npm run leads -- forget` prints them, the staff page shows them. */
export function forgotLines({
  mail,
  leads,
  cancelled,
  forwards,
  inbox,
  runsDeleted,
}: ForgetReport): string[] {
  const before = cancelled ? ` (${cancelled} cancelada(s) antes: no se entregarán)` : '';
  return [
    runsDeleted
      ? `${mail}: ${leads} solicitud(es) borrada(s) del motor de entregas${before}.`
      : `${mail}: ${cancelled} solicitud(es) cancelada(s): no se entregarán.`,
    ...(forwards
      ? [
          `${mail}: ${forwards} reenvío(s) al webhook o a Meta detenido(s)${runsDeleted ? ' y borrado(s)' : ''}.`,
        ]
      : []),
    `Bandeja local (${inbox.dir}): ${inbox.lines} línea(s) borrada(s) en ${inbox.files} archivo(s).`,
  ];
}

/** What forgetting a person could not reach, said plainly: one sentence a line. */
export function beyondReach({ beyondReach: out, leads, forwards }: ForgetReport): string[] {
  return [
    // The three the command has always named, in its words.
    'Fuera de este proyecto quedan lo ya entregado a la API de contacto, los avisos enviados por correo y los CSV ' +
      'exportados: bórralos allí.',
    'Una copia ya enviada al webhook o a Meta no se puede recuperar desde aquí: pide que la borren allí.',
    ...(out.includes('vercel-runs')
      ? [
          `En Vercel las ejecuciones no se pueden borrar desde aquí: ${leads + forwards} de esta persona (detenidas: ` +
            'ya no se entregan) las guarda Vercel hasta que caducan según su plan; o bórralas en su panel.',
        ]
      : []),
  ];
}
