import { startTransition, useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import {
  CONTACT_FIELDS,
  type ContactField,
  type ContactValues,
  type FieldErrors,
} from '@/lib/contact/fields';
import type { ContactState } from '@/lib/contact/state';
import type { Validate } from './use-contact-rules';
import { readValues, restoreDraft } from './use-draft';

/**
 * On submit, how long the rules may take to arrive before the form is sent without them (the server validates anyway).
 */
export const RULES_WAIT_MS = 1500;

/**
 * A pause this long in typing (or after leaving a field) and the fields touched since are checked and their messages
 * shown. A keystroke itself sets no state, so it renders nothing: its next paint waits on no React work (issue 52's
 * typing INP). The send checks every field at once, without waiting.
 */
export const TYPING_PAUSE_MS = 300;

/** What the form knows of one field's value: its rules' message (once they arrived) and whether it is blank. */
type Check = { error?: string; blank: boolean };
type Checks = Record<ContactField, Check>;

const checkOf = (validate: Validate | null, field: ContactField, value: string): Check => ({
  error: validate?.(field, value),
  blank: value.trim() === '',
});
const checkAll = (validate: Validate | null, values: ContactValues) =>
  Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, checkOf(validate, field, values[field])]),
  ) as Checks;
const sameCheck = (a: Check, b: Check) => a.error === b.error && a.blank === b.blank;
const UNCHECKED = checkAll(null, { name: '', mail: '', phone: '', reason: '' });
const NO_ERRORS: FieldErrors = {};

const wait = (ms: number) => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));

type Rules = { validate: Validate | null; request: () => Promise<Validate | null> };

/** Whether the form may not be sent: before the rules arrive only an empty field is known to be invalid. */
const invalidOf = (checks: Checks, validate: Validate | null) =>
  CONTACT_FIELDS.some((field) =>
    validate ? checks[field].error !== undefined : checks[field].blank,
  );

/**
 * Each field's verdict, which fields show their message, and whether the form
 * may be sent. The inputs are uncontrolled, so text typed before hydration is
 * kept.
 *
 * A keystroke checks its own field into a ref and sets state only when the
 * whole form's validity flips (the submit button: spec, disabled while the form
 * is invalid). The messages wait for a pause in typing (TYPING_PAUSE_MS): a
 * keystroke, even one that changes its field's verdict, renders nothing, so its
 * next paint waits on no React work (issue 52, typing INP).
 */
export function useFieldMessages(
  formRef: RefObject<HTMLFormElement | null>,
  { validate, request: requestRules }: Rules,
) {
  // False in the server HTML: the button is enabled and the browser posts the form itself.
  const [island, setIsland] = useState(false);
  // Every field's verdict as it stands, kept up to date by each keystroke.
  const live = useRef<Checks>(UNCHECKED);
  // The verdicts the messages show: `live` as of the last pause.
  const [checks, setChecks] = useState<Checks>(UNCHECKED);
  const [invalid, setInvalid] = useState(true);
  // The validity last asked of React: a keystroke that does not flip it asks nothing.
  const invalidRef = useRef(true);
  const validateRef = useRef(validate);
  // Fields that are dirty or touched: only these show their error.
  const [shown, setShown] = useState<ReadonlySet<ContactField>>(new Set());
  // The fields typed in or left since the last pause, and the pause's timer.
  const touched = useRef(new Set<ContactField>());
  const pause = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(pause.current), []);

  /** Every field checked as it stands, and shown on screen. */
  const settle = useCallback((values: ContactValues) => {
    live.current = checkAll(validateRef.current, values);
    setChecks(live.current);
    invalidRef.current = invalidOf(live.current, validateRef.current);
    setInvalid(invalidRef.current);
  }, []);

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
      settle(typed);
      setShown(new Set(dirty));
    });
  }, [formRef, requestRules, settle]);

  // The rules arrived: every field is checked once with them, as it stands.
  useEffect(() => {
    validateRef.current = validate;
    const form = formRef.current;
    if (validate && form) startTransition(() => settle(readValues(form)));
  }, [formRef, validate, settle]);

  // The pause: the fields touched since show their verdicts.
  const showTouched = useCallback(() => {
    const fields = [...touched.current];
    touched.current.clear();
    startTransition(() => {
      setChecks(live.current);
      setShown((current) =>
        fields.every((field) => current.has(field)) ? current : new Set([...current, ...fields]),
      );
    });
  }, []);

  // A blur. Stable, so a field whose props did not change is not rendered again.
  const touch = useCallback(
    (field: ContactField) => {
      touched.current.add(field);
      clearTimeout(pause.current);
      pause.current = setTimeout(showTouched, TYPING_PAUSE_MS);
    },
    [showTouched],
  );
  // A keystroke: its field checked now (a state only if the form's validity flips), its message at the pause.
  const onChange = useCallback(
    (field: ContactField, value: string) => {
      const check = checkOf(validateRef.current, field, value);
      if (!sameCheck(live.current[field], check))
        live.current = { ...live.current, [field]: check };
      // Only a flip renders (the button), and only after the keystroke's own paint.
      const nowInvalid = invalidOf(live.current, validateRef.current);
      if (nowInvalid !== invalidRef.current) {
        invalidRef.current = nowInvalid;
        startTransition(() => setInvalid(nowInvalid));
      }
      touch(field);
    },
    [touch],
  );

  /** Checks every field as it stands; on a failure shows every message and resolves to false. */
  const checkBeforeSend = useCallback(
    async (form: HTMLFormElement) => {
      // Every field is checked here: a pause still to come has nothing left to do.
      clearTimeout(pause.current);
      touched.current.clear();
      // A rules chunk that fails or is slow never locks the form: it is sent without them.
      const rules = await Promise.race([requestRules(), wait(RULES_WAIT_MS)]);
      const current = checkAll(rules, readValues(form));
      live.current = current;
      // Rendered again only if a verdict changed (an autofill the island did not hear, say).
      setChecks((known) =>
        CONTACT_FIELDS.every((field) => sameCheck(known[field], current[field])) ? known : current,
      );
      invalidRef.current = invalidOf(current, rules);
      setInvalid(invalidRef.current);
      if (CONTACT_FIELDS.some((field) => current[field].error !== undefined)) {
        setShown(new Set(CONTACT_FIELDS));
        return false;
      }
      return true;
    },
    [requestRules],
  );

  /**
   * The message under a field: the server's until the rules arrive, then the rules' once the field is shown (or the
   * server found the input invalid).
   */
  const errorOf = (field: ContactField, answer: ContactState, sending: boolean) => {
    if (!validate) return (answer.status === 'invalid' ? answer.fieldErrors : NO_ERRORS)[field];
    const answerInvalid = answer.status === 'invalid' && !sending;
    return shown.has(field) || answerInvalid ? checks[field].error : undefined;
  };

  return { island, invalid, errorOf, onChange, touch, checkBeforeSend };
}
