import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Profiler } from 'react';
import { CONFIRM_MIN_MS } from '@/lib/contact/fields';
import type { ContactState } from '@/lib/contact/state';
import { useLeads } from '@/lib/browser/confirmed-lead';
import { ContactForm, REDIRECT_DELAY_MS, TYPING_PAUSE_MS } from './contact-form';
import { Honeypot } from './honeypot';

jest.mock('@/lib/contact/actions', () => ({ submitContact: jest.fn() }));
jest.mock('@/lib/browser/navigation', () => ({ navigateTo: jest.fn(), reloadPage: jest.fn() }));
jest.mock('next/navigation', () => ({
  unstable_isUnrecognizedActionError: (error: unknown) => error === STALE,
}));
const STALE = new Error('Server Action not found');
jest.mock('@/lib/browser/recaptcha', () => ({
  getRecaptchaToken: jest.fn(async () => 'recaptcha-token'),
}));

const { submitContact } = jest.requireMock('@/lib/contact/actions') as { submitContact: jest.Mock };
const { navigateTo, reloadPage } = jest.requireMock('@/lib/browser/navigation') as {
  navigateTo: jest.Mock;
  reloadPage: jest.Mock;
};
const { getRecaptchaToken } = jest.requireMock('@/lib/browser/recaptcha') as {
  getRecaptchaToken: jest.Mock;
};

const props = { thankYouUrl: '/gracias', whatsappUrl: 'https://wa.me/5215500000000' };

// React entangles pending async actions: one left hanging would keep every
// later form "sending". Each test's unanswered action is settled afterwards.
const unanswered: Array<() => void> = [];

/** An action whose answer the test decides, and when. */
function deferredAction() {
  let resolve: (state: ContactState) => void = () => {};
  submitContact.mockImplementation(
    () =>
      new Promise<ContactState>((done) => {
        resolve = done;
        unanswered.push(() => done({ status: 'idle' }));
      }),
  );
  return {
    // The send starts once the spinner is painted: the answer waits for it.
    answer: async (state: ContactState) => {
      await waitFor(() => expect(submitContact).toHaveBeenCalled());
      await act(async () => resolve(state));
    },
  };
}

afterEach(async () => {
  // A send starts once its spinner is painted (at most 100 ms later): let it start, then settle it.
  await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
  await act(async () => unanswered.splice(0).forEach((settle) => settle()));
});

const field = (name: RegExp) => screen.getByLabelText(name);
const submitButton = () => screen.getByRole('button', { name: /enviar/i });

/** A pause in typing: the form checks the fields typed in or left since the last one. */
const pause = () => act(() => new Promise((resolve) => setTimeout(resolve, TYPING_PAUSE_MS + 50)));

/** Fills every field, then pauses, as a person does before reaching for the button. */
async function fillValid(user: ReturnType<typeof userEvent.setup>) {
  await user.type(field(/nombre/i), 'Ana López');
  await user.type(field(/correo/i), 'ana@example.mx');
  await user.type(field(/teléfono/i), '5512345678');
  await user.type(field(/ayudarte/i), 'Quiero una página web.');
  await pause();
}

beforeEach(() => {
  submitContact.mockReset();
  navigateTo.mockReset();
  reloadPage.mockReset();
  getRecaptchaToken.mockClear();
  delete window.dataLayer;
});

