import type { ReactNode } from 'react';
import type { SectionId } from '@/lib/experiments/definitions';
import type { LeadExperiment } from '@/lib/experiments/lead-experiment';
import { CONTROL_COPY, type PageCopy } from '@/lib/experiments/page-copy';
import { Benefits } from './benefits';
import { Clients } from './clients';
import { Digital } from './digital';
import { Hero } from './hero';
import { Services } from './services';
import { StructuredData } from './structured-data';

type Props = {
  /** The words and order of the page: lib/content.ts's, or a variant's. */
  copy?: PageCopy;
  /** The variants this page is of (none for `/` itself): the form posts them with a lead. */
  experiments?: LeadExperiment[];
};

/**
 * The home page's sections, for `/` and for each variant of it (app/(sitio)/variante/[code]): the hero with the
 * form always on top, then the four others in the copy's order.
 */
export function Home({ copy = CONTROL_COPY, experiments }: Props) {
  const sections: Record<SectionId, ReactNode> = {
    benefits: <Benefits />,
    clients: <Clients />,
    services: <Services copy={copy.services} />,
    digital: <Digital />,
  };
  const [first, second, third, fourth] = copy.order;
  const variant = experiments?.length ? { submit: copy.submit, experiments } : undefined;
  // One child per place, not a list: a list would need keys, and the control's page would no longer be the one it was.
  return (
    <>
      <StructuredData />
      <Hero copy={copy.hero} variant={variant} />
      {first && sections[first]}
      {second && sections[second]}
      {third && sections[third]}
      {fourth && sections[fourth]}
    </>
  );
}
