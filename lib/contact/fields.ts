/**
 * The contact form's field names and value types, without the rules: the
 * form needs these as soon as it renders, while the rules (zod, in
 * `schema.ts`) reach the browser only once the visitor starts on the form.
 */
export const CONTACT_FIELDS = ['name', 'mail', 'phone', 'reason'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];
export type ContactValues = Record<ContactField, string>;
export type FieldErrors = Partial<Record<ContactField, string>>;
