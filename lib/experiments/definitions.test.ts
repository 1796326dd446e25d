/**
 * @jest-environment node
 */
import { experiments as agencyExperiments } from '../content-experiments';
import {
  assertExperiments,
  checkExperiments,
  runningExperiments,
  type ExperimentDefinition,
} from './definitions';

/** A running experiment in the right shape; each test breaks one thing. */
const good = (changes: Partial<ExperimentDefinition> = {}): ExperimentDefinition => ({
  name: 'titulo-precio',
  runs: true,
  variants: [
    { id: 'control', label: 'Página actual' },
    { id: 'b', label: 'Precio', overrides: { 'hero.headline': 'Páginas web desde $4,990' } },
  ],
  split: [50, 50],
  ...changes,
});

const problemsOf = (...list: unknown[]) => checkExperiments(list).problems;

describe('the experiments the agency writes', () => {
  it('ship with none running, so / is the page it was', () => {
    expect(agencyExperiments.length).toBeGreaterThan(0);
    expect(agencyExperiments.every((experiment) => !experiment.runs)).toBe(true);
    expect(runningExperiments()).toEqual([]);
    expect(
      checkExperiments(agencyExperiments.map((one) => ({ ...one, runs: true }))).problems,
    ).toEqual([]);
  });

  it('accept a running experiment in the right shape, with the control first and without changes', () => {
    const { running, problems } = checkExperiments([good()]);
    expect(problems).toEqual([]);
    expect(running).toEqual([
      {
        name: 'titulo-precio',
        variants: [
          { id: 'control', label: 'Página actual', overrides: {} },
          { id: 'b', label: 'Precio', overrides: { 'hero.headline': 'Páginas web desde $4,990' } },
        ],
        split: [50, 50],
      },
    ]);
  });

  it('hold a draft (not running) to nothing', () => {
    expect(problemsOf({ name: 'Borrador A', runs: false, variants: [], split: [] })).toEqual([]);
  });
});

