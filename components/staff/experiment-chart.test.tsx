import { render, screen, within } from '@testing-library/react';
import { type ChartSeries, ExperimentChart } from './experiment-chart';

const dayList = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    new Date(Date.UTC(2026, 10, 1 + i)).toISOString().slice(0, 10),
  );

const LABELS = ['A (control)', 'B', 'C', 'D'];
const seriesOf = (...leads: number[][]): ChartSeries[] =>
  leads.map((perDay, i) => ({ variant: 'abcd'.charAt(i), label: LABELS[i] ?? '', leads: perDay }));

/** Every x,y the chart draws, from its lines and markers. */
function drawnPoints(svg: Element): [number, number][] {
  const fromLines = [...svg.querySelectorAll('polyline')].flatMap((line) =>
    (line.getAttribute('points') ?? '')
      .split(' ')
      .map((pair) => pair.split(',').map(Number) as [number, number]),
  );
  const fromCircles = [...svg.querySelectorAll('circle')].map(
    (c) => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))] as [number, number],
  );
  return [...fromLines, ...fromCircles];
}

describe('the chart of leads per day per variant', () => {
  it('is one image named after what it shows, with each variant’s total', () => {
    render(<ExperimentChart days={dayList(3)} series={seriesOf([1, 2, 3], [0, 4, 5])} />);
    const chart = screen.getByRole('img', {
      name: 'Solicitudes por día, del 1 nov 2026 al 3 nov 2026: A (control), 6 en total; B, 9 en total.',
    });
    expect(chart).toHaveAttribute('viewBox', '0 0 640 220');
    expect(chart.querySelector('title')).toHaveTextContent(
      'A (control), 6 en total; B, 9 en total',
    );
  });

  it('gives every day’s number in a table behind «Ver los números»', () => {
    render(<ExperimentChart days={dayList(3)} series={seriesOf([1, 2, 3], [0, 4, 5])} />);
    expect(screen.getByText('Ver los números').closest('details')).not.toHaveAttribute('open');
    const table = screen.getByRole('table', { name: 'Solicitudes por día' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Día', 'A (control)', 'B']);
    const second = within(table).getByRole('row', { name: /2 nov 2026/ });
    expect(
      within(second)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['2', '4']);
    const total = within(table).getByRole('row', { name: /Total/ });
    expect(
      within(total)
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['6', '9']);
  });

  it('tells four variants apart by dash and marker shape, not by colour alone', () => {
    const { container } = render(
      <ExperimentChart days={dayList(7)} series={seriesOf([1, 2], [2, 3], [3, 4], [4, 5])} />,
    );
    const chart = screen.getByRole('img');
    const dashes = [...chart.querySelectorAll('polyline')].map((line) =>
      line.getAttribute('stroke-dasharray'),
    );
    expect(new Set(dashes).size).toBe(4);
    const shapes = [...chart.querySelectorAll('g > polyline')].map((line) => {
      const marker = line.nextElementSibling;
      return `${marker?.tagName}:${marker?.getAttribute('d')?.split('L').length ?? 0}`;
    });
    expect(new Set(shapes).size).toBe(4);
    // The legend repeats each look beside its label.
    const legend = container.querySelector('ul');
    expect([...(legend?.querySelectorAll('li') ?? [])].map((li) => li.textContent)).toEqual(LABELS);
    expect(
      new Set(
        [...(legend?.querySelectorAll('line') ?? [])].map((l) =>
          l.getAttribute('stroke-dasharray'),
        ),
      ).size,
    ).toBe(4);
  });

  it('draws a single day as one marker per variant, in the middle', () => {
    render(<ExperimentChart days={['2026-11-05']} series={seriesOf([3], [7])} />);
    const chart = screen.getByRole('img', {
      name: 'Solicitudes del 5 nov 2026: A (control), 3 en total; B, 7 en total.',
    });
    const circle = chart.querySelector('circle');
    // The plot runs from x = 40 to 624.
    expect(circle).toHaveAttribute('cx', '332');
    expect(chart.querySelectorAll('circle, rect')).toHaveLength(2);
    expect(within(chart).getByText('5 nov')).toBeInTheDocument();
  });

  it('says there are no leads yet rather than drawing an empty scale', () => {
    render(
      <ExperimentChart
        days={dayList(10)}
        series={seriesOf(Array(10).fill(0), Array(10).fill(0))}
      />,
    );
    const chart = screen.getByRole('img', {
      name: 'Solicitudes por día, del 1 nov 2026 al 10 nov 2026: todavía ninguna en A (control), B.',
    });
    expect(within(chart).getByText('Sin solicitudes todavía')).toBeInTheDocument();
    for (const [x, y] of drawnPoints(chart)) {
      expect(Number.isFinite(x) && Number.isFinite(y)).toBe(true);
    }
  });

  it('keeps ninety days of four variants inside the picture, with a few dates and no crowd of markers', () => {
    const days = dayList(90);
    const leads = (scale: number) => days.map((_, i) => Math.round(scale * (1 + Math.sin(i / 5))));
    render(
      <ExperimentChart days={days} series={seriesOf(leads(3), leads(4), leads(5), leads(12))} />,
    );
    const chart = screen.getByRole('img');
    expect(chart.querySelectorAll('circle, rect')).toHaveLength(0);
    const points = drawnPoints(chart);
    expect(points).toHaveLength(4 * 90);
    for (const [x, y] of points) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(640);
      expect(y).toBeGreaterThanOrEqual(0);
      expect(y).toBeLessThanOrEqual(220);
    }
    const dates = within(chart).getAllByText(/^\d{1,2} [a-z]{3}/);
    expect(dates.map((text) => text.textContent)).toEqual([
      '1 nov',
      '19 nov',
      '7 dic',
      '24 dic',
      '11 ene',
      '29 ene',
    ]);
    // The top of the scale is a round number at or above the busiest day (24): 0, 10, 20, 30.
    expect(within(chart).getByText('30')).toBeInTheDocument();
  });

  it('reads a missing, negative or broken count as 0', () => {
    render(<ExperimentChart days={dayList(3)} series={seriesOf([2], [Number.NaN, -4, 5, 99])} />);
    const table = screen.getByRole('table');
    expect(
      within(within(table).getByRole('row', { name: /3 nov 2026/ }))
        .getAllByRole('cell')
        .map((td) => td.textContent),
    ).toEqual(['0', '5']);
    expect(screen.getByRole('img')).toHaveAccessibleName(
      /A \(control\), 2 en total; B, 5 en total/,
    );
  });

  it('says there is nothing to draw before the first day', () => {
    render(<ExperimentChart days={[]} series={seriesOf([], [])} />);
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('Todavía no hay días con datos.')).toBeInTheDocument();
  });
});
