import { z } from 'zod';
import { experiments as agencyExperiments } from '../content-experiments';
import { TEXT_PARTS, type Overrides, type TextPart, SECTIONS } from './shape';

/**
 * The experiments of lib/content-experiments.ts, checked. Only a running one
 * is held to the rules (a draft may be half written): next.config.ts stops
 * `next build` with every problem of a running one, in Spanish, for the agency
 * to fix. No imports beyond zod, the agency's file and its shape: next.config.ts loads this
 * in plain Node, where lib/content.ts (its pictures) cannot be loaded.
 */

export {
  SECTIONS,
  TEXT_PARTS,
  type ExperimentDefinition,
  type Overrides,
  type SectionId,
  type TextPart,
} from './shape';

const PARTS = [...(Object.keys(TEXT_PARTS) as TextPart[]), 'firstSection'] as const;

export const CONTROL = 'control';
/** One a variant; 2 to 4 pages per experiment. */
export const MAX_VARIANTS = 3;
/** Each combination of the running experiments' variants is a page built ahead: a few seconds of build each. */
export const MAX_PAGES = 16;
export const MAX_NAME = 40;

export type Variant = { id: string; label: string; overrides: Overrides };
export type Experiment = {
  name: string;
  variants: Variant[];
  /** Percent per variant, in the order of `variants`; sums to 100. */
  split: number[];
  rule?: { minVisitors: number; minLeads: number };
};

const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const kebab = (what: string) =>
  z
    .string({ error: `${what} debe ser un texto` })
    .max(MAX_NAME, `${what} pasa de ${MAX_NAME} caracteres`)
    .regex(KEBAB, `${what} debe ir en minúsculas, números y guiones, como titulo-precio`);
const label = z
  .string({ error: 'cada variante necesita su label' })
  .trim()
  .min(1, 'una variante tiene el label vacío');
const whole = (what: string) =>
  z
    .number({ error: `${what} debe ser un número` })
    .int(`${what} debe ser entero`)
    .min(1, `${what} debe ser al menos 1`);

const text = (part: TextPart) =>
  z
    .string({ error: `«${part}» debe ser un texto` })
    .refine((value) => value.trim() !== '', `«${part}» está vacío`)
    .refine((value) => value.length <= TEXT_PARTS[part], {
      error: (issue) =>
        `«${part}» tiene ${String(issue.input).length} caracteres; el máximo es ${TEXT_PARTS[part]}`,
    });

const overrides = z
  .strictObject(
    {
      ...(Object.fromEntries(
        (Object.keys(TEXT_PARTS) as TextPart[]).map((part) => [part, text(part).optional()]),
      ) as Record<TextPart, z.ZodOptional<ReturnType<typeof text>>>),
      firstSection: z
        .enum(SECTIONS, { error: `firstSection debe ser ${SECTIONS.join(', ')}` })
        .optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? unknownPart(issue.keys)
          : 'overrides debe ser un objeto',
    },
  )
  .refine(
    (value) => Object.keys(value).length > 0,
    'no cambia nada: escribe al menos un cambio en overrides',
  );

function unknownPart(keys: string[]): string {
  return `cambia ${keys.map((key) => `«${key}»`).join(', ')}, que no existe; se puede cambiar: ${PARTS.join(', ')}`;
}

const control = z.strictObject(
  { id: z.literal(CONTROL), label },
  {
    error:
      "la primera variante debe ser la página actual, sin cambios: { id: 'control', label: '…' }",
  },
);
const variant = z.object({
  id: kebab('el id de una variante').refine(
    (id) => id !== CONTROL,
    'solo la primera variante puede ser control',
  ),
  label,
  overrides,
});

const experimentSchema = z
  .object({
    name: kebab('el nombre'),
    runs: z.boolean(),
    variants: z
      .tuple([control], variant)
      .refine((list) => list.length >= 2 && list.length <= MAX_VARIANTS + 1, {
        error: (issue) => {
          const others = (issue.input as unknown[]).length - 1;
          return `debe tener de 1 a ${MAX_VARIANTS} variantes además de control (tiene ${others})`;
        },
      })
      .refine(
        (list) => new Set(list.map((one) => one.id)).size === list.length,
        'dos variantes tienen el mismo id',
      ),
    split: z.array(whole('cada porcentaje de split'), {
      error: 'split debe ser una lista de porcentajes',
    }),
    rule: z
      .strictObject({ minVisitors: whole('rule.minVisitors'), minLeads: whole('rule.minLeads') })
      .optional(),
  })
  .superRefine((value, context) => {
    const [percents, variants] = [value.split.length, value.variants.length];
    if (percents !== variants)
      context.addIssue({
        code: 'custom',
        message: `split tiene ${percents} porcentajes y hay ${variants} variantes: uno por variante`,
      });
    const sum = value.split.reduce((total, percent) => total + percent, 0);
    if (sum !== 100)
      context.addIssue({ code: 'custom', message: `split suma ${sum}; debe sumar 100` });
  });

