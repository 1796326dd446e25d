import type { Page } from '@playwright/test';
import { expect, form, openLikeAPerson, sendButton, test } from './support/fixtures';

const field = (page: Page, name: string) => form(page).locator(`[name="${name}"]`);

/**
 * A QA enquiry: its address is at the reserved `.invalid` domain (RFC 2606),
 * which the server recognises. It runs every check a visitor's enquiry runs
 * and gets the same thanks, but is never delivered, alerted or converted: the
 * server logs one line for it instead (docs/testing.md).
 */
function qaEnquiry(project: string) {
  return {
    name: 'Prueba QA automatizada',
    mail: `qa+${project}-${Date.now()}@pruebas.invalid`,
    phone: '5512345678',
    reason: 'Prueba automática del equipo de QA: no es un cliente, no se entrega.',
  };
}

test.describe('the contact form', () => {
  test('says what is wrong with each field, in Spanish, and keeps what was typed', async ({
    page,
  }) => {
    await openLikeAPerson(page);
    const typed = { name: 'Ana', mail: 'ana@', phone: '1234567890123456' };
    for (const [name, value] of Object.entries(typed)) await field(page, name).fill(value);
    await field(page, 'reason').focus();
    await field(page, 'reason').blur();

    await expect(form(page).getByText('Este campo debe tener al menos 5 caracteres')).toBeVisible();
    await expect(form(page).getByText('Este campo debe ser un email')).toBeVisible();
    await expect(
      form(page).getByText('Este campo no debe tener mas de 15 caracteres'),
    ).toBeVisible();
    await expect(form(page).getByText('Este campo es obligatorio')).toBeVisible();
    for (const [name, value] of Object.entries(typed))
      await expect(field(page, name)).toHaveValue(value);
    await expect(field(page, 'mail')).toHaveAttribute('aria-invalid', 'true');
    await expect(sendButton(page)).toBeDisabled();

    await field(page, 'name').fill('Ana Prueba');
    await expect(form(page).getByText('Este campo debe tener al menos 5 caracteres')).toBeHidden();
  });

  test('a QA enquiry is thanked, then the visitor goes to the thank-you page the deployment was built with', async ({
    page,
  }, testInfo) => {
    await openLikeAPerson(page);
    // The address this build sends a thanked visitor to: the site's own /gracias, or the agency's page on another host.
    const thankYou = new URL((await form(page).getAttribute('data-thank-you')) ?? '', page.url());
    const ownSite = thankYou.origin === new URL(page.url()).origin;
    // Reaching it counts, even where the suite cannot load it (another host, out of its reach).
    const leaving = page.waitForRequest(
      (request) =>
        request.isNavigationRequest() &&
        request.frame() === page.mainFrame() &&
        request.url() === thankYou.href,
      { timeout: 25_000 },
    );
    // A person reads the page a few seconds before writing.
    await page.waitForTimeout(3_000);
    const enquiry = qaEnquiry(testInfo.project.name);
    for (const [name, value] of Object.entries(enquiry)) await field(page, name).fill(value);
    await expect(sendButton(page)).toBeEnabled();
    await sendButton(page).click();

    await expect(page.getByRole('heading', { name: /gracias por contactarnos/i })).toBeVisible({
      timeout: 15_000,
    });
    await expect(
      page.locator('#contacto').getByText(/un asesor se pondrá en contacto contigo muy pronto/i),
    ).toBeVisible();
    expect((await leaving).url()).toBe(thankYou.href);
    if (!ownSite) return;
    await page.waitForURL(thankYou.href, { timeout: 10_000 });
    await expect(page.getByRole('heading', { level: 1, name: /gracias/i })).toBeVisible();
  });
});
