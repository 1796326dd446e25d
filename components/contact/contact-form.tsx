'use client';

import clsx from 'clsx';
import { unstable_isUnrecognizedActionError as isUnrecognizedActionError } from 'next/navigation';
import {
  memo,
  startTransition,
  useActionState,
  useCallback,
  useEffect,
  useRef,
  useState,
  useTransition,
  type FormEvent,
  type ReactNode,
} from 'react';
import { trackEvent } from '@/lib/analytics';
import { submitContact } from '@/lib/contact/actions';
import {
  CONTACT_FIELDS,
  FIELD_MAX_CHARS,
  TOKEN_FIELD,
  type ContactField,
  type ContactValues,
  type FieldErrors,
} from '@/lib/contact/fields';
import { INITIAL_CONTACT_STATE, type ContactState } from '@/lib/contact/state';
import { contactForm as copy } from '@/lib/island-copy';
import { leaveAfterLead } from '@/lib/lead';
import { navigateTo } from '@/lib/navigation';
import { getRecaptchaToken } from '@/lib/recaptcha';
import { useContactRules, type Validate } from './use-contact-rules';
import { readValues, restoreDraft, useReloadKeepingValues } from './use-draft';
import { useFormToken } from './use-form-token';
import styles from './contact-form.module.css';

/** Spec: the browser leaves for the thank-you page 2000 ms after success. */
export const REDIRECT_DELAY_MS = 2000;
/** On submit, how long the rules may take to arrive before the form is sent without them (the server validates anyway). */
export const RULES_WAIT_MS = 1500;

type Props = {
  /** The state before any send; the retry page passes a stale form's values. */
  initialState?: ContactState;
  /** The submit button's icon, rendered on the server. */
  submitIcon?: ReactNode;
  /** The spam filter's honeypot (honeypot.tsx), rendered on the server. */
  honeypot?: ReactNode;
  recaptchaSiteKey?: string;
  thankYouUrl: string;
  whatsappUrl: string;
};

/** Where a form sent without JavaScript is answered (the form card's anchor). */
const ANSWER_URL = '/#contacto';

const NO_ERRORS: FieldErrors = {};

/** What the form knows of one field's value: its rules' message (once they arrived) and whether it is blank. */
type Check = { error?: string; blank: boolean };
type Checks = Record<ContactField, Check>;

const checkOf = (validate: Validate | null, field: ContactField, value: string): Check => ({
  error: validate?.(field, value),
  blank: value.trim() === '',
});
const checkAll = (validate: Validate | null, values: ContactValues) =>
  Object.fromEntries(CONTACT_FIELDS.map((field) => [field, checkOf(validate, field, values[field])])) as Checks;
const sameCheck = (a: Check, b: Check) => a.error === b.error && a.blank === b.blank;
const UNCHECKED = checkAll(null, { name: '', mail: '', phone: '', reason: '' });

const FIELD_PROPS: Record<ContactField, { type?: string; inputMode?: 'tel' | 'email'; autoComplete: string }> = {
  name: { type: 'text', autoComplete: 'name' },
  mail: { type: 'email', inputMode: 'email', autoComplete: 'email' },
  phone: { type: 'text', inputMode: 'tel', autoComplete: 'tel' },
  reason: { autoComplete: 'off' },
};

/** The island's own send: transport failures become states, and a page from an older deployment is told to reload. */
async function send(formData: FormData): Promise<ContactState> {
  try {
    return await submitContact(INITIAL_CONTACT_STATE, formData);
  } catch (error) {
    return { status: 'failed', reason: isUnrecognizedActionError(error) ? 'stale' : undefined };
  }
}

const wait = (ms: number) => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));

/** Resolves once the next frame is painted, or after 100 ms where no frame comes (a hidden tab): a send never waits on a frame. */
const afterNextPaint = () =>
  new Promise<void>((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve, 0));
    setTimeout(resolve, 100);
  });

/**
 * The contact form. Its `action` is the Server Action itself, so the server
 * HTML is a real multipart POST form (with Next's hidden action fields) that
 * the browser sends on its own before or without JavaScript, and the page
 * comes back rendered from the action's state: messages, values, thanks.
 * Once this island runs it sends instead (onSubmit), adding what scripts can
 * add: validation while typing, the mask, reCAPTCHA, the conversion.
 */