const nameOf = (input: unknown, index: number): string => {
  const name = (input as { name?: unknown } | null)?.name;
  return typeof name === 'string' && name ? `«${name}»` : `número ${index + 1}`;
};

const variantPath = (input: unknown, path: PropertyKey[]): string => {
  if (path[0] !== 'variants' || typeof path[1] !== 'number') return '';
  const id = (input as { variants?: Array<{ id?: unknown }> }).variants?.[path[1]]?.id;
  return typeof id === 'string' ? ` (variante «${id}»)` : ` (variante ${path[1] + 1})`;
};

/** The running experiments, checked one by one and then together. */
export function checkExperiments(list: readonly unknown[]): {
  running: Experiment[];
  problems: string[];
} {
  const problems: string[] = [];
  const running: Experiment[] = [];
  const names = new Map<string, number>();
  list.forEach((input, index) => {
    const name = (input as { name?: unknown } | null)?.name;
    if (typeof name === 'string') names.set(name, (names.get(name) ?? 0) + 1);
    if ((input as { runs?: unknown } | null)?.runs !== true) return;
    const parsed = experimentSchema.safeParse(input);
    if (!parsed.success) {
      const messages = parsed.error.issues.map(
        (issue) => `${issue.message}${variantPath(input, issue.path)}`,
      );
      for (const message of new Set(messages))
        problems.push(`Experimento ${nameOf(input, index)}: ${message}.`);
      return;
    }
    const { name: parsedName, variants, split, rule } = parsed.data;
    const [control, ...others] = variants;
    const all: Variant[] = [{ ...control, overrides: {} }, ...others];
    running.push({ name: parsedName, variants: all, split, ...(rule ? { rule } : {}) });
  });
  for (const [name, count] of names)
    if (count > 1)
      problems.push(
        `Hay ${count} experimentos llamados «${name}»: cada uno necesita su propio nombre.`,
      );
  problems.push(...clashes(running));
  const pages = running.reduce((product, experiment) => product * experiment.variants.length, 1);
  if (pages > MAX_PAGES)
    problems.push(
      `Los experimentos que corren juntos hacen ${pages} versiones de la página; el máximo es ${MAX_PAGES}: ` +
        'termina alguno o quita variantes.',
    );
  return { running, problems };
}

/** The parts two running experiments both change: a visitor in both would see one of them undone. */
function clashes(running: Experiment[]): string[] {
  const owner = new Map<string, string>();
  const problems: string[] = [];
  for (const experiment of running) {
    const parts = new Set(experiment.variants.flatMap((one) => Object.keys(one.overrides)));
    for (const part of parts) {
      const other = owner.get(part);
      if (other && other !== experiment.name)
        problems.push(
          `Los experimentos «${other}» y «${experiment.name}» cambian los dos «${part}»: ` +
            'dos experimentos que corren a la vez deben cambiar partes distintas.',
        );
      else owner.set(part, experiment.name);
    }
  }
  return problems;
}

/** For `next build` (next.config.ts): throws with every problem of a running experiment, for the agency to fix. */
export function assertExperiments(list: readonly unknown[] = agencyExperiments): void {
  const { problems } = checkExperiments(list);
  if (problems.length) {
    const lines = problems.map((problem) => `  - ${problem}`).join('\n');
    throw new Error(
      `lib/content-experiments.ts tiene experimentos que no se pueden correr:\n${lines}`,
    );
  }
}

let checked: Experiment[] | undefined;
/**
 * The running experiments, in the agency's order. A build with a bad one never ships (assertExperiments); should one
 * reach a server anyway (`next dev`), none runs, and the problems are said once.
 */
export function runningExperiments(): Experiment[] {
  if (checked) return checked;
  const { running, problems } = checkExperiments(agencyExperiments);
  for (const problem of problems) console.error(`[experimentos] ${problem}`);
  return (checked = problems.length ? [] : running);
}

/** The variant `id` of the running experiment `name`, if both exist. */
export function variantOf(name: string, id: string): Variant | undefined {
  return runningExperiments()
    .find((experiment) => experiment.name === name)
    ?.variants.find((one) => one.id === id);
}
