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

/**
 * Each field's verdict and which fields may show it. The inputs are
 * uncontrolled, so text typed before hydration is kept; a keystroke checks its
 * own field only and sets state only when the verdict changes, so most
 * keystrokes render nothing.
 */
export function useFieldMessages(
  formRef: RefObject<HTMLFormElement | null>,
  { validate, request: requestRules }: Rules,
) {
  // False in the server HTML: the button is enabled and the browser posts the form itself.
  const [island, setIsland] = useState(false);
  const [checks, setChecks] = useState<Checks>(UNCHECKED);
  const validateRef = useRef(validate);
  // Fields that are dirty or touched: only these show their error.
  const [shown, setShown] = useState<ReadonlySet<ContactField>>(new Set());

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
  }, [formRef, requestRules]);

  // The rules arrived: every field is checked once with them, as it stands.
  useEffect(() => {
    validateRef.current = validate;
    const form = formRef.current;
    if (validate && form) setChecks(checkAll(validate, readValues(form)));
  }, [formRef, validate]);

  // Stable, so a field whose props did not change is not rendered again.
  const show = useCallback(
    (field: ContactField) =>
      setShown((current) => (current.has(field) ? current : new Set(current).add(field))),
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

  /** Checks every field as it stands; on a failure shows every message and resolves to false. */
  const checkBeforeSend = useCallback(
    async (form: HTMLFormElement) => {
      // A rules chunk that fails or is slow never locks the form: it is sent without them.
      const rules = await Promise.race([requestRules(), wait(RULES_WAIT_MS)]);
      const current = checkAll(rules, readValues(form));
      // Rendered again only if a verdict changed (an autofill the island did not hear, say).
      setChecks((known) =>
        CONTACT_FIELDS.every((field) => sameCheck(known[field], current[field])) ? known : current,
      );
      if (CONTACT_FIELDS.some((field) => current[field].error !== undefined)) {
        setShown(new Set(CONTACT_FIELDS));
        return false;
      }
      return true;
    },
    [requestRules],
  );

  // Before the rules arrive only an empty field is known to be invalid; the server checks the rest.
  const invalid = CONTACT_FIELDS.some((field) =>
    validate ? checks[field].error !== undefined : checks[field].blank,
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

  return { island, invalid, errorOf, onChange, show, checkBeforeSend };
}
