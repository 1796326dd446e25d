import { createHash } from 'node:crypto';
import { flag, generatePermutations, getPrecomputed, serialize, type Flag } from 'flags/next';
import { CONTROL, runningExperiments, type Experiment } from './definitions';
import { assignedVariant, type Choice } from './visitor';

/**
 * The flags SDK's precompute pattern (vercel/flags, frameworks/next/precompute.mdx): one flag per running
 * experiment, whose value is the visitor's variant. The proxy decides the values and serializes them into a
 * short signed code; `/variante/[code]` is prerendered for every combination (generatePermutations) and reads
 * its variants back from the code. The proxy does not call `precompute()` (evaluate + serialize): its
 * `evaluate()` would read the Vercel Toolbar's override cookie and the request through `next/headers`, where
 * our decision needs the proxy's own cookie, the QA parameter and the crawler check (lib/proxy/experiments.ts).
 */

type Entities = { visitor: string };

/**
 * The codes' signing key. The SDK signs them so that nobody can enumerate the pages of secret flags; here every
 * variant is public by design (QA forces any of them with `?variante=`), so a secret would protect nothing, and a
 * FLAGS_SECRET variable would be one more thing the agency must set, the same at build and at run time. This key is
 * derived from the running experiments themselves, which the build and every server have: a change of experiments
 * changes every code, so a code of an earlier deployment never names a page of a later one.
 */
export const codeSecret = (running: readonly Experiment[] = runningExperiments()): string =>
  createHash('sha256')
    .update(`experimentos:${JSON.stringify(running)}`)
    .digest('base64url');

/** One flag per experiment; its `decide` is the split (the proxy applies the same to its cookie's id). */
export function experimentFlags(
  running: readonly Experiment[] = runningExperiments(),
): Flag<string, Entities>[] {
  return running.map((experiment) =>
    flag<string, Entities>({
      key: experiment.name,
      description: `Experimento A/B ${experiment.name} (lib/content-experiments.ts)`,
      options: experiment.variants.map(({ id, label }) => ({ value: id, label })),
      defaultValue: CONTROL,
      decide: ({ entities }) =>
        entities ? assignedVariant(experiment, entities.visitor) : CONTROL,
    }),
  );
}

/** The precomputed codes of one set of experiments, made once per process (a handful: MAX_PAGES at most). */
export function experimentCodes(running: readonly Experiment[] = runningExperiments()) {
  const flags = experimentFlags(running);
  const secret = codeSecret(running);
  const codes = new Map<string, Promise<string>>();
  return {
    /** Every combination's code: the pages to prerender; none when no experiment runs. */
    all: (): Promise<string[]> =>
      flags.length ? generatePermutations(flags, null, secret) : Promise.resolve([]),
    /** The code of one visitor's variants (one per running experiment). */
    of(choice: Choice): Promise<string> {
      const values = flags.map((one) => choice[one.key] ?? CONTROL);
      const key = values.join('\u0000');
      let code = codes.get(key);
      if (!code) codes.set(key, (code = serialize(flags, values, secret)));
      return code;
    },
    /** The variants a code names, or undefined for a code this build did not make. */
    async read(code: string): Promise<Choice | undefined> {
      try {
        const values = await getPrecomputed(flags, flags, code, secret);
        return Object.fromEntries(flags.map((one, index) => [one.key, values[index] as string]));
      } catch {
        return undefined;
      }
    },
  };
}
