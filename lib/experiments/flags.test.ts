/**
 * @jest-environment node
 */
import { checkExperiments, type ExperimentDefinition } from './definitions';
import { codeSecret, experimentCodes, experimentFlags } from './flags';
import { assignedVariant } from './visitor';

const definition = (
  name: string,
  part: string,
  ids: string[],
  split: number[],
): ExperimentDefinition => ({
  name,
  runs: true,
  variants: [
    { id: 'control', label: 'Actual' },
    ...ids.map((id) => ({ id, label: id, overrides: { [part]: `Texto ${id}` } })),
  ],
  split,
});
const { running, problems } = checkExperiments([
  definition('titulo', 'hero.headline', ['b'], [50, 50]),
  definition('boton', 'contactForm.submit', ['b', 'c'], [40, 30, 30]),
]);

const boton = running.find((one) => one.name === 'boton');

describe('the precomputed codes of the variants of /', () => {
  it('start from experiments in the right shape', () => expect(problems).toEqual([]));

  it('are one per combination of variants, the pages the build prerenders, and read back to it', async () => {
    const codes = experimentCodes(running);
    const all = await codes.all();
    expect(all).toHaveLength(6);
    const combinations = ['control', 'b'].flatMap((titulo) =>
      ['control', 'b', 'c'].map((boton) => ({ titulo, boton })),
    );
    const made = await Promise.all(combinations.map((choice) => codes.of(choice)));
    expect(new Set(made)).toEqual(new Set(all));
    for (const [index, code] of made.entries())
      expect(await codes.read(code)).toEqual(combinations[index]);
    // Short enough for an address: a header, two bytes and a signature.
    expect(Math.max(...all.map((code) => code.length))).toBeLessThan(100);
  });

  it('read nothing from a code this build did not make, or one signed for other experiments', async () => {
    const codes = experimentCodes(running);
    expect(await codes.read('x')).toBeUndefined();
    const code = await codes.of({ titulo: 'b', boton: 'c' });
    expect(await codes.read(`${code}x`)).toBeUndefined();
    const others = experimentCodes(running.slice(0, 1));
    expect(await others.read(code)).toBeUndefined();
  });

  it('are none when no experiment runs: nothing is prerendered under /variante', async () => {
    expect(await experimentCodes([]).all()).toEqual([]);
  });

  it('are signed with a key made of the experiments, which changes with them', () => {
    expect(codeSecret(running)).toEqual(codeSecret(structuredClone(running)));
    expect(codeSecret(running)).not.toEqual(codeSecret(running.slice(1)));
  });

  it('have one flag per experiment that decides as the proxy does', async () => {
    const flags = experimentFlags(running);
    expect(flags.map((one) => one.key)).toEqual(['titulo', 'boton']);
    expect(flags[1]?.options?.map((option) => option.value)).toEqual(['control', 'b', 'c']);
    const decide = flags[1]?.decide;
    expect(decide).toBeDefined();
    for (const visitor of ['AAAAAAAAAAAAAAAA', 'zzzzzzzzzzzzzzzz', 'q1w2e3r4t5y6u7i8'])
      expect(
        await decide?.({
          entities: { visitor },
          headers: new Headers() as never,
          cookies: {} as never,
        }),
      ).toBe(assignedVariant(boton as NonNullable<typeof boton>, visitor));
  });
});
