import { hero, services } from '@/lib/content';
import { contactForm } from '@/lib/island-copy';
import { SECTIONS, type SectionId, type Variant } from './definitions';

/** The words and order of the home page that an experiment may change; the control's are lib/content.ts's. */
export type PageCopy = {
  hero: typeof hero;
  /** The form's send button (lib/island-copy.ts). */
  submit: string;
  services: typeof services;
  /** The four sections below the hero, in the order they are drawn. */
  order: readonly SectionId[];
};

export const CONTROL_COPY: PageCopy = {
  hero,
  submit: contactForm.submit,
  services,
  order: SECTIONS,
};

/**
 * The page a visitor sees in `variants` (one per running experiment; they change different parts, which
 * lib/experiments/definitions.ts made sure of). Throws at build for a service that lib/content.ts does not have.
 */
export function pageCopy(variants: readonly Variant[], base: PageCopy = CONTROL_COPY): PageCopy {
  let copy = base;
  for (const { overrides } of variants) {
    const { firstSection, ...texts } = overrides;
    const heroTexts = {
      headline: texts['hero.headline'] ?? copy.hero.headline,
      lead: texts['hero.lead'] ?? copy.hero.lead,
      formHeading: texts['hero.formHeading'] ?? copy.hero.formHeading,
    };
    const items = copy.services.items.map((item, index) => {
      const text = texts[`services.items.${index + 1}.text` as keyof typeof texts];
      return text ? { ...item, text } : item;
    });
    for (const position of [1, 2, 3])
      if (texts[`services.items.${position}.text` as keyof typeof texts] && position > items.length)
        throw new Error(
          `lib/content-experiments.ts cambia el servicio ${position}, y lib/content.ts no lo tiene.`,
        );
    copy = {
      hero: { ...copy.hero, ...heroTexts },
      submit: texts['contactForm.submit'] ?? copy.submit,
      services: {
        ...copy.services,
        heading: texts['services.heading'] ?? copy.services.heading,
        items,
      },
      order: firstSection
        ? [firstSection, ...copy.order.filter((id) => id !== firstSection)]
        : copy.order,
    };
  }
  return copy;
}
