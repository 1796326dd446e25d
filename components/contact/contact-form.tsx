'use client';

import { useRef, type ReactNode } from 'react';
import { CONTACT_FIELDS, EDITION_FIELD, RESEND_FIELD, TOKEN_FIELD } from '@/lib/contact/fields';
import { INITIAL_CONTACT_STATE, type ContactState } from '@/lib/contact/state';
import {
  encodeExperiments,
  VARIANT_FIELD,
  type LeadExperiment,
} from '@/lib/experiments/lead-experiment';
import { contactForm as copy } from '@/lib/island-copy';
import { Field } from './field';
import { StatusMessage } from './status-message';
import { useContactRules } from './use-contact-rules';
import { useReloadKeepingValues } from './use-draft';
import { useFieldMessages } from './use-field-messages';
import { useFormToken } from './use-form-token';
import { useSending } from './use-sending';
import { REDIRECT_DELAY_MS, useThanksRedirect } from './use-thanks-redirect';
import styles from './contact-form.module.css';

// The form's timings, where its callers and tests look for them.
export { RULES_WAIT_MS, TYPING_PAUSE_MS } from './use-field-messages';
export { REDIRECT_DELAY_MS };

type Props = {
  /** The state before any send; the retry page passes a stale form's values. */
  initialState?: ContactState;
  /** The submit button's icon, rendered on the server. */
  submitIcon?: ReactNode;
  /** The spam filter's honeypot (honeypot.tsx), rendered on the server. */
  honeypot?: ReactNode;
  recaptchaSiteKey?: string;
  thankYouUrl: string;
  /** This build's edition (lib/env/public.ts formEdition), posted back so the proxy can tell another build's form. */
  edition?: string;
  whatsappUrl: string;
  /** The send button's words, when an experiment's variant changes them (lib/island-copy.ts has the page's own). */
  submit?: string;
  /** The experiments' variants this page is of: posted with the lead, and sent with its GA4 and Ads events. */
  experiments?: LeadExperiment[];
};

/**
 * The contact form, on useActionState's one state (use-sending.ts). In the server HTML its `action` is the Server
 * Action itself: a real multipart POST form the browser sends on its own before or without JavaScript, answered with a
 * page rendered from that state. Once this island runs it sends into the same state (onSubmit), adding what scripts can
 * add: validation while typing, the mask, reCAPTCHA, the automatic confirmation, the conversion.
 */
export function ContactForm({
  initialState = INITIAL_CONTACT_STATE,
  submitIcon,
  honeypot,
  recaptchaSiteKey,
  thankYouUrl,
  whatsappUrl,
  edition = '',
  submit = copy.submit,
  experiments,
}: Props) {
  const formRef = useRef<HTMLFormElement>(null);
  const rules = useContactRules();
  const reloadKeepingValues = useReloadKeepingValues(formRef);
  const readyToken = useFormToken(formRef);
  const { island, invalid, errorOf, onChange, touch, checkBeforeSend } = useFieldMessages(
    formRef,
    rules,
  );
  const { state, formAction, contact, browserAnswered, sending, onSubmit } = useSending({
    initialState,
    island,
    checkBeforeSend,
    readyToken,
    recaptchaSiteKey,
  });
  const thanksRef = useThanksRedirect(state, thankYouUrl, contact, experiments);

  const posted = 'values' in state ? state.values : undefined;
  // The server's signature in its answer: the next press is accepted without asking again.
  const answerToken = 'token' in state ? state.token : undefined;
  // A failed send's key: the same words sent again keep it (lib/contact/resend-key.ts).
  const resend = 'resend' in state ? state.resend : undefined;

  if (state.status === 'sent') {
    return (
      <div className={styles.thanks} role="status">
        <h3 ref={thanksRef} tabIndex={-1} className={styles.thanksTitle}>
          {copy.thanksTitle}
        </h3>
        <p>{copy.thanksText}</p>
        {/* Without scripts a refresh takes the visitor on; with them, useThanksRedirect does, after the conversion. */}
        {browserAnswered ? (
          <noscript>
            <meta httpEquiv="refresh" content={`${REDIRECT_DELAY_MS / 1000};url=${thankYouUrl}`} />
          </noscript>
        ) : null}
      </div>
    );
  }

  return (
    <form
      ref={formRef}
      className={styles.form}
      action={formAction}
      // Where a thanked visitor goes, as this build was configured: QA's deployment suite follows it there.
      data-thank-you={thankYouUrl}
      onSubmit={onSubmit}
      onFocus={() => void rules.request()}
      noValidate
      aria-busy={sending}
    >
      {CONTACT_FIELDS.map((field) => (
        <Field
          key={field}
          field={field}
          error={errorOf(field, state, sending)}
          defaultValue={posted?.[field] ?? ''}
          onChange={onChange}
          onBlur={touch}
        />
      ))}

      {honeypot}
      <input key={answerToken} type="hidden" name={TOKEN_FIELD} defaultValue={answerToken ?? ''} />
      <input type="hidden" name={EDITION_FIELD} value={edition} />
      {resend ? <input type="hidden" name={RESEND_FIELD} value={resend} /> : null}
      {experiments?.length ? (
        <input type="hidden" name={VARIANT_FIELD} value={encodeExperiments(experiments)} />
      ) : null}

      <button type="submit" className={styles.submit} disabled={island && (invalid || sending)}>
        {submitIcon}
        {submit}
      </button>

      <div role="status" className={styles.status}>
        <StatusMessage
          state={state}
          sending={sending}
          browserAnswered={browserAnswered}
          whatsappUrl={whatsappUrl}
          submit={submit}
          onReload={reloadKeepingValues}
        />
      </div>

      {sending ? (
        <div className={styles.mask} aria-hidden="true" data-testid="sending-mask">
          <span className={styles.spinner} />
        </div>
      ) : null}
    </form>
  );
}
