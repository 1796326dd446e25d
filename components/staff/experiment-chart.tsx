import styles from './staff.module.css';

export type ChartSeries = { variant: string; label: string; leads: number[] };

const WIDTH = 640;
const HEIGHT = 220;
const PLOT = { left: 40, right: WIDTH - 16, top: 12, bottom: HEIGHT - 28 };
// Past a month the points crowd each other: the dashes alone tell the lines apart.
const MARKERS_UP_TO_DAYS = 31;
const DATE_LABELS_MAX = 6;

/**
 * One look per variant: a dash pattern and a marker shape as well as a colour, so the chart reads in grey and for
 * colour-blind staff. The colours keep 4.5:1 against white (WCAG 1.4.11 asks 3:1 of graphics).
 */
const LOOKS = [
  { color: '#0b3b60', dash: undefined, marker: 'circle' },
  { color: '#b45309', dash: '8 4', marker: 'square' },
  { color: '#047857', dash: '2 3', marker: 'triangle' },
  { color: '#7e22ce', dash: '10 3 2 3', marker: 'diamond' },
] as const;

type Look = (typeof LOOKS)[number];
const lookOf = (index: number): Look => LOOKS[index % LOOKS.length] ?? LOOKS[0];

const shortDate = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});
const longDate = new Intl.DateTimeFormat('es-MX', { dateStyle: 'medium', timeZone: 'UTC' });
const number = new Intl.NumberFormat('es-MX');

/** Days come as `YYYY-MM-DD`; anything else is shown as given rather than guessed at. */
function dateWords(day: string, format: Intl.DateTimeFormat): string {
  const date = /^\d{4}-\d{2}-\d{2}$/.test(day) ? new Date(`${day}T00:00:00Z`) : null;
  return date && !Number.isNaN(date.getTime()) ? format.format(date) : day;
}

/** The smallest round top (a step of 1, 2 or 5 × 10ⁿ, at most 4 steps) at or above the highest day. */
function yScale(highest: number): { top: number; step: number } {
  const target = Math.max(1, highest);
  for (let power = 1; ; power *= 10) {
    for (const unit of [1, 2, 5]) {
      const step = unit * power;
      const steps = Math.ceil(target / step);
      if (steps <= 4) return { top: step * steps, step };
    }
  }
}

/** Indices of the days named under the axis: the first, the last and evenly spread ones between. */
function labelledDays(count: number): number[] {
  const labels = Math.min(count, DATE_LABELS_MAX);
  if (labels === 1) return [0];
  return [
    ...new Set(
      Array.from({ length: labels }, (_, j) => Math.round((j * (count - 1)) / (labels - 1))),
    ),
  ];
}