describe('a running experiment in the wrong shape stops the build, saying why in Spanish', () => {
  it.each([
    ['Título Precio', 'el nombre debe ir en minúsculas, números y guiones'],
    ['a'.repeat(41), 'el nombre pasa de 40 caracteres'],
    ['', 'el nombre debe ir en minúsculas'],
  ])('a name like %j', (name, message) => {
    expect(problemsOf(good({ name })).join('\n')).toContain(message);
  });

  it('two experiments with one name', () => {
    expect(problemsOf(good(), { ...good(), runs: false })).toEqual([
      'Hay 2 experimentos llamados «titulo-precio»: cada uno necesita su propio nombre.',
    ]);
  });

  it('a split that does not add up to 100, or not one percent per variant', () => {
    expect(problemsOf(good({ split: [60, 50] }))).toEqual([
      'Experimento «titulo-precio»: split suma 110; debe sumar 100.',
    ]);
    expect(problemsOf(good({ split: [100] }))).toEqual([
      'Experimento «titulo-precio»: split tiene 1 porcentajes y hay 2 variantes: uno por variante.',
    ]);
    expect(problemsOf(good({ split: [50.5, 49.5] })).join('\n')).toContain(
      'cada porcentaje de split debe ser entero',
    );
    expect(problemsOf(good({ split: [0, 100] })).join('\n')).toContain(
      'cada porcentaje de split debe ser al menos 1',
    );
  });

  it('no variant besides the control, or more than three', () => {
    const control = { id: 'control', label: 'Actual' };
    const other = (id: string) => ({ id, label: id, overrides: { 'hero.lead': `Texto ${id}` } });
    expect(problemsOf(good({ variants: [control], split: [100] }))).toEqual([
      'Experimento «titulo-precio»: debe tener de 1 a 3 variantes además de control (tiene 0).',
    ]);
    const five = [control, other('b'), other('c'), other('d'), other('e')];
    expect(problemsOf(good({ variants: five, split: [20, 20, 20, 20, 20] }))).toEqual([
      'Experimento «titulo-precio»: debe tener de 1 a 3 variantes además de control (tiene 4).',
    ]);
  });

  it('a first variant that is not the unchanged control', () => {
    const changed = { id: 'control', label: 'Actual', overrides: { 'hero.lead': 'Otro' } };
    const [, b] = good().variants;
    expect(problemsOf(good({ variants: [changed, b!] })).join('\n')).toContain(
      "la primera variante debe ser la página actual, sin cambios: { id: 'control', label: '…' }",
    );
  });

  it('a variant id that is not kebab-case, is control again, or is used twice', () => {
    const variant = (id: string) => ({ id, label: 'Otra', overrides: { 'hero.lead': 'Texto' } });
    const control = { id: 'control', label: 'Actual' };
    expect(problemsOf(good({ variants: [control, variant('B')] })).join('\n')).toContain(
      'el id de una variante debe ir en minúsculas, números y guiones, como titulo-precio (variante «B»)',
    );
    expect(problemsOf(good({ variants: [control, variant('control')] })).join('\n')).toContain(
      'solo la primera variante puede ser control',
    );
    const twice = good({ variants: [control, variant('b'), variant('b')], split: [34, 33, 33] });
    expect(problemsOf(twice).join('\n')).toContain('dos variantes tienen el mismo id');
  });

  it('a variant that changes nothing, or a part that does not exist', () => {
    const control = { id: 'control', label: 'Actual' };
    expect(
      problemsOf(good({ variants: [control, { id: 'b', label: 'Vacía', overrides: {} }] })),
    ).toEqual([
      'Experimento «titulo-precio»: no cambia nada: escribe al menos un cambio en overrides (variante «b»).',
    ]);
    const unknown = { id: 'b', label: 'Mal', overrides: { 'hero.title': 'Hola' } as never };
    expect(problemsOf(good({ variants: [control, unknown] })).join('\n')).toContain(
      'cambia «hero.title», que no existe; se puede cambiar: hero.headline, hero.lead',
    );
    const section = { id: 'b', label: 'Mal', overrides: { firstSection: 'hero' } as never };
    expect(problemsOf(good({ variants: [control, section] })).join('\n')).toContain(
      'firstSection debe ser benefits, clients, services, digital',
    );
  });

  it('an override that is empty or longer than its place allows', () => {
    const control = { id: 'control', label: 'Actual' };
    const blank = { id: 'b', label: 'Vacía', overrides: { 'contactForm.submit': '   ' } };
    expect(problemsOf(good({ variants: [control, blank] }))).toEqual([
      'Experimento «titulo-precio»: «contactForm.submit» está vacío (variante «b»).',
    ]);
    const long = { id: 'b', label: 'Larga', overrides: { 'hero.headline': 'x'.repeat(91) } };
    expect(problemsOf(good({ variants: [control, long] }))).toEqual([
      'Experimento «titulo-precio»: «hero.headline» tiene 91 caracteres; el máximo es 90 (variante «b»).',
    ]);
  });

  it('a stopping rule that is not two whole numbers', () => {
    expect(problemsOf(good({ rule: { minVisitors: 0, minLeads: 2.5 } })).join('\n')).toMatch(
      /rule.minVisitors debe ser al menos 1[^]*rule.minLeads debe ser entero/,
    );
  });

  it('two running experiments that change the same part', () => {
    const other = good({
      name: 'boton',
      variants: [
        { id: 'control', label: 'Actual' },
        {
          id: 'b',
          label: 'Botón',
          overrides: { 'contactForm.submit': 'Enviar ya', 'hero.headline': 'Otro título' },
        },
      ],
    });
    expect(problemsOf(good(), other)).toEqual([
      'Los experimentos «titulo-precio» y «boton» cambian los dos «hero.headline»: dos experimentos que corren a la vez ' +
        'deben cambiar partes distintas.',
    ]);
    // Not running, it may: the agency prepares the next one.
    expect(problemsOf(good(), { ...other, runs: false })).toEqual([]);
  });

  it('more versions of the page than a build should make', () => {
    const four = (name: string, part: string) =>
      good({
        name,
        variants: [
          { id: 'control', label: 'Actual' },
          ...['b', 'c', 'd'].map((id) => ({ id, label: id, overrides: { [part]: `Texto ${id}` } })),
        ],
        split: [25, 25, 25, 25],
      });
    expect(problemsOf(four('uno', 'hero.headline'), four('dos', 'hero.lead'))).toEqual([]);
    expect(
      problemsOf(
        four('uno', 'hero.headline'),
        four('dos', 'hero.lead'),
        good({
          name: 'tres',
          variants: [
            { id: 'control', label: 'Actual' },
            { id: 'b', label: 'b', overrides: { 'services.heading': 'Servicios' } },
          ],
        }),
      ),
    ).toEqual([
      'Los experimentos que corren juntos hacen 32 versiones de la página; el máximo es 16: termina alguno o quita variantes.',
    ]);
  });

  it('says all of it at once when next build checks the file', () => {
    expect(() => assertExperiments([good({ split: [10, 10] }), good({ name: 'Otro' })])).toThrow(
      'lib/content-experiments.ts tiene experimentos que no se pueden correr:\n' +
        '  - Experimento «titulo-precio»: split suma 20; debe sumar 100.\n' +
        '  - Experimento «Otro»: el nombre debe ir en minúsculas, números y guiones, como titulo-precio.',
    );
    expect(() => assertExperiments([good()])).not.toThrow();
  });
});
