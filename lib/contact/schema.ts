import * as z from 'zod/mini';
import { CONTACT_FIELDS, type ContactField, type ContactValues, type FieldErrors } from './fields';

// The contact rules (spec, point 5) for the form and the action; zod/mini keeps the browser's share small. Beyond the
// spec: what is stored and e-mailed to the agency is text a person typed, never control characters or forged lines.
export const CONTACT_MESSAGES = {
  required: 'Este campo es obligatorio',
  min5: 'Este campo debe tener al menos 5 caracteres',
  max100: 'Este campo no debe tener mas de 100 caracteres',
  email: 'Este campo debe ser un email',
  max15: 'Este campo no debe tener mas de 15 caracteres',
  max500: 'Este campo no debe tener mas de 500 caracteres',
  chars: 'Este campo tiene caracteres no permitidos',
  letters: 'Este campo debe incluir letras',
} as const;

// captchaMax: reCAPTCHA v3 tokens are roughly 400 to 2,200 characters; far longer is not one.
export const CONTACT_LIMITS = {
  nameMin: 5,
  nameMax: 100,
  mailMax: 100,
  phoneMax: 15,
  reasonMin: 5,
  reasonMax: 500,
  captchaMax: 4096,
} as const;

// Control characters (C0, DEL, C1) and U+2028/U+2029: a single-line field must never carry a line break into the alert
// e-mail.
const BREAKS_A_LINE = /[\p{Cc}\u2028\u2029]/u;
// In the reason, once normalised, the line feed is the only control character a person types.
const STRAY_CONTROL = /(?!\n)\p{Cc}/u;
const LETTER = /\p{L}/u;
const TOKEN_CHARS = /^[A-Za-z0-9_-]*$/; // reCAPTCHA tokens are base64url-like
/** Shaped like what reCAPTCHA issues (or empty): the action sends anything else as empty, and the API decides. */
export const isCaptchaShaped = (token: string) =>
  token.length <= CONTACT_LIMITS.captchaMax && TOKEN_CHARS.test(token);

// `abort` stops at the first failed rule, so an empty field says "required" only.
const required = () => z.minLength(1, { error: CONTACT_MESSAGES.required, abort: true });
const without = (pattern: RegExp) =>
  z.refine<string>((value) => !pattern.test(value), { error: CONTACT_MESSAGES.chars, abort: true });

// What autofill and copy-paste put between a phone's digits: spaces (any width), dashes, dots, parentheses.
const PHONE_SEPARATORS = /[\p{Zs}\u2010-\u2013.()-]/gu;
/** A phone as Mexicans type it, checked and sent bare: `+52 1 55 1234 5678` is `+5215512345678`. */
export const barePhone = (typed: string) => typed.replace(PHONE_SEPARATORS, '');
/** Pasted text as a textarea would hold it: one kind of line break (forms post CRLF), no tabs. */
const asTyped = (text: string) => text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/\t/g, ' ');

export const contactSchema = z.strictObject({
  name: z
    .string()
    .check(
      z.trim(),
      required(),
      z.minLength(CONTACT_LIMITS.nameMin, { error: CONTACT_MESSAGES.min5, abort: true }),
      without(BREAKS_A_LINE),
      z.regex(LETTER, { error: CONTACT_MESSAGES.letters, abort: true }),
      z.maxLength(CONTACT_LIMITS.nameMax, CONTACT_MESSAGES.max100),
    ),
  mail: z
    .string()
    .check(
      z.trim(),
      required(),
      without(BREAKS_A_LINE),
      z.maxLength(CONTACT_LIMITS.mailMax, { error: CONTACT_MESSAGES.max100, abort: true }),
      z.regex(z.regexes.email, CONTACT_MESSAGES.email),
    ),
  phone: z
    .string()
    .check(
      z.trim(),
      z.overwrite(barePhone),
      required(),
      without(BREAKS_A_LINE),
      z.maxLength(CONTACT_LIMITS.phoneMax, CONTACT_MESSAGES.max15),
    ),
  reason: z
    .string()
    .check(
      z.overwrite(asTyped),
      z.trim(),
      required(),
      z.minLength(CONTACT_LIMITS.reasonMin, { error: CONTACT_MESSAGES.min5, abort: true }),
      without(STRAY_CONTROL),
      z.maxLength(CONTACT_LIMITS.reasonMax, CONTACT_MESSAGES.max500),
    ),
  // Spec: no validator. Empty (no reCAPTCHA on the site, or it did not load) or shaped like a token.
  captcha: z.string().check(z.refine<string>(isCaptchaShaped)),
});

export type ContactEnquiry = z.infer<typeof contactSchema>;
/** The first message of each invalid field, or an empty object. */
export function validateFields(values: ContactValues): FieldErrors {
  const result = contactSchema.safeParse({ ...values, captcha: '' });
  return result.success ? {} : fieldErrorsOf(result.error.issues);
}

/** The first message of one field's value, or undefined: a keystroke checks only its own field. */
export function validateField(field: ContactField, value: string): string | undefined {
  const result = contactSchema.shape[field].safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

const isContactField = (value: unknown): value is ContactField =>
  typeof value === 'string' && (CONTACT_FIELDS as readonly string[]).includes(value);

export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (isContactField(field) && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}