function Marker({ look, x, y }: { look: Look; x: number; y: number }) {
  const common = { fill: look.color, stroke: '#fff', strokeWidth: 1 };
  switch (look.marker) {
    case 'circle':
      return <circle cx={x} cy={y} r={4} {...common} />;
    case 'square':
      return <rect x={x - 3.5} y={y - 3.5} width={7} height={7} {...common} />;
    case 'triangle':
      return <path d={`M${x} ${y - 4.5}L${x + 4.5} ${y + 3.5}H${x - 4.5}Z`} {...common} />;
    case 'diamond':
      return <path d={`M${x} ${y - 5}L${x + 5} ${y}L${x} ${y + 5}L${x - 5} ${y}Z`} {...common} />;
  }
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * Leads per day per variant, drawn on the server as plain SVG: no chart library and no script, so the staff page
 * stays light and the home page never pays for it. The picture is one image to assistive technology, named by
 * its totals; the day-by-day numbers are in a table behind «Ver los números», for anyone who wants them exactly.
 */
export function ExperimentChart({ days, series }: { days: string[]; series: ChartSeries[] }) {
  if (days.length === 0) return <p className={styles.muted}>Todavía no hay días con datos.</p>;

  // A counter that was never written reads as 0; the lists are cut or padded to the days shown.
  const lines = series.map((line, index) => ({
    ...line,
    look: lookOf(index),
    leads: days.map((_, day) => {
      const leads = line.leads[day] ?? 0;
      return Number.isFinite(leads) && leads > 0 ? Math.floor(leads) : 0;
    }),
  }));
  const totals = lines.map((line) => line.leads.reduce((sum, n) => sum + n, 0));
  const highest = Math.max(0, ...lines.flatMap((line) => line.leads));
  const { top, step } = yScale(highest);

  const xOf = (day: number) =>
    days.length === 1
      ? (PLOT.left + PLOT.right) / 2
      : PLOT.left + (day * (PLOT.right - PLOT.left)) / (days.length - 1);
  const yOf = (leads: number) => PLOT.bottom - (leads / top) * (PLOT.bottom - PLOT.top);
  const ticks = Array.from({ length: top / step + 1 }, (_, i) => i * step);

  const first = days[0] ?? '';
  const last = days[days.length - 1] ?? '';
  const when =
    days.length === 1
      ? `del ${dateWords(first, longDate)}`
      : `por día, del ${dateWords(first, longDate)} al ${dateWords(last, longDate)}`;
  const totalOf = (i: number) => number.format(totals[i] ?? 0);
  const summary =
    highest === 0
      ? `Solicitudes ${when}: todavía ninguna en ${lines.map((line) => line.label).join(', ')}.`
      : `Solicitudes ${when}: ${lines.map((line, i) => `${line.label}, ${totalOf(i)} en total`).join('; ')}.`;

  return (
    <figure className={styles.chart}>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width={WIDTH}
        height={HEIGHT}
        className={styles.chartImage}
      >
        <title>{summary}</title>
        <g fontSize={11} fill="#51606e">
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={PLOT.left} x2={PLOT.right} y1={yOf(tick)} y2={yOf(tick)} stroke="#d5dbe1" />
              <text x={PLOT.left - 6} y={yOf(tick) + 4} textAnchor="end">
                {number.format(tick)}
              </text>
            </g>
          ))}
          {labelledDays(days.length).map((day, i, all) => (
            <text
              key={day}
              x={round(xOf(day))}
              y={HEIGHT - 8}
              textAnchor={
                all.length === 1
                  ? 'middle'
                  : i === 0
                    ? 'start'
                    : i === all.length - 1
                      ? 'end'
                      : 'middle'
              }
            >
              {dateWords(days[day] ?? '', shortDate)}
            </text>
          ))}
        </g>
        {highest === 0 ? (
          <text
            x={(PLOT.left + PLOT.right) / 2}
            y={(PLOT.top + PLOT.bottom) / 2}
            textAnchor="middle"
            fontSize={13}
          >
            Sin solicitudes todavía
          </text>
        ) : null}
        {lines.map((line) => (
          <g key={line.variant}>
            <polyline
              points={line.leads
                .map((leads, day) => `${round(xOf(day))},${round(yOf(leads))}`)
                .join(' ')}
              fill="none"
              stroke={line.look.color}
              strokeWidth={2.5}
              strokeDasharray={line.look.dash}
              strokeLinejoin="round"
            />
            {days.length <= MARKERS_UP_TO_DAYS
              ? line.leads.map((leads, day) => (
                  <Marker key={day} look={line.look} x={round(xOf(day))} y={round(yOf(leads))} />
                ))
              : null}
          </g>
        ))}
      </svg>
      <ul className={styles.legend}>
        {lines.map((line) => (
          <li key={line.variant}>
            <svg width={32} height={12} viewBox="0 0 32 12" aria-hidden="true">
              <line
                x1={0}
                x2={32}
                y1={6}
                y2={6}
                stroke={line.look.color}
                strokeWidth={2.5}
                strokeDasharray={line.look.dash}
              />
              <Marker look={line.look} x={16} y={6} />
            </svg>
            {line.label}
          </li>
        ))}
      </ul>
      <details>
        <summary>Ver los números</summary>
        <table className={styles.chartTable}>
          <caption>Solicitudes por día</caption>
          <thead>
            <tr>
              <th scope="col">Día</th>
              {lines.map((line) => (
                <th key={line.variant} scope="col">
                  {line.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {days.map((day, index) => (
              <tr key={day}>
                <th scope="row">{dateWords(day, longDate)}</th>
                {lines.map((line) => (
                  <td key={line.variant}>{number.format(line.leads[index] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">Total</th>
              {lines.map((line, i) => (
                <td key={line.variant}>{number.format(totals[i] ?? 0)}</td>
              ))}
            </tr>
          </tfoot>
        </table>
      </details>
    </figure>
  );
}
