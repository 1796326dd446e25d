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
