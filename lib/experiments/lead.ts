import { cookies } from 'next/headers';
import { after } from 'next/server';
import type { ContactState } from '@/lib/contact/state';
import type { LeadSource } from '@/lib/contact/source';
import { countLead } from './counters';
import { runningExperiments, variantOf } from './definitions';
import { decodeExperiments, type LeadExperiment } from './lead-experiment';
import { isQaVisit, parseVisitor, VISITOR_COOKIE } from './visitor';

export { VARIANT_FIELD, type LeadExperiment } from './lead-experiment';

/**
 * The contact action's part of an experiment: which variants a post names (the form's hidden VARIANT_FIELD, with
 * or without JavaScript), and the count of a person's lead.
 */

/** The posted variants that a running experiment has; any other (an ended experiment, a forged one) is dropped. */
export function postedExperiments(value: string | undefined): LeadExperiment[] {
  return decodeExperiments(value).filter(({ name, variant }) => variantOf(name, variant));
}

/**
 * The variants a lead was shown: the ones its form posted; from a form without the field (the retry page after a
 * deploy, a page built before the experiment started), the ones the visitor's cookie keeps, in the agency's order.
 */
export async function leadExperiments(posted: string | undefined): Promise<LeadExperiment[]> {
  if (posted !== undefined) return postedExperiments(posted);
  const running = runningExperiments();
  if (running.length === 0) return [];
  const kept = parseVisitor((await cookies()).get(VISITOR_COOKIE)?.value)?.variants ?? {};
  return running.flatMap(({ name }) => {
    const variant = kept[name];
    return variant && variantOf(name, variant) ? [{ name, variant }] : [];
  });
}

/** The lead's context with the variant of each experiment on its source. */
export function taggedWith(experiments: readonly LeadExperiment[]) {
  return <Context extends { source?: LeadSource }>(context: Context): Context =>
    experiments.length
      ? { ...context, source: { ...context.source, experiments: [...experiments] } }
      : context;
}

/**
 * Passes the action's state on; once it thanks a person (the action calls this for no spam and no QA enquiry),
 * counts their lead for each variant, after the answer, unless the visit was QA's (`?variante=`).
 */
export function countedLead(experiments: readonly LeadExperiment[]) {
  return (state: ContactState): ContactState => {
    if (state.status !== 'sent' || experiments.length === 0) return state;
    after(async () => {
      if (isQaVisit(await cookies())) return;
      const at = Date.now();
      await Promise.all(experiments.map(({ name, variant }) => countLead(name, variant, at))).catch(
        (error: unknown) => console.error('[experimentos] No se pudo contar una solicitud:', error),
      );
    });
    return state;
  };
}
