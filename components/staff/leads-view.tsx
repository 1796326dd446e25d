import Link from 'next/link';
import { readCounts, type CountsRead } from '@/lib/experiments/counters';
import { runningExperiments } from '@/lib/experiments/definitions';
import { listLeads } from '@/lib/staff/leads/list';
import {
  origin,
  totalsLines,
  TOTALS_DAYS,
  TOTALS_NOTE,
  whenGone,
  whyHere,
} from '@/lib/staff/leads/words';
import { dialable } from '@/lib/contact/phone';
import { releaseSpam, leave } from '@/lib/staff/actions';
import { ExperimentResults } from './experiment-results';
import { ForgetForm } from './forget-form';
import styles from './staff.module.css';
import type { StaffList } from '@/lib/staff/leads/list';

const LISTS: Record<StaffList, string> = {
  spam: 'Posible spam',
  dead: 'No entregadas',
  pending: 'Pendientes',
};
const when = new Intl.DateTimeFormat('es-MX', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'America/Mexico_City',
});

/** How far back an experiment's result and chart go. */
const EXPERIMENT_DAYS = 90;
/** The counters of the last `days` days only. */
function lastDays(counts: CountsRead, days: number): CountsRead {
  if (!counts.counting) return counts;
  const last = <T,>(list: T[]) => list.slice(-days);
  const outcomes = Object.fromEntries(
    Object.entries(counts.outcomes).map(([outcome, perDay]) => [outcome, last(perDay)]),
  ) as typeof counts.outcomes;
  return { ...counts, days: last(counts.days), outcomes };
}

const NO_ANSWER: CountsRead = { counting: false, why: 'el almacén de los contadores no respondió' };

/**
 * The signed-in page: the totals from the counters, one list a page at a time, and the actions. Its only read of the
 * engine is that page (at most SCAN_LIMIT runs), however many leads it keeps.
 */
export async function LeadsView({
  email,
  list,
  cursor,
  notice,
}: {
  email: string;
  list: StaffList;
  cursor?: string;
  notice?: string;
}) {
  const experiments = runningExperiments();
  const [counts, page] = await Promise.all([
    // One read of the counters for the totals and the experiments alike: bounded by days x variants.
    readCounts(
      experiments.map(({ name, variants }) => ({
        name,
        variants: variants.map((variant) => variant.id),
      })),
      EXPERIMENT_DAYS,
    ).catch(() => NO_ANSWER),
    listLeads({ states: [list], cursor }),
  ]);
  return (
    <>
      <div className={styles.nav}>
        <h1>Solicitudes</h1>
        <span className={styles.muted}>{email}</span>
        <form action={leave}>
          <button type="submit">Salir</button>
        </form>
      </div>
      <ul className={styles.counts} aria-label="Totales">
        {totalsLines(lastDays(counts, TOTALS_DAYS)).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {counts.counting ? <p className={styles.muted}>{TOTALS_NOTE}</p> : null}
      {notice ? <p role="status">{notice}</p> : null}
      <ExperimentResults experiments={experiments} counts={counts} />
      <nav className={styles.nav} aria-label="Listas">
        {(Object.keys(LISTS) as StaffList[]).map((name) => (
          <Link
            key={name}
            href={`/equipo?lista=${name}`}
            aria-current={name === list ? 'page' : undefined}
          >
            {LISTS[name]}
          </Link>
        ))}
        <a href={`/equipo/exportar?lista=${list}`} download>
          Exportar CSV
        </a>
      </nav>
      <h2>{LISTS[list]}</h2>
      {page.leads.length === 0 ? <p>Nada en esta lista{cursor ? ' en esta página' : ''}.</p> : null}
      <ul className={styles.list}>
        {page.leads.map((run) => {
          const { lead } = run;
          const phone = dialable(lead.enquiry.phone);
          const source = origin(run);
          const gone = whenGone(run);
          return (
            <li key={run.runId} className={styles.row}>
              <strong>{lead.enquiry.name}</strong>
              <span>
                <a href={`mailto:${lead.enquiry.mail}`}>{lead.enquiry.mail}</a> ·{' '}
                {lead.enquiry.phone}
                {phone ? (
                  <>
                    {' '}
                    · <a href={phone.whatsapp}>WhatsApp</a>
                  </>
                ) : null}
              </span>
              <p className={styles.reason}>{lead.enquiry.reason}</p>
              <span className={styles.muted}>
                Recibida el {when.format(lead.receivedAt)} · {whyHere(run)}
                {gone ? ` · ${gone.charAt(0).toUpperCase()}${gone.slice(1)}` : ''}
              </span>
              <span className={styles.muted}>Origen: {source || 'sin datos de campaña'}</span>
              {run.state === 'spam' ? (
                <form action={releaseSpam}>
                  <input type="hidden" name="clave" value={lead.key} />
                  <button type="submit">Entregar</button>
                </form>
              ) : null}
            </li>
          );
        })}
      </ul>
      {page.cursor ? (
        <p>
          <Link href={`/equipo?lista=${list}&desde=${encodeURIComponent(page.cursor)}`}>
            Siguientes
          </Link>
        </p>
      ) : null}
      <h2>Olvidar a una persona</h2>
      <ForgetForm />
    </>
  );
}
