import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expectSecurityHeaders } from '../support/security-headers';
import { expect, form, openLikeAPerson, test } from './support/fixtures';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
  expect(
    results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

test.describe('security headers', () => {
  for (const path of ['/', '/aviso-de-privacidad', '/gracias']) {
    test(`are sent with ${path}`, async ({ page }) => {
      const response = await page.goto(path);
      expectSecurityHeaders((await response?.allHeaders()) ?? {});
    });
  }
});

test.describe('accessibility (axe, WCAG 2.2 A/AA)', () => {
  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
  });

  test('the page with the form empty', async ({ page }) => {
    await openLikeAPerson(page);
    await expectNoAxeViolations(page);
  });

  test('the form showing its errors', async ({ page }) => {
    await openLikeAPerson(page);
    await form(page).locator('[name="name"]').fill('Ana');
    await form(page).locator('[name="mail"]').fill('ana@');
    await form(page).locator('[name="reason"]').focus();
    await form(page).locator('[name="reason"]').blur();
    await expect(form(page).getByText(/^Este campo/)).toHaveCount(3);
    await expectNoAxeViolations(page);
  });
});

test('a whole visit, scrolled to the foot and back after the tags load, logs no error', async ({
  page,
}) => {
  // The fixture fails the test on any console error, uncaught exception or CSP violation.
  await openLikeAPerson(page);
  await page.mouse.move(10, 10);
  for (let y = 0; y < 12_000; y += 600) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(150);
  }
  // The third-party tags and the chat come 6 s after the page loads.
  await page.waitForTimeout(7_000);
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
});
