/**
 * A lead's experiment and variant, as the page's form posts them: small and
 * free of zod, because the form's island imports it on every first visit.
 */

/** The experiment a lead came from and the variant its visitor saw (LeadSource.experiments, lib/contact/source.ts). */
export type LeadExperiment = { name: string; variant: string };

/** The form's hidden input: `experiment:variant` of each running experiment, joined by commas. */
export const VARIANT_FIELD = 'variante';

const PAIR = /^([a-z0-9]+(?:-[a-z0-9]+)*):([a-z0-9]+(?:-[a-z0-9]+)*)$/;
// Eight pairs of two 40-character names: far above any page's (lib/experiments/definitions.ts allows 16 pages).
const MAX_FIELD_CHARS = 8 * 82;

export const encodeExperiments = (list: readonly LeadExperiment[]): string =>
  list.map(({ name, variant }) => `${name}:${variant}`).join(',');

/** A posted value, read as the untrusted input it is: well-formed pairs, each experiment once; else []. */
export function decodeExperiments(value: string | undefined | null): LeadExperiment[] {
  if (!value || value.length > MAX_FIELD_CHARS) return [];
  const found: LeadExperiment[] = [];
  for (const pair of value.split(',')) {
    const match = PAIR.exec(pair.trim());
    if (!match || found.some((one) => one.name === match[1])) return [];
    found.push({ name: match[1] as string, variant: match[2] as string });
  }
  return found;
}
