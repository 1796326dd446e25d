import { unstable_isUnrecognizedActionError as isUnrecognizedActionError } from 'next/navigation';
import { startTransition, useEffect, useRef, useState, useTransition, type FormEvent } from 'react';
import { trackEvent } from '@/lib/analytics';
import { submitContact } from '@/lib/contact/actions';
import { CONFIRM_MIN_MS, TOKEN_FIELD } from '@/lib/contact/fields';
import { INITIAL_CONTACT_STATE, type ContactState } from '@/lib/contact/state';
import type { LeadContact } from '@/lib/lead';
import { getRecaptchaToken } from '@/lib/recaptcha';

/** The island's own send: transport failures become states, and a page from an older deployment is told to reload. */
async function send(formData: FormData): Promise<ContactState> {
  try {
    return await submitContact(INITIAL_CONTACT_STATE, formData);
  } catch (error) {
    return { status: 'failed', reason: isUnrecognizedActionError(error) ? 'stale' : undefined };
  }
}

/** Two instances' clocks may differ a little: a confirmation waits this much past its threshold. */
const CONFIRM_MARGIN_MS = 250;

/**
 * Resolves once the next frame is painted, or after 100 ms where no frame comes (a hidden tab): a send never waits on a
 * frame.
 */
const afterNextPaint = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });

type Options = {
  /** The state of a form the browser posted itself: the page is rendered from it. */
  answered: ContactState;
  /** Resolves to false when a field fails its rules: nothing is sent. */
  checkBeforeSend: (form: HTMLFormElement) => Promise<boolean>;
  /** The server's signature of the form's time on screen (use-form-token.ts). */
  readyToken: () => Promise<string>;
  recaptchaSiteKey?: string;
};

/**
 * The island's send, in place of the browser's: one at a time, with the
 * signature and reCAPTCHA token added. `state` is its last answer, or the
 * browser's until it has one (`browserAnswered`); `contact`, the e-mail and
 * phone that answer is about.
 */
export function useSending({ answered, checkBeforeSend, readyToken, recaptchaSiteKey }: Options) {
  const [latest, setLatest] = useState<ContactState | null>(null);
  const [contact, setContact] = useState<LeadContact>();
  const state = latest ?? answered;
  const [isPending, startSending] = useTransition();
  const [preparing, setPreparing] = useState(false);
  // Set synchronously on submit, so a double click or a held Enter sends once.
  const inFlight = useRef(false);

  // Released once the answer is in; a thanked form stays locked.
  useEffect(() => {
    if (state.status !== 'sent' && !isPending) inFlight.current = false;
  }, [state, isPending]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;
    const form = event.currentTarget;
    inFlight.current = true;
    if (!(await checkBeforeSend(form))) {
      inFlight.current = false;
      return;
    }
    setPreparing(true);
    trackEvent('formulario');
    const formData = new FormData(form);
    // The spinner is painted before Next's action call begins: the click is answered at once.
    await afterNextPaint();
    // A send sooner than a person could have filled the form waits here, silently, under the spinner.
    const answeredToken = formData.get(TOKEN_FIELD);
    const [token, captcha] = await Promise.all([
      typeof answeredToken === 'string' && answeredToken ? answeredToken : readyToken(),
      recaptchaSiteKey ? getRecaptchaToken(recaptchaSiteKey, 'formSubmit') : '',
    ]);
    formData.set(TOKEN_FIELD, token);
    formData.set('captcha', captcha);
    startSending(async () => {
      setPreparing(false);
      let next = await send(formData);
      // Asked to confirm (no signature could be had, or it was refused): the island confirms, once, itself,
      // as late as a person would (the server holds a confirmation to that pace), still under the spinner.
      if (next.status === 'confirm') {
        formData.set(TOKEN_FIELD, next.token);
        await new Promise((resolve) => setTimeout(resolve, CONFIRM_MIN_MS + CONFIRM_MARGIN_MS));
        next = await send(formData);
      }
      startTransition(() => {
        setLatest(next);
        setContact({ mail: String(formData.get('mail')), phone: String(formData.get('phone')) });
      });
    });
  }

  return { state, contact, browserAnswered: latest === null, sending: preparing || isPending, onSubmit };
}
