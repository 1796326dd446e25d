// Names and types without the rules: the form needs these on first render, the rules (rules.ts) load once the visitor
// starts.
export const CONTACT_FIELDS = ['name', 'mail', 'phone', 'reason'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Record<ContactField, string>;
export type FieldErrors = Partial<Record<ContactField, string>>;

/**
 * An e-mail address as every part compares or hashes it (a lead's, a staff member's, Google's and Meta's user
 * data): trimmed, in lower case.
 */
export const normalMail = (address: string): string => address.trim().toLowerCase();

// Each field's maxLength: far above its rule, only so a form posted without JavaScript stays under the action's 32 kB
// body limit (over it, Next answers a bare error page).
export const FIELD_MAX_CHARS: Record<ContactField, number> = {
  name: 300,
  mail: 300,
  phone: 100,
  reason: 3000,
};

/**
 * Must be posted and empty: its name and autocomplete match no autofill or password manager's heuristics, so only a
 * program that fills every control writes in it.
 */
export const HONEYPOT_FIELD = 'campo_extra';
/** The server's signature of when the form was on screen (or of its own answer): a hidden input. */
export const TOKEN_FIELD = 'firma';
/** A failed send's key, signed: the same words sent again keep it (resend-key.ts). Only in a failed answer's form. */
export const RESEND_FIELD = 'reenvio';
/** The build the form was rendered by (lib/proxy/stale-form.ts). */
export const EDITION_FIELD = 'edicion';
export const TOKEN_PATH = '/api/contact/token';
/** A person takes at least this long from seeing the form to sending it; a send before waits silently. */
export const MIN_FILL_MS = 3000;
/**
 * Reading the eight-word confirmation line takes about 1.5 s at a quick 300 words a minute; a confirmation sooner is
 * asked again.
 */
export const CONFIRM_MIN_MS = 1500;
