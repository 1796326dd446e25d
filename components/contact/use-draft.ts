import { useCallback, type RefObject } from 'react';
import { CONTACT_FIELDS, type ContactValues } from '@/lib/contact/fields';
import { reloadPage } from '@/lib/browser/navigation';

/** Where the typed values wait while the page reloads after a new deployment. */
const DRAFT_KEY = 'contacto-borrador';

/** What the form's fields hold now (typed, autofilled, or restored), or what was posted. */
export function readValues(form: HTMLFormElement | FormData): ContactValues {
  const data = form instanceof FormData ? form : new FormData(form);
  return Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, String(data.get(field) ?? '')]),
  ) as ContactValues;
}

/** Puts back what was kept across a reload, once; returns whether anything was. */
export function restoreDraft(form: HTMLFormElement): boolean {
  let draft: Partial<ContactValues> | null = null;
  try {
    draft = JSON.parse(sessionStorage.getItem(DRAFT_KEY) ?? 'null');
    sessionStorage.removeItem(DRAFT_KEY);
  } catch {
    // Storage blocked or a broken value: nothing to restore.
  }
  if (!draft) return false;
  for (const field of CONTACT_FIELDS) {
    const element = form.elements.namedItem(field);
    const value = draft[field];
    if (
      (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) &&
      typeof value === 'string'
    ) {
      element.value = value;
    }
  }
  return true;
}

/** Reloads the page (a newer deployment is live) keeping what was typed in sessionStorage. */
export function useReloadKeepingValues(formRef: RefObject<HTMLFormElement | null>): () => void {
  return useCallback(() => {
    const form = formRef.current;
    try {
      if (form) sessionStorage.setItem(DRAFT_KEY, JSON.stringify(readValues(form)));
    } catch {
      // Storage blocked (some private modes): reload all the same; the values are lost only there.
    }
    reloadPage();
  }, [formRef]);
}
