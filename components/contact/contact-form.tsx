'use client';

import clsx from 'clsx';
import { unstable_isUnrecognizedActionError as isUnrecognizedActionError } from 'next/navigation';
import { startTransition, useActionState, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { trackEvent } from '@/lib/analytics';
import { submitContact } from '@/lib/contact/actions';
import { CONTACT_FIELDS, type ContactField, type ContactValues, type FieldErrors } from '@/lib/contact/fields';
import { INITIAL_CONTACT_STATE, type ContactState } from '@/lib/contact/state';
import { contactForm as copy } from '@/lib/content';
import { leaveAfterLead } from '@/lib/lead';
import { navigateTo, reloadPage } from '@/lib/navigation';
import { getRecaptchaToken } from '@/lib/recaptcha';
import styles from './contact-form.module.css';

/** Spec: the browser leaves for the thank-you page 2000 ms after success. */
export const REDIRECT_DELAY_MS = 2000;

type Props = {
  /** The submit button's icon, rendered on the server. */
  submitIcon?: ReactNode;
  recaptchaSiteKey?: string;
  thankYouUrl: string;
  whatsappUrl: string;
};

const EMPTY: ContactValues = { name: '', mail: '', phone: '', reason: '' };

const FIELD_PROPS: Record<ContactField, { type?: string; inputMode?: 'tel' | 'email'; autoComplete: string }> = {
  name: { type: 'text', autoComplete: 'name' },
  mail: { type: 'email', inputMode: 'email', autoComplete: 'email' },
  phone: { type: 'text', inputMode: 'tel', autoComplete: 'tel' },
  reason: { autoComplete: 'off' },
};

/** Where the typed values wait while the page reloads after a new deployment. */
const DRAFT_KEY = 'contacto-borrador';

type Validate = (values: ContactValues) => FieldErrors;
let validator: Promise<Validate> | undefined;

/**
 * The rules (the zod schema the Server Action also uses) arrive only once the
 * visitor starts on the form: they are not part of the first visit's
 * JavaScript, and the first keystroke or focus fetches them.
 */
function loadValidator(): Promise<Validate> {
  validator ??= import('@/lib/contact/schema').then((schema) => schema.validateFields);
  return validator;
}

/**
 * The Server Action, with its transport failures turned into states: the
 * form never breaks, and a page left open across a deployment (whose action
 * id the new server no longer knows) is told to reload.
 */
async function submit(previous: ContactState, formData: FormData): Promise<ContactState> {
  try {
    return await submitContact(previous, formData);
  } catch (error) {
    return { status: 'failed', reason: isUnrecognizedActionError(error) ? 'stale' : undefined };
  }
}

function readValues(form: HTMLFormElement): ContactValues {
  const data = new FormData(form);
  return Object.fromEntries(CONTACT_FIELDS.map((field) => [field, String(data.get(field) ?? '')])) as ContactValues;
}

export function ContactForm({ submitIcon, recaptchaSiteKey, thankYouUrl, whatsappUrl }: Props) {
  const [state, formAction, isPending] = useActionState(submit, INITIAL_CONTACT_STATE);
  // The inputs are uncontrolled, so text typed before hydration is kept; this
  // mirror of their values drives validation.
  const [values, setValues] = useState<ContactValues>(EMPTY);
  // Fields that are dirty or touched: only these show their error.
  const [shown, setShown] = useState<ReadonlySet<ContactField>>(new Set());
  const [preparing, setPreparing] = useState(false);
  const [validate, setValidate] = useState<Validate | null>(null);
  // Set synchronously on submit, so a double click or a held Enter sends once.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);

  const errors = validate ? validate(values) : {};
  // Until the rules have arrived nothing can be known valid: the button waits.
  const invalid = !validate || Object.keys(errors).length > 0;
  const sending = preparing || isPending;

  const needValidator = () => {
    if (!validate) loadValidator().then((loaded) => setValidate(() => loaded));
  };

  // Pick up anything typed before the page became interactive, or kept
  // across a reload.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    restoreDraft(form);
    const typed = readValues(form);
    const dirty = CONTACT_FIELDS.filter((field) => typed[field] !== '');
    if (dirty.length === 0) return;
    loadValidator().then((loaded) => setValidate(() => loaded));
    startTransition(() => {
      setValues(typed);
      setShown(new Set(dirty));
    });
  }, []);

  useEffect(() => {
    if (state.status === 'sent') {
      thanksRef.current?.focus();
      // The redirect waits up to 1 s more for the lead's Ads conversion and GA event.
      return leaveAfterLead(state.key, REDIRECT_DELAY_MS, () => navigateTo(thankYouUrl));
    }
    if (!isPending) inFlight.current = false;
  }, [state, isPending, thankYouUrl]);

  const show = (field: ContactField) =>
    setShown((current) => (current.has(field) ? current : new Set(current).add(field)));

  const onChange = (field: ContactField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    show(field);
  };

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;
    const form = event.currentTarget;
    inFlight.current = true;
    const current = readValues(form);
    const validateNow = await loadValidator();
    setValidate(() => validateNow);
    if (Object.keys(validateNow(current)).length > 0) {
      inFlight.current = false;
      setValues(current);
      setShown(new Set(CONTACT_FIELDS));
      return;
    }
    setPreparing(true);
    trackEvent('formulario');
    const formData = new FormData(form);
    formData.set('captcha', recaptchaSiteKey ? await getRecaptchaToken(recaptchaSiteKey, 'formSubmit') : '');
    startTransition(() => {
      setPreparing(false);
      formAction(formData);
    });
  }

  const reloadKeepingValues = () => {
    const form = formRef.current;
    try {
      if (form) sessionStorage.setItem(DRAFT_KEY, JSON.stringify(readValues(form)));
    } catch {
      // Storage blocked (some private modes): reload all the same; the values are lost only there.
    }
    reloadPage();
  };

  if (state.status === 'sent') {
    return (
      <div className={styles.thanks} role="status">
        <h3 ref={thanksRef} tabIndex={-1} className={styles.thanksTitle}>
          {copy.thanksTitle}
        </h3>
        <p>{copy.thanksText}</p>
      </div>
    );
  }

  const serverInvalid = state.status === 'invalid' && !sending;
  const failed = state.status === 'failed' && !sending;

  return (
    <form
      ref={formRef}
      className={styles.form}
      action={formAction}
      onSubmit={onSubmit}
      onFocus={needValidator}
      onInput={needValidator}
      noValidate
      aria-busy={sending}
    >
      {CONTACT_FIELDS.map((field) => {
        const id = `contacto-${field}`;
        const error = shown.has(field) || serverInvalid ? errors[field] : undefined;
        const common = {
          id,
          name: field,
          required: true,
          defaultValue: '',
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
          onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
          onBlur: () => show(field),
          className: clsx(styles.input, error && styles.inputInvalid),
          ...FIELD_PROPS[field],
        };
        return (
          <div key={field} className={styles.field}>
            <label htmlFor={id} className={styles.label}>
              {copy.labels[field]}
            </label>
            {field === 'reason' ? <textarea rows={4} {...common} /> : <input {...common} />}
            {error ? (
              <p id={`${id}-error`} className={styles.error}>
                {error}
              </p>
            ) : null}
          </div>
        );
      })}

      <button type="submit" className={styles.submit} disabled={invalid || sending}>
        {submitIcon}
        {copy.submit}
      </button>

      <div role="status" className={styles.status}>
        {sending ? <span className="visually-hidden">{copy.sending}</span> : null}
        {serverInvalid ? <p className={styles.statusError}>{copy.invalid}</p> : null}
        {failed ? (
          <p className={styles.statusError}>
            {state.mes ??
              (state.reason === 'stale' ? (
                <>
                  {copy.stale}{' '}
                  <button type="button" className={styles.reload} onClick={reloadKeepingValues}>
                    {copy.reload}
                  </button>
                </>
              ) : (
                <>
                  {state.reason === 'rate-limited' ? copy.rateLimited : copy.failed}{' '}
                  <a href={whatsappUrl} target="_blank" rel="noopener noreferrer">
                    {copy.failedLink}
                  </a>
                  .
                </>
              ))}
          </p>
        ) : null}
      </div>

      {sending ? (
        <div className={styles.mask} aria-hidden="true" data-testid="sending-mask">
          <span className={styles.spinner} />
        </div>
      ) : null}
    </form>
  );
}

function restoreDraft(form: HTMLFormElement) {
  let draft: Partial<ContactValues> | null = null;
  try {
    draft = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? 'null');
  } catch {
    // Storage blocked or a broken value: nothing to restore.
  }
  if (!draft) return;
  sessionStorage.removeItem(DRAFT_KEY);
  for (const field of CONTACT_FIELDS) {
    const element = form.elements.namedItem(field);
    const value = draft[field];
    if ((element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) && typeof value === 'string') {
      element.value = value;
    }
  }
}