export function ContactForm({ initialState = INITIAL_CONTACT_STATE, submitIcon, honeypot, recaptchaSiteKey, thankYouUrl, whatsappUrl }: Props) {
  // The state of a form the browser posted itself (the page is rendered from it). The permalink names
  // the answer page: the home page, scrolled to the form, whichever page the form was on.
  const [answered, formAction] = useActionState(submitContact, initialState, ANSWER_URL);
  // The state of the island's own last send, which replaces it.
  const [latest, setLatest] = useState<ContactState | null>(null);
  const state = latest ?? answered;
  const [isPending, startSending] = useTransition();
  const [preparing, setPreparing] = useState(false);
  // False in the server HTML: the button is enabled and the browser posts the form itself.
  const [island, setIsland] = useState(false);
  const { validate, request: requestRules } = useContactRules();
  // The inputs are uncontrolled, so text typed before hydration is kept. Each
  // keystroke checks its own field only, and changes this state only when the
  // verdict changes: most keystrokes render nothing at all.
  const [checks, setChecks] = useState<Checks>(UNCHECKED);
  const validateRef = useRef(validate);
  // Fields that are dirty or touched: only these show their error.
  const [shown, setShown] = useState<ReadonlySet<ContactField>>(new Set());
  // Set synchronously on submit, so a double click or a held Enter sends once.
  const inFlight = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const thanksRef = useRef<HTMLHeadingElement>(null);
  const reloadKeepingValues = useReloadKeepingValues(formRef);
  const readyToken = useFormToken(formRef);

  const sending = preparing || isPending;
  // Before the rules arrive only an empty field is known to be invalid; the server checks the rest.
  const invalid = CONTACT_FIELDS.some((field) => (validate ? checks[field].error !== undefined : checks[field].blank));
  const answerInvalid = state.status === 'invalid' && !sending;
  const failed = state.status === 'failed' && !sending;
  const answerErrors = state.status === 'invalid' ? state.fieldErrors : NO_ERRORS;
  const posted = answered.status === 'invalid' || answered.status === 'failed' || answered.status === 'confirm' ? answered.values : undefined;
  // The server's signature in its answer: the next press is accepted without asking again.
  const answerToken = 'token' in state ? state.token : undefined;

  // Pick up anything typed or autofilled before the page became interactive,
  // kept across a reload, or given back by the server's answer.
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    restoreDraft(form);
    const typed = readValues(form);
    const dirty = CONTACT_FIELDS.filter((field) => typed[field] !== '');
    if (dirty.length > 0) void requestRules();
    startTransition(() => {
      setIsland(true);
      setChecks(checkAll(validateRef.current, typed));
      setShown(new Set(dirty));
    });
  }, [requestRules]);

  // The rules arrived: every field is checked once with them, as it stands.
  useEffect(() => {
    validateRef.current = validate;
    const form = formRef.current;
    if (validate && form) setChecks(checkAll(validate, readValues(form)));
  }, [validate]);

  useEffect(() => {
    if (state.status === 'sent') {
      thanksRef.current?.focus();
      const leave = () => navigateTo(thankYouUrl);
      // The redirect waits up to 1 s more for the lead's Ads conversion and GA event (a suspected spam has none).
      if (state.key) return leaveAfterLead(state.key, REDIRECT_DELAY_MS, leave);
      const timer = setTimeout(leave, REDIRECT_DELAY_MS);
      return () => clearTimeout(timer);
    }
    if (!isPending) inFlight.current = false;
  }, [state, isPending, thankYouUrl]);

  // Stable, so a field whose props did not change is not rendered again.
  const show = useCallback(
    (field: ContactField) => setShown((current) => (current.has(field) ? current : new Set(current).add(field))),
    [],
  );
  const onChange = useCallback(
    (field: ContactField, value: string) => {
      const next = checkOf(validateRef.current, field, value);
      setChecks((current) =>
        sameCheck(current[field], next) ? current : { ...current, [field]: next },
      );
      show(field);
    },
    [show],
  );

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (inFlight.current) return;
    const form = event.currentTarget;
    inFlight.current = true;
    // A rules chunk that fails or is slow never locks the form: it is sent without them.
    const rules = await Promise.race([requestRules(), wait(RULES_WAIT_MS)]);
    const current = checkAll(rules, readValues(form));
    // Rendered again only if a verdict changed (an autofill the island did not hear, say).
    setChecks((known) => (CONTACT_FIELDS.every((field) => sameCheck(known[field], current[field])) ? known : current));
    if (CONTACT_FIELDS.some((field) => current[field].error !== undefined)) {
      inFlight.current = false;
      setShown(new Set(CONTACT_FIELDS));
      return;
    }
    setPreparing(true);
    trackEvent('formulario');
    const formData = new FormData(form);
    // The spinner is painted before the send's own work (Next's action call)
    // begins: the visitor sees the click answered at once.
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
      // Asked to confirm (no signature could be had, or it was refused): the island confirms, once, itself.
      if (next.status === 'confirm') {
        formData.set(TOKEN_FIELD, next.token);
        next = await send(formData);
      }
      startTransition(() => setLatest(next));
    });
  }

  if (state.status === 'sent') {
    return (
      <div className={styles.thanks} role="status">
        <h3 ref={thanksRef} tabIndex={-1} className={styles.thanksTitle}>
          {copy.thanksTitle}
        </h3>
        <p>{copy.thanksText}</p>
        {/* Sent by the browser itself: without scripts, a refresh takes the visitor on (with scripts, the effect above does, after the conversion). */}
        {latest === null ? (
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
      onSubmit={onSubmit}
      onFocus={() => void requestRules()}
      noValidate
      aria-busy={sending}
    >
      {CONTACT_FIELDS.map((field) => (
        <Field
          key={field}
          field={field}
          error={validate ? (shown.has(field) || answerInvalid ? checks[field].error : undefined) : answerErrors[field]}
          defaultValue={posted?.[field] ?? ''}
          onChange={onChange}
          onBlur={show}
        />
      ))}

      {honeypot}
      <input key={answerToken} type="hidden" name={TOKEN_FIELD} defaultValue={answerToken ?? ''} />

      <button type="submit" className={styles.submit} disabled={island && (invalid || sending)}>
        {submitIcon}
        {copy.submit}
      </button>

      <div role="status" className={styles.status}>
        {sending ? <span className="visually-hidden">{copy.sending}</span> : null}
        {answerInvalid ? <p className={styles.statusError}>{copy.invalid}</p> : null}
        {state.status === 'confirm' && !sending ? <p className={styles.statusNote}>{copy.confirm}</p> : null}
        {failed ? (
          <p className={styles.statusError}>
            {state.mes ??
              (state.reason === 'stale' && latest === null ? (
                copy.staleResend
              ) : state.reason === 'stale' ? (
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

type FieldProps = {
  field: ContactField;
  error: string | undefined;
  defaultValue: string;
  onChange: (field: ContactField, value: string) => void;
  onBlur: (field: ContactField) => void;
};

/** One labelled field and its message; rendered again only when its own props change. */
const Field = memo(function Field({ field, error, defaultValue, onChange, onBlur }: FieldProps) {
  const id = `contacto-${field}`;
  const common = {
    id,
    name: field,
    required: true,
    defaultValue,
    maxLength: FIELD_MAX_CHARS[field],
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    onChange: (event: { target: { value: string } }) => onChange(field, event.target.value),
    onBlur: () => onBlur(field),
    className: clsx(styles.input, error && styles.inputInvalid),
    ...FIELD_PROPS[field],
  };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {copy.labels[field]}
      </label>
      {field === 'reason' ? <textarea rows={4} {...common} /> : <input {...common} />}
      {/* The message's line is kept even while empty: a message that comes or goes moves nothing below it, so a keystroke repaints this field only. */}
      <div className={styles.message}>
        {error ? (
          <p id={`${id}-error`} className={styles.error}>
            {error}
          </p>
        ) : null}
      </div>
    </div>
  );
});
