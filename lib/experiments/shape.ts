/**
 * The shape of an experiment as the agency writes it (lib/content-experiments.ts), apart from the rules that check it
 * (definitions.ts), so the agency's file and the checks import this and not each other.
 */

/** The sections below the hero, in the page's own order; a variant may put one of them first. */
export const SECTIONS = ['benefits', 'clients', 'services', 'digital'] as const;
export type SectionId = (typeof SECTIONS)[number];

/** The texts a variant may change (their paths in lib/content.ts and lib/island-copy.ts), each with its longest. */
export const TEXT_PARTS = {
  'hero.headline': 90,
  'hero.lead': 320,
  'hero.formHeading': 60,
  'contactForm.submit': 30,
  'services.heading': 60,
  'services.items.1.text': 300,
  'services.items.2.text': 300,
  'services.items.3.text': 300,
} as const;
export type TextPart = keyof typeof TEXT_PARTS;
export type Overrides = Partial<Record<TextPart, string>> & { firstSection?: SectionId };
/** What the agency writes (lib/content-experiments.ts); the schema below says what holds. */
export type ExperimentDefinition = {
  name: string;
  runs: boolean;
  variants: Array<{ id: string; label: string; overrides?: Overrides }>;
  split: number[];
  rule?: { minVisitors: number; minLeads: number };
};
