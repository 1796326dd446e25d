import { unstable_isUnrecognizedActionError as isUnrecognizedActionError } from 'next/navigation';
import {
  startTransition,
  useActionState,
  useCallback,
  useEffect,
  useRef,
  useState,
  type FormEvent,
} from 'react';
import { trackEvent } from '@/lib/browser/analytics';
import { submitContact } from '@/lib/contact/actions';
import { CONFIRM_MIN_MS, TOKEN_FIELD } from '@/lib/contact/fields';
import { INITIAL_CONTACT_STATE, type ContactState } from '@/lib/contact/state';
import type { LeadContact } from '@/lib/browser/confirmed-lead';
import { getRecaptchaToken } from '@/lib/browser/recaptcha';
import { readValues } from './use-draft';

/** Where a form sent without JavaScript is answered (the form card's anchor). */
const ANSWER_URL = '/#contacto';

/** Two instances' clocks may differ a little: a confirmation waits this much past its threshold. */
const CONFIRM_MARGIN_MS = 250;

/**
 * One post from the island. A rejected action would reach an error boundary: transport failures become states (values
 * kept, like the server's), and a page from an older deployment is told to reload.
 */
async function post(formData: FormData): Promise<ContactState> {
  try {
    // The action ignores the previous state: none is sent (it would double the body with the values).
    return await submitContact(INITIAL_CONTACT_STATE, formData);
  } catch (error) {
    const reason = isUnrecognizedActionError(error) ? 'stale' : undefined;
    return { status: 'failed', reason, values: readValues(formData) };
  }
}

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
  /** The state the page was rendered from (a post the browser sent itself, or the retry page's). */
  initialState: ContactState;
  /** False until the island runs: the form posts to the Server Action itself. */
  island: boolean;
  /** Resolves to false when a field fails its rules: nothing is sent. */
  checkBeforeSend: (form: HTMLFormElement) => Promise<boolean>;
  /** The server's signature of the form's time on screen (use-form-token.ts). */
  readyToken: () => Promise<string>;
  recaptchaSiteKey?: string;
};

/**
 * The form's one state, useActionState's. The server HTML posts to the Server Action itself; once the island runs, its
 * send takes the action's place (React keeps the newest action), so the browser's answers and the island's are the
 * same state. The island sends one at a time, adds the signature and reCAPTCHA token, and confirms by itself when
 * asked. `contact`: the e-mail and phone a thanked send was about.
 */
export function useSending({
  initialState,
  island,
  checkBeforeSend,
  readyToken,
  recaptchaSiteKey,
}: Options) {
  const contact = useRef<LeadContact>(undefined);
  const send = useCallback(
    async (_previous: ContactState, formData: FormData) => {
      // The spinner is painted before Next's action call begins: the click is answered at once.
      await afterNextPaint();
      // The signature is the state's, in the hidden input; with none, the island's own, and a send sooner than a person
      // could have filled the form waits here, silently, under the spinner.
      const answered = formData.get(TOKEN_FIELD);
      const [token, captcha] = await Promise.all([
        typeof answered === 'string' && answered ? answered : readyToken(),
        recaptchaSiteKey ? getRecaptchaToken(recaptchaSiteKey, 'formSubmit') : '',
      ]);
      formData.set(TOKEN_FIELD, token);
      formData.set('captcha', captcha);
      let next = await post(formData);
      // Asked to confirm (no signature could be had, or it was refused): the island confirms, once, itself,
      // as late as a person would (the server holds a confirmation to that pace), still under the spinner.
      if (next.status === 'confirm') {
        formData.set(TOKEN_FIELD, next.token);
        await new Promise((resolve) => setTimeout(resolve, CONFIRM_MIN_MS + CONFIRM_MARGIN_MS));
        next = await post(formData);
      }
      if (next.status === 'sent')
        contact.current = {
          mail: String(formData.get('mail')),
          phone: String(formData.get('phone')),
        };
      return next;
    },
    [readyToken, recaptchaSiteKey],
  );
  // The permalink names the answer page whichever page the form was on: the home page, scrolled to the form.
  const [state, formAction, sending] = useActionState(
    island ? send : submitContact,
    initialState,
    ANSWER_URL,
  );
  const [rendered] = useState(state);
  // Set synchronously on submit, so a double click or a held Enter sends once.
  const inFlight = useRef(false);

  // Released once the answer is in; a thanked form stays locked.
  useEffect(() => {
    if (state.status !== 'sent' && !sending) inFlight.current = false;
  }, [state, sending]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;
    const form = event.currentTarget;
    inFlight.current = true;
    if (!(await checkBeforeSend(form))) {
      inFlight.current = false;
      return;
    }
    trackEvent('formulario');
    startTransition(() => formAction(new FormData(form)));
  }

  return { state, formAction, contact, browserAnswered: state === rendered, sending, onSubmit };
}
