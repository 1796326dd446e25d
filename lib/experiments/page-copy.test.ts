/**
 * @jest-environment node
 */
import { hero, services } from '@/lib/content';
import { contactForm } from '@/lib/island-copy';
import type { Variant } from './definitions';
import { CONTROL_COPY, pageCopy } from './page-copy';

const variant = (overrides: Variant['overrides']): Variant => ({ id: 'b', label: 'b', overrides });

describe("a variant's words and order", () => {
  it('are the page as it is for the control', () => {
    expect(pageCopy([variant({})])).toEqual(CONTROL_COPY);
    expect(CONTROL_COPY).toEqual({
      hero,
      submit: contactForm.submit,
      services,
      order: ['benefits', 'clients', 'services', 'digital'],
    });
  });

  it("change the hero's title and subtitle, the form's heading and button, the services' heading and texts", () => {
    const copy = pageCopy([
      variant({
        'hero.headline': 'Título B',
        'hero.lead': 'Subtítulo B',
        'contactForm.submit': 'Enviar ya',
      }),
      variant({
        'hero.formHeading': 'Pide tu cita',
        'services.heading': 'Qué hacemos',
        'services.items.2.text': 'T2',
      }),
    ]);
    expect(copy.hero).toEqual({
      ...hero,
      headline: 'Título B',
      lead: 'Subtítulo B',
      formHeading: 'Pide tu cita',
    });
    expect(copy.submit).toBe('Enviar ya');
    expect(copy.services.heading).toBe('Qué hacemos');
    expect(copy.services.items.map((item) => item.text)).toEqual([
      services.items[0]?.text,
      'T2',
      services.items[2]?.text,
    ]);
    // lib/content.ts itself is untouched.
    expect(hero.headline).not.toBe('Título B');
  });

  it('put one section first, the rest in their order, the hero always on top', () => {
    expect(pageCopy([variant({ firstSection: 'services' })]).order).toEqual([
      'services',
      'benefits',
      'clients',
      'digital',
    ]);
    expect(pageCopy([variant({ firstSection: 'benefits' })]).order).toEqual(CONTROL_COPY.order);
  });

  it('stop the build for a service lib/content.ts does not have', () => {
    const few = { ...CONTROL_COPY, services: { ...services, items: services.items.slice(0, 2) } };
    expect(() => pageCopy([variant({ 'services.items.3.text': 'T3' })], few)).toThrow(
      'lib/content-experiments.ts cambia el servicio 3, y lib/content.ts no lo tiene.',
    );
  });
});
