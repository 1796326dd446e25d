import * as z from 'zod/mini';
import { CONTACT_FIELDS, type ContactField, type ContactValues, type FieldErrors } from './fields';
import {
  asTyped,
  barePhone,
  BREAKS_A_LINE,
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  EMAIL,
  isCaptchaShaped,
  LETTER,
  STRAY_CONTROL,
} from './rules';

// The contact rules (spec, point 5) as the server applies them: the zod schema the Server Action parses every post
// with, built from rules.ts's messages, limits and patterns (which the browser checks a field with while it is typed).
// zod/mini keeps the server's bundle small.

// `abort` stops at the first failed rule, so an empty field says "required" only.
const required = () => z.minLength(1, { error: CONTACT_MESSAGES.required, abort: true });
const without = (pattern: RegExp) =>
  z.refine<string>((value) => !pattern.test(value), { error: CONTACT_MESSAGES.chars, abort: true });

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
      z.regex(EMAIL, CONTACT_MESSAGES.email),
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
