import type { CountsRead } from '@/lib/experiments/counters';
import type { Experiment } from '@/lib/experiments/definitions';
import {
  chanceToBeatControl,
  conversionInterval,
  verdict,
  type ArmCounts,
} from '@/lib/experiments/statistics';
import { ExperimentChart } from './experiment-chart';
import styles from './staff.module.css';

const number = new Intl.NumberFormat('es-MX');
const percent = new Intl.NumberFormat('es-MX', {
  style: 'percent',
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});
const sum = (days: readonly number[]) => days.reduce((total, day) => total + day, 0);

/**
 * Each running experiment's result, from the daily counters: per variant its visitors, leads and conversion rate with
 * its 95% interval, its chance to beat the control, a warning when the split is off, the stopping rule's verdict and
 * a chart of leads per day. Drawn on the server: the staff page ships no chart code.
 */
export function ExperimentResults({
  experiments,
  counts,
}: {
  experiments: Experiment[];
  counts: CountsRead;
}) {
  if (experiments.length === 0) return null;
  return (
    <section aria-labelledby="experimentos">
      <h2 id="experimentos">Experimentos</h2>
      {counts.counting ? (
        experiments.map((experiment) => (
          <OneExperiment
            key={experiment.name}
            experiment={experiment}
            days={counts.days}
            counts={counts}
          />
        ))
      ) : (
        <p>No se puede contar: {counts.why}</p>
      )}
    </section>
  );
}

function OneExperiment({
  experiment,
  days,
  counts,
}: {
  experiment: Experiment;
  days: string[];
  counts: Extract<CountsRead, { counting: true }>;
}) {
  const daily = counts.experiments[experiment.name] ?? {};
  const zeros = days.map(() => 0);
  const arms: ArmCounts[] = experiment.variants.map((variant, index) => ({
    variant: variant.id,
    label: variant.label,
    share: experiment.split[index] ?? 0,
    visitors: sum(daily[variant.id]?.visitors ?? zeros),
    leads: sum(daily[variant.id]?.leads ?? zeros),
  }));
  // The days it has run: from the first day any variant had a visitor.
  const first = days.findIndex((_, day) =>
    experiment.variants.some((one) => (daily[one.id]?.visitors[day] ?? 0) > 0),
  );
  const ranDays = first < 0 ? 0 : days.length - first;
  const [control] = arms;
  const said = verdict({
    arms,
    days: ranDays,
    rule: experiment.rule
      ? { minVisitors: experiment.rule.minVisitors, minLeads: experiment.rule.minLeads }
      : {},
  });
  return (
    <article className={styles.experiment} aria-label={`Experimento ${experiment.name}`}>
      <h3>{experiment.name}</h3>
      <table className={styles.results}>
        <caption className="visually-hidden">
          Resultado por variante, últimos {days.length} días
        </caption>
        <thead>
          <tr>
            <th scope="col">Variante</th>
            <th scope="col">Reparto</th>
            <th scope="col">Visitantes</th>
            <th scope="col">Solicitudes</th>
            <th scope="col">Conversión (intervalo del 95%)</th>
            <th scope="col">Probabilidad de ganar al control</th>
          </tr>
        </thead>
        <tbody>
          {arms.map((arm, index) => {
            const rate = conversionInterval(arm);
            return (
              <tr key={arm.variant}>
                <th scope="row">{arm.label}</th>
                <td>{arm.share}%</td>
                <td>{number.format(arm.visitors)}</td>
                <td>{number.format(arm.leads)}</td>
                <td>
                  {percent.format(rate.rate)} ({percent.format(rate.low)} –{' '}
                  {percent.format(rate.high)})
                </td>
                <td>
                  {index === 0 || !control
                    ? '—'
                    : percent.format(chanceToBeatControl(control, arm))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {/* A split that is off voids the rest: said as a warning (chi-squared, p < 0.001). */}
      {said.decision === 'check-split' ? (
        <p role="alert">{said.sentence}</p>
      ) : (
        <p>{said.sentence}</p>
      )}
      <ExperimentChart
        days={days}
        series={experiment.variants.map((variant) => ({
          variant: variant.id,
          label: variant.label,
          leads: daily[variant.id]?.leads ?? zeros,
        }))}
      />
    </article>
  );
}
