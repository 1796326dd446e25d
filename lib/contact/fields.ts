/**
 * The contact form's field names and value types, without the rules: the
 * form needs these as soon as it renders, while the rules (zod, in
 * `schema.ts`) reach the browser only once the visitor starts on the form.
 */
export const CONTACT_FIELDS = ['name', 'mail', 'phone', 'reason'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Record<ContactField, string>;
export type FieldErrors = Partial<Record<ContactField, string>>;

/**
 * The most each field takes (its maxLength): far above its rule, whose message
 * still shows, only so a form posted without JavaScript stays under the
 * action's 32 kB body limit (over it, Next answers a bare error page).
 */
export const FIELD_MAX_CHARS: Record<ContactField, number> = { name: 300, mail: 300, phone: 100, reason: 3000 };

/**
 * The spam filter's two extra controls (lib/contact/form-token.ts, actions.ts).
 * The honeypot must be posted and empty: its name and autocomplete match no
 * autofill or password manager's heuristics (they fill fields named like real
 * ones), so only a program that fills every control writes in it.
 */
export const HONEYPOT_FIELD = 'campo_extra';
/** The server's signature of when the form was on screen (or of its own answer): a hidden input. */
export const TOKEN_FIELD = 'firma';
/** The build the form was rendered by (lib/proxy/stale-form.ts): a hidden input. */
export const EDITION_FIELD = 'edicion';
/** Where the island gets that signature once the form is on screen. */
export const TOKEN_PATH = '/api/contact/token';
/** A person takes at least this long from seeing the form to sending it; a send before waits silently. */
export const MIN_FILL_MS = 3000;
/**
 * A person asked to confirm reads one line ("Para confirmar el envío, presiona «Enviar» otra vez.", eight
 * words: about 1.5 s at a quick 300 words a minute) and reaches the button again; on a phone the
 * answer page itself takes longer to arrive. A confirmation sooner than this is asked again.
 */
export const CONFIRM_MIN_MS = 1500;
