import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ContactForm } from './contact-form';

// The page rendered from a form the browser posted itself (no JavaScript, or
// before hydration), or the retry page for a form from an older deployment:
// the island starts from the server's state.
jest.mock('@/lib/contact/actions', () => ({ submitContact: jest.fn() }));
jest.mock('@/lib/browser/navigation', () => ({ navigateTo: jest.fn(), reloadPage: jest.fn() }));
// A rules chunk that never arrives: what the server said must stay on screen, and the form must still send.
const loads = globalThis as { schemaLoads?: number };
jest.mock('@/lib/contact/rules', () => {
  (globalThis as { schemaLoads?: number }).schemaLoads =
    ((globalThis as { schemaLoads?: number }).schemaLoads ?? 0) + 1;
  throw new Error('ChunkLoadError: Loading chunk failed');
});

const { submitContact } = jest.requireMock('@/lib/contact/actions') as { submitContact: jest.Mock };
const props = { thankYouUrl: '/gracias', whatsappUrl: 'https://wa.me/5215500000000' };
const typed = { name: 'Ana', mail: 'ana@', phone: '5512345678', reason: 'Hola' };

beforeEach(() => submitContact.mockReset().mockResolvedValue({ status: 'sent', key: 'clave' }));

it("shows the server's messages under the fields with every posted value, before any rules arrive", async () => {
  render(
    <ContactForm
      {...props}
      initialState={{
        status: 'invalid',
        fieldErrors: {
          name: 'Este campo debe tener al menos 5 caracteres',
          mail: 'Este campo debe ser un email',
          reason: 'Este campo debe tener al menos 5 caracteres',
        },
        values: typed,
      }}
    />,
  );
  expect(screen.getByLabelText(/nombre/i)).toHaveValue('Ana');
  expect(screen.getByLabelText(/correo/i)).toHaveValue('ana@');
  expect(screen.getByLabelText(/teléfono/i)).toHaveValue('5512345678');
  expect(screen.getByLabelText(/ayudarte/i)).toHaveValue('Hola');
  expect(screen.getByLabelText(/nombre/i)).toHaveAccessibleDescription(
    'Este campo debe tener al menos 5 caracteres',
  );
  expect(screen.getByLabelText(/correo/i)).toHaveAccessibleDescription(
    'Este campo debe ser un email',
  );
  expect(screen.getByLabelText(/teléfono/i)).not.toHaveAttribute('aria-invalid');
  expect(screen.getByRole('status')).toHaveTextContent(/revisa los campos/i);
});

it('says to send again, with the values, when the form came from an older deployment (no reload needed)', () => {
  render(
    <ContactForm {...props} initialState={{ status: 'failed', reason: 'stale', values: typed }} />,
  );
  expect(screen.getByRole('status')).toHaveTextContent(/tu mensaje no se envió.*envíalo de nuevo/i);
  expect(screen.queryByRole('button', { name: /recargar/i })).not.toBeInTheDocument();
  expect(screen.getByLabelText(/ayudarte/i)).toHaveValue('Hola');
});

it('never locks the form when the rules chunk fails: asks again at the next focus or submit, and sends (the server validates)', async () => {
  const user = userEvent.setup();
  render(<ContactForm {...props} />);
  await user.type(screen.getByLabelText(/nombre/i), 'Ana López');
  await user.type(screen.getByLabelText(/correo/i), 'ana@example.mx');
  await user.type(screen.getByLabelText(/teléfono/i), '5512345678');
  await user.type(screen.getByLabelText(/ayudarte/i), 'Quiero una página web.');
  const before = loads.schemaLoads ?? 0;
  expect(before).toBeGreaterThan(0);
  await user.click(screen.getByRole('button', { name: /enviar/i }));
  await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1));
  expect(loads.schemaLoads).toBeGreaterThan(before);
  expect(
    await screen.findByRole('heading', { name: /gracias por contactarnos/i }),
  ).toBeInTheDocument();
});
