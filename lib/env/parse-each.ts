import { z } from 'zod';
import type { Source } from './public';

/** One malformed variable: which, what is wrong, and what the server does instead. */
export type EnvProblem = { variable: string; message: string; fallback: string };

/** A configuration and the malformed variables it had to do without. */
export type Parsed<T> = { config: T; problems: EnvProblem[] };

/** A whole number above zero; unset or blank takes the default. */
const WHOLE = 'debe ser un número entero mayor que cero';
export const positiveInt = (fallback: number) =>
  z.preprocess(
    (value) => (value === undefined || (typeof value === 'string' && value.trim() === '') ? undefined : Number(value)),
    z.number({ message: WHOLE }).int(WHOLE).positive(WHOLE).default(fallback),
  );

export type Shape = Record<string, z.ZodType>;
type Values<S extends Shape> = { [K in keyof S]: z.output<S[K]> };
/** What the server does instead when a variable is malformed; unnamed: 'se ignora'. */
export type Fallbacks<S extends Shape> = Partial<Record<keyof S, string>>;

/**
 * Every variable on its own: a malformed one takes the value it has when unset, and is
 * reported. So one typo turns off only its own feature and every enquiry is still delivered.
 */
export function parseEach<S extends Shape>(
  shape: S,
  source: Source,
  fallbacks: Fallbacks<S>,
): { env: Values<S>; problems: EnvProblem[] } {
  const env: Record<string, unknown> = {};
  const problems: EnvProblem[] = [];
  for (const [variable, schema] of Object.entries(shape)) {
    const result = schema.safeParse(source[variable]);
    if (result.success) {
      env[variable] = result.data;
      continue;
    }
    problems.push({
      variable,
      message: [...new Set(result.error.issues.map((issue) => issue.message))].join('; '),
      fallback: fallbacks[variable] ?? 'se ignora',
    });
    env[variable] = schema.parse(undefined);
  }
  return { env: env as Values<S>, problems };
}

export function uniqueByVariable(problems: readonly EnvProblem[]): EnvProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => !seen.has(problem.variable) && seen.add(problem.variable));
}
