import { render, screen, within } from '@testing-library/react';
import type { CountsRead } from '@/lib/experiments/counters';
import type { Experiment } from '@/lib/experiments/definitions';
import { ExperimentResults } from './experiment-results';

const EXPERIMENT: Experiment = {
  name: 'titulo-asesoria',
  split: [50, 50],
  variants: [
    { id: 'control', label: 'Página actual', overrides: {} },
    { id: 'b', label: 'Título de asesoría', overrides: { 'hero.headline': 'Asesoría gratis' } },
  ],
};

/** Counts over `days` days: the visitors spread evenly, the leads all on the last day. */
function counting(
  totals: Record<string, { visitors: number; leads: number }>,
  days = 20,
): CountsRead {
  const dayNames = Array.from(
    { length: days },
    (_, n) => `2026-11-${String(n + 1).padStart(2, '0')}`,
  );
  const spread = (total: number) => dayNames.map((_, n) => (n === days - 1 ? total : 0));
  return {
    counting: true,
    days: dayNames,
    experiments: {
      [EXPERIMENT.name]: Object.fromEntries(
        Object.entries(totals).map(([variant, { visitors, leads }]) => [
          variant,
          { visitors: dayNames.map(() => visitors / days), leads: spread(leads) },
        ]),
      ),
    },
    outcomes: { received: [], live: [], later: [], spam: [], dead: [] },
  };
}

describe('an experiment’s result on /equipo', () => {
  it('shows visitors, leads, the rate with its interval and the chance to beat the control', () => {
    render(
      <ExperimentResults
        experiments={[EXPERIMENT]}
        counts={counting({
          control: { visitors: 1000, leads: 100 },
          b: { visitors: 1000, leads: 130 },
        })}
      />,
    );
    const rows = within(screen.getByRole('table', { name: /Resultado por variante/ })).getAllByRole(
      'row',
    );
    const b = rows.find((row) => row.textContent?.includes('Título de asesoría'));
    expect(b?.textContent).toContain('1,000');
    expect(b?.textContent).toContain('130');
    expect(b?.textContent).toContain('13.0');
    // 1,000 visitors with 100 leads against 1,000 with 130: about 0.98.
    expect(b?.textContent).toMatch(/98\.\d\s?%/);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns when the split is off, and reads nothing into the result', () => {
    render(
      <ExperimentResults
        experiments={[EXPERIMENT]}
        counts={counting({
          control: { visitors: 1000, leads: 100 },
          b: { visitors: 1200, leads: 130 },
        })}
      />,
    );
    expect(screen.getByRole('alert').textContent).not.toBe('');
  });

  it('says it cannot count rather than showing numbers it does not have', () => {
    render(
      <ExperimentResults
        experiments={[EXPERIMENT]}
        counts={{ counting: false, why: 'no hay Redis' }}
      />,
    );
    expect(screen.getByText(/No se puede contar: no hay Redis/)).toBeTruthy();
    expect(screen.queryByRole('table', { name: /Resultado por variante/ })).toBeNull();
  });

  it('shows nothing when no experiment runs', () => {
    const { container } = render(<ExperimentResults experiments={[]} counts={counting({})} />);
    expect(container.textContent).toBe('');
  });
});
