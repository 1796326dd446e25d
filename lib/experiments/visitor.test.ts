/**
 * @jest-environment node
 */
import { checkExperiments, type ExperimentDefinition } from './definitions';
import {
  assignedVariant,
  bucketOf,
  choiceOf,
  dayOf,
  encodeVisitor,
  forcedChoice,
  isQaVisit,
  newVisitorId,
  parseVisitor,
} from './visitor';

const definition = (name: string, part: string, split: number[]): ExperimentDefinition => ({
  name,
  runs: true,
  variants: [
    { id: 'control', label: 'Actual' },
    ...['b', 'c', 'd']
      .slice(0, split.length - 1)
      .map((id) => ({ id, label: id, overrides: { [part]: id } })),
  ],
  split,
});
const [titulo, boton] = checkExperiments([
  definition('titulo', 'hero.headline', [20, 80]),
  definition('boton', 'contactForm.submit', [50, 25, 25]),
]).running;

describe('who sees which variant', () => {
  it('draws a fresh random id for each new visitor', () => {
    const ids = new Set(Array.from({ length: 1000 }, newVisitorId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{16}$/);
  });

  it('puts one id in the same bucket every time, and in independent buckets for two experiments', () => {
    const ids = Array.from({ length: 4000 }, newVisitorId);
    expect(ids.map((id) => bucketOf('titulo', id))).toEqual(
      ids.map((id) => bucketOf('titulo', id)),
    );
    const both = ids.filter(
      (id) => bucketOf('titulo', id) < 50 && bucketOf('boton', id) < 50,
    ).length;
    // A quarter, as two independent halves make; the same hash for both would make a half.
    expect(both / ids.length).toBeGreaterThan(0.22);
    expect(both / ids.length).toBeLessThan(0.28);
  });

  it('follows the configured split', () => {
    const ids = Array.from({ length: 20_000 }, newVisitorId);
    const share = (id: string) =>
      ids.filter((one) => assignedVariant(boton!, one) === id).length / ids.length;
    expect(share('control')).toBeCloseTo(0.5, 1);
    expect(share('b')).toBeCloseTo(0.25, 1);
    expect(share('c')).toBeCloseTo(0.25, 1);
    expect(
      ids.filter((one) => assignedVariant(titulo!, one) === 'b').length / ids.length,
    ).toBeCloseTo(0.8, 1);
  });

  it('keeps the variant a visitor has while it exists, even if the split changed since', () => {
    const id = newVisitorId();
    expect(
      choiceOf([titulo!, boton!], { id, variants: { titulo: 'control', boton: 'c' } }),
    ).toEqual({
      titulo: 'control',
      boton: 'c',
    });
    // An ended experiment is dropped, a removed variant drawn again, a new experiment drawn.
    expect(choiceOf([boton!], { id, variants: { viejo: 'b', boton: 'z' } })).toEqual({
      boton: assignedVariant(boton!, id),
    });
  });

  it('lets QA force a variant by its id, or by experiment and id, the rest showing their control', () => {
    expect(forcedChoice([titulo!, boton!], ['b'])).toEqual({ titulo: 'b', boton: 'b' });
    expect(forcedChoice([titulo!, boton!], ['boton:c'])).toEqual({ titulo: 'control', boton: 'c' });
    expect(forcedChoice([titulo!, boton!], ['titulo:b,boton:c'])).toEqual({
      titulo: 'b',
      boton: 'c',
    });
    expect(forcedChoice([titulo!, boton!], ['z', 'boton:<script>'])).toEqual({
      titulo: 'control',
      boton: 'control',
    });
  });
});

describe('the visitor cookie', () => {
  it('holds the id, the day last counted and the variants, and reads back', () => {
    const visitor = {
      id: 'Ab-_0123456789xy',
      day: 20_500,
      variants: { titulo: 'b', boton: 'control' },
    };
    expect(encodeVisitor(visitor)).toBe('Ab-_0123456789xy.20500.titulo:b.boton:control');
    expect(parseVisitor(encodeVisitor(visitor))).toEqual(visitor);
  });

  it.each([
    undefined,
    '',
    'x',
    'short.1.titulo:b',
    'Ab-_0123456789xy.día.titulo:b',
    `Ab-_0123456789xy.1.${'a:b.'.repeat(300)}`,
  ])('reads nothing from %j', (value) => expect(parseVisitor(value)).toBeUndefined());

  it('skips a pair it cannot read, keeping the id', () => {
    expect(parseVisitor('Ab-_0123456789xy.3.titulo:b.<x>:y')).toEqual({
      id: 'Ab-_0123456789xy',
      day: 3,
      variants: { titulo: 'b' },
    });
  });

  it('counts days as Mexico City does (UTC-6)', () => {
    expect(dayOf(Date.parse('2026-03-10T05:59:59Z'))).toBe(
      dayOf(Date.parse('2026-03-09T12:00:00Z')),
    );
    expect(dayOf(Date.parse('2026-03-10T06:00:00Z'))).toBe(
      dayOf(Date.parse('2026-03-09T12:00:00Z')) + 1,
    );
  });

  it('tells a QA visit by its cookie', () => {
    const jar = (value?: string) => ({ get: () => (value === undefined ? undefined : { value }) });
    expect(isQaVisit(jar('1'))).toBe(true);
    expect(isQaVisit(jar())).toBe(false);
    expect(isQaVisit(jar('0'))).toBe(false);
  });
});