describe('ContactForm', () => {
  it('has labelled fields with the names QA relies on, and an empty status region', () => {
    render(<ContactForm {...props} />);
    expect(field(/nombre/i)).toHaveAttribute('name', 'name');
    expect(field(/correo/i)).toHaveAttribute('name', 'mail');
    expect(field(/correo/i)).toHaveAttribute('type', 'email');
    expect(field(/teléfono/i)).toHaveAttribute('name', 'phone');
    expect(field(/teléfono/i)).toHaveAttribute('inputmode', 'tel');
    expect(field(/ayudarte/i)).toHaveAttribute('name', 'reason');
    expect(field(/ayudarte/i).tagName).toBe('TEXTAREA');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('shows no error before a field is dirty or touched, and keeps submit disabled', () => {
    render(<ContactForm {...props} />);
    expect(screen.queryByText(/Este campo/)).not.toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
  });

  it('shows the required message once a field is touched, at the pause after it', async () => {
    const user = userEvent.setup();
    render(<ContactForm {...props} />);
    await user.click(field(/nombre/i));
    expect(screen.queryByText('Este campo es obligatorio')).not.toBeInTheDocument();
    await user.tab();
    expect(screen.queryByText('Este campo es obligatorio')).not.toBeInTheDocument();
    await pause();
    const name = field(/nombre/i);
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Este campo es obligatorio');
    // Only the touched field complains.
    expect(screen.getAllByText('Este campo es obligatorio')).toHaveLength(1);
  });

  it('shows each rule at a pause in typing (dirty) and clears it when satisfied', async () => {
    const user = userEvent.setup();
    render(<ContactForm {...props} />);
    await user.type(field(/nombre/i), 'Ana');
    await pause();
    expect(field(/nombre/i)).toHaveAccessibleDescription(
      'Este campo debe tener al menos 5 caracteres',
    );
    await user.type(field(/nombre/i), ' Mar');
    await pause();
    expect(field(/nombre/i)).not.toHaveAttribute('aria-invalid');
    expect(field(/nombre/i)).not.toHaveAttribute('aria-describedby');

    await user.type(field(/correo/i), 'ana@');
    await pause();
    expect(field(/correo/i)).toHaveAccessibleDescription('Este campo debe ser un email');
    await user.type(field(/teléfono/i), '1234567890123456');
    await pause();
    expect(field(/teléfono/i)).toHaveAccessibleDescription(
      'Este campo no debe tener mas de 15 caracteres',
    );
  });

  it('renders nothing on a keystroke, even one that changes a verdict: the pause after it shows it (typing stays at the plain-form floor)', async () => {
    const user = userEvent.setup();
    let commits = 0;
    render(
      <Profiler id="form" onRender={() => commits++}>
        <ContactForm {...props} />
      </Profiler>,
    );
    await user.type(field(/nombre/i), 'Ana López');
    await pause();
    expect(field(/nombre/i)).not.toHaveAttribute('aria-invalid');
    const before = commits;
    await user.type(field(/nombre/i), ' Martínez de la Cruz');
    expect(commits).toBe(before);
    // Emptied: the verdict changes, and still no keystroke renders; the pause does.
    await user.clear(field(/nombre/i));
    expect(commits).toBe(before);
    expect(field(/nombre/i)).not.toHaveAttribute('aria-invalid');
    await pause();
    expect(field(/nombre/i)).toHaveAccessibleDescription('Este campo es obligatorio');
  });

  it('enables submit only when every field is valid', async () => {
    const user = userEvent.setup();
    render(<ContactForm {...props} />);
    await fillValid(user);
    expect(submitButton()).toBeEnabled();
    // The button follows the form's validity at once, with no pause.
    await user.clear(field(/teléfono/i));
    expect(submitButton()).toBeDisabled();
  });

  it('covers the form with a spinner while sending and sends only once on a double click', async () => {
    const user = userEvent.setup();
    const action = deferredAction();
    render(<ContactForm {...props} honeypot={<Honeypot />} />);
    await fillValid(user);
    await user.dblClick(submitButton());
    await user.keyboard('{Enter}{Enter}');

    await waitFor(() => expect(screen.getByTestId('sending-mask')).toBeInTheDocument());
    expect(submitButton()).toBeDisabled();
    expect(screen.getByRole('status')).toHaveTextContent(/enviando/i);
    // The send starts once the spinner is painted, and only once.
    await waitFor(() => expect(submitContact).toHaveBeenCalled());
    await act(() => new Promise((resolve) => setTimeout(resolve, 150)));
    expect(submitContact).toHaveBeenCalledTimes(1);
    const formData = submitContact.mock.calls[0]?.[1] as FormData;
    expect(
      Object.fromEntries([...formData.entries()].filter(([key]) => !key.startsWith('$'))),
    ).toEqual({
      name: 'Ana López',
      mail: 'ana@example.mx',
      phone: '5512345678',
      reason: 'Quiero una página web.',
      captcha: '',
      // The honeypot, empty; no signature could be fetched here (no server), so the server will ask to confirm.
      campo_extra: '',
      firma: '',
      // The build's edition (lib/proxy/stale-form.ts); none in a unit test, where nothing was built.
      edicion: '',
    });
    await action.answer({ status: 'sent', key: 'clave-1' });
  });

  it("sends the server's signature of the form's time on screen, waiting silently until a person could have filled it", async () => {
    const fetchToken = jest.fn(async () => ({
      ok: true,
      json: async () => ({ token: 't.firma-de-prueba' }),
    }));
    global.fetch = fetchToken as unknown as typeof fetch;
    try {
      const user = userEvent.setup();
      const action = deferredAction();
      render(<ContactForm {...props} />);
      // Asked for once the form is on screen (jsdom has no layout: at first use here).
      await fillValid(user);
      const clickedAt = performance.now();
      await user.click(submitButton());
      await waitFor(() => expect(submitContact).toHaveBeenCalled(), { timeout: 5000 });
      expect(performance.now() - clickedAt).toBeGreaterThanOrEqual(2000);
      expect(fetchToken).toHaveBeenCalledWith(
        '/api/contact/token',
        expect.objectContaining({ cache: 'no-store' }),
      );
      expect((submitContact.mock.calls[0]?.[1] as FormData).get('firma')).toBe('t.firma-de-prueba');
      // No extra step: only the spinner, then the thanks.
      expect(screen.queryByText(/confirmar/i)).not.toBeInTheDocument();
      await action.answer({ status: 'sent', key: 'clave-1' });
    } finally {
      delete (global as { fetch?: unknown }).fetch;
    }
  }, 10_000);

  it('asked to confirm, the island confirms by itself, once, with the signature the server gave, as late as a person would', async () => {
    const user = userEvent.setup();
    const calledAt: number[] = [];
    submitContact
      .mockImplementationOnce(async () => {
        calledAt.push(Date.now());
        return {
          status: 'confirm',
          token: 'c.firma-del-servidor',
          values: { name: '', mail: '', phone: '', reason: '' },
        };
      })
      .mockImplementationOnce(async () => {
        calledAt.push(Date.now());
        return { status: 'sent', key: 'clave-2' };
      });
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    expect(
      await screen.findByRole('heading', { name: /gracias/i }, { timeout: CONFIRM_MIN_MS + 2000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText(/confirmar/i)).not.toBeInTheDocument();
    expect(submitContact).toHaveBeenCalledTimes(2);
    // The server holds a confirmation to a person's pace: the island waits that long, under the spinner.
    expect((calledAt[1] ?? 0) - (calledAt[0] ?? 0)).toBeGreaterThanOrEqual(CONFIRM_MIN_MS);
    expect((submitContact.mock.calls[1]?.[1] as FormData).get('firma')).toBe(
      'c.firma-del-servidor',
    );
    expect((submitContact.mock.calls[1]?.[1] as FormData).get('name')).toBe('Ana López');
  });

  it('a suspected spam is thanked and leaves after 2 s, with no lead to count', async () => {
    const user = userEvent.setup();
    submitContact.mockResolvedValueOnce({ status: 'sent' });
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: /gracias/i })).toBeInTheDocument();
    await waitFor(() => expect(navigateTo).toHaveBeenCalledWith('/gracias'), {
      timeout: REDIRECT_DELAY_MS + 1000,
    });
  });

  it('keeps a honeypot out of sight, of the tab order and of the accessibility tree', () => {
    render(<ContactForm {...props} honeypot={<Honeypot />} />);
    const honeypot = document.querySelector('input[name="campo_extra"]') as HTMLInputElement;
    expect(honeypot).toHaveAttribute('tabindex', '-1');
    expect(honeypot).toHaveAttribute('autocomplete', 'off');
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(screen.getAllByRole('textbox')).toHaveLength(4);
  });

  it("sends the 'formulario' event, queued before analytics has loaded", async () => {
    const user = userEvent.setup();
    deferredAction();
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    const events = (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));
    expect(events).toContainEqual(['event', 'formulario', {}]);
  });

  it('gets a reCAPTCHA token for formSubmit only when a site key is configured', async () => {
    const user = userEvent.setup();
    deferredAction();
    render(<ContactForm {...props} recaptchaSiteKey="site-key" />);
    await fillValid(user);
    expect(getRecaptchaToken).not.toHaveBeenCalled();
    await user.click(submitButton());
    await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(1));
    expect(getRecaptchaToken).toHaveBeenCalledWith('site-key', 'formSubmit');
    expect((submitContact.mock.calls[0]?.[1] as FormData).get('captcha')).toBe('recaptcha-token');
  });

  it("shows the API's mes under the button, keeps every value and lets the visitor retry", async () => {
    const user = userEvent.setup();
    const action = deferredAction();
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    await action.answer({ status: 'failed', mes: 'Captcha inválido, intenta de nuevo' });

    expect(screen.getByRole('status')).toHaveTextContent('Captcha inválido, intenta de nuevo');
    expect(screen.queryByTestId('sending-mask')).not.toBeInTheDocument();
    expect(field(/nombre/i)).toHaveValue('Ana López');
    expect(field(/correo/i)).toHaveValue('ana@example.mx');
    expect(field(/teléfono/i)).toHaveValue('5512345678');
    expect(field(/ayudarte/i)).toHaveValue('Quiero una página web.');
    expect(submitButton()).toBeEnabled();

    const retry = deferredAction();
    await user.click(submitButton());
    await waitFor(() => expect(submitContact).toHaveBeenCalledTimes(2));
    await retry.answer({ status: 'sent', key: 'clave-2' });
  });

  it('without a mes, says it did not go through and offers WhatsApp', async () => {
    const user = userEvent.setup();
    const action = deferredAction();
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    await action.answer({ status: 'failed' });
    const status = screen.getByRole('status');
    expect(status).toHaveTextContent(/no pudimos enviar tu mensaje/i);
    expect(screen.getByRole('link', { name: 'WhatsApp' })).toHaveAttribute(
      'href',
      props.whatsappUrl,
    );
    expect(field(/ayudarte/i)).toHaveValue('Quiero una página web.');
  });

  it('a dropped connection says it did not go through, keeps every value, and the visitor can retry', async () => {
    const user = userEvent.setup();
    submitContact.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    expect(await screen.findByText(/no pudimos enviar tu mensaje/i)).toBeInTheDocument();
    expect(field(/nombre/i)).toHaveValue('Ana López');
    expect(field(/ayudarte/i)).toHaveValue('Quiero una página web.');
    submitContact.mockResolvedValueOnce({ status: 'sent', key: 'clave-4' });
    await user.click(submitButton());
    expect(await screen.findByRole('heading', { name: /gracias/i })).toBeInTheDocument();
    expect((submitContact.mock.calls[1]?.[1] as FormData).get('mail')).toBe('ana@example.mx');
  });

  it("shows the server's field messages when it finds the input invalid", async () => {
    const user = userEvent.setup();
    const action = deferredAction();
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    await action.answer({ status: 'invalid', fieldErrors: { name: 'Este campo es obligatorio' } });
    expect(screen.getByRole('status')).toHaveTextContent(/revisa los campos/i);
  });

  it('thanks the visitor and goes to the thank-you page after 2 seconds', async () => {
    const user = userEvent.setup();
    const action = deferredAction();
    // The layout's tags, here with nothing to measure: the redirect waits for no event.
    renderHook(() => useLeads(false));
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    await waitFor(() => expect(submitContact).toHaveBeenCalled());
    jest.useFakeTimers();
    try {
      await action.answer({ status: 'sent', key: 'clave-3' });
      expect(
        screen.getByRole('heading', { name: /gracias por contactarnos/i }),
      ).toBeInTheDocument();
      expect(
        screen.getByText(/un asesor se pondrá en contacto contigo muy pronto/i),
      ).toBeInTheDocument();
      expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
      act(() => jest.advanceTimersByTime(REDIRECT_DELAY_MS - 1));
      expect(navigateTo).not.toHaveBeenCalled();
      act(() => jest.advanceTimersByTime(1));
      expect(REDIRECT_DELAY_MS).toBe(2000);
      expect(navigateTo).toHaveBeenCalledWith('/gracias');
    } finally {
      jest.useRealTimers();
    }
  });

  it("hands the tags the confirmed lead's key with the e-mail and phone it was sent with", async () => {
    const user = userEvent.setup();
    const action = deferredAction();
    // The layout's tags, measuring. (Leads of earlier tests, confirmed while nothing listened, arrive too.)
    const { result: leads } = renderHook(() => useLeads(true));
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    await action.answer({ status: 'sent', key: 'clave-contacto' });
    await waitFor(() => expect(leads.current.map((lead) => lead.key)).toContain('clave-contacto'));
    const lead = leads.current.find(({ key }) => key === 'clave-contacto');
    expect(lead?.contact).toEqual({ mail: 'ana@example.mx', phone: '5512345678' });
    act(() => lead?.sent());
  });

  it('offers a reload that keeps what was typed when the page is from an older deployment', async () => {
    const user = userEvent.setup();
    submitContact.mockRejectedValue(STALE);
    render(<ContactForm {...props} />);
    await fillValid(user);
    await user.click(submitButton());
    await user.click(await screen.findByRole('button', { name: /recargar/i }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
    expect(JSON.parse(sessionStorage.getItem('contacto-borrador') ?? '{}')).toMatchObject({
      name: 'Ana López',
      mail: 'ana@example.mx',
    });
    sessionStorage.clear();
  });

  it('still reloads when the browser refuses storage (some private modes)', async () => {
    const user = userEvent.setup();
    submitContact.mockRejectedValue(STALE);
    const setItem = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('Blocked', 'SecurityError');
    });
    try {
      render(<ContactForm {...props} />);
      await fillValid(user);
      await user.click(submitButton());
      await user.click(await screen.findByRole('button', { name: /recargar/i }));
      expect(setItem).toHaveBeenCalled();
      expect(reloadPage).toHaveBeenCalledTimes(1);
    } finally {
      setItem.mockRestore();
    }
  });
});
