import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ContactForm } from './contact-form';

// A file of its own: the form keeps the loaded rules for the life of the page (module).
jest.mock('@/lib/contact/actions', () => ({ submitContact: jest.fn() }));
// The rules are the real ones; the factory counts when the form asks for them
// (on globalThis: a static import would run it before this file's own lines).
const loads = globalThis as { schemaLoads?: number };
jest.mock('@/lib/contact/rules', () => {
  (globalThis as { schemaLoads?: number }).schemaLoads =
    ((globalThis as { schemaLoads?: number }).schemaLoads ?? 0) + 1;
  return jest.requireActual('@/lib/contact/rules');
});

it('fetches the validation rules only once the visitor starts on the form', async () => {
  const user = userEvent.setup();
  render(<ContactForm thankYouUrl="/gracias" whatsappUrl="https://wa.me/5215500000000" />);
  expect(loads.schemaLoads ?? 0).toBe(0);
  expect(screen.getByRole('button', { name: /enviar/i })).toBeDisabled();

  await user.click(screen.getByLabelText(/nombre/i));
  await waitFor(() => expect(loads.schemaLoads).toBe(1));
  await user.type(screen.getByLabelText(/nombre/i), 'Ana');
  expect(
    await screen.findByText('Este campo debe tener al menos 5 caracteres'),
  ).toBeInTheDocument();
});
