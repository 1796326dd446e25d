import type { Page } from '@playwright/test';
import {
  runningExperiments,
  SECTIONS,
  type Overrides,
  type SectionId,
} from '../../lib/experiments/definitions';
import { expect, form, test } from './support/fixtures';

/*
 * Every variant of every running A/B experiment (lib/content-experiments.ts, as checked out), forced as QA
 * forces it: `/?variante=<experiment>:<variant>`. Each is served, with its own words and order, and its form. QA's
 * visits are never counted (the suite's cookie, support/fixtures.ts).
 */

const TITLES: Record<SectionId, string> = {
  benefits: '#benefits-title',
  clients: '#clients-title',
  services: '#services-title',
  digital: '#digital-title',
};

/** The sections below the hero, from the top of the page down. */
async function sectionOrder(page: Page): Promise<SectionId[]> {
  const tops = await Promise.all(
    SECTIONS.map(
      async (id) => [id, (await page.locator(TITLES[id]).boundingBox())?.y ?? -1] as const,
    ),
  );
  return [...tops].sort((a, b) => a[1] - b[1]).map(([id]) => id);
}

async function expectVariant(page: Page, overrides: Overrides) {
  const { firstSection, ...texts } = overrides;
  const expected: Array<[string, string | undefined]> = [
    ['h1', texts['hero.headline']],
    ['#contacto h2', texts['hero.formHeading']],
    ['#contacto form button[type="submit"]', texts['contactForm.submit']],
    ['#services-title', texts['services.heading']],
  ];
  for (const [selector, text] of expected)
    if (text) await expect(page.locator(selector).first()).toHaveText(text);
  const items = (
    ['services.items.1.text', 'services.items.2.text', 'services.items.3.text'] as const
  ).map((part) => texts[part]);
  for (const text of [texts['hero.lead'], ...items])
    if (text) await expect(page.getByText(text, { exact: true })).toBeVisible();
  expect((await sectionOrder(page))[0]).toBe(firstSection ?? SECTIONS[0]);
  await expect(form(page)).toBeVisible();
}

const running = runningExperiments();

test('says so when no experiment runs: / is the page as it is', async ({ page }) => {
  test.skip(running.length > 0, 'Experiments run: each variant is checked below.');
  expect((await page.goto('/'))?.status()).toBe(200);
  expect(await sectionOrder(page)).toEqual([...SECTIONS]);
});

for (const experiment of running)
  for (const variant of experiment.variants)
    test(`experiment ${experiment.name}, variant ${variant.id}: served with its words`, async ({
      page,
    }) => {
      const response = await page.goto(`/?variante=${experiment.name}:${variant.id}`);
      expect(response?.status()).toBe(200);
      await expectVariant(page, variant.overrides);
    });
