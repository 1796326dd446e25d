import type { ContactField } from './fields';

// The contact rules (spec, point 5), without zod: the messages, limits and patterns that schema.ts's zod schema (the
// server's, which decides) is built from, and the browser's check of one field as it is typed (`validateField`).
// Beyond the spec: what is stored and e-mailed to the agency is text a person typed, never control characters or forged
// lines.
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
export const BREAKS_A_LINE = /[\p{Cc}\u2028\u2029]/u;
// In the reason, once normalised, the line feed is the only control character a person types.
export const STRAY_CONTROL = /(?!\n)\p{Cc}/u;
export const LETTER = /\p{L}/u;
/** zod's `regexes.email` as of zod 4.6 (Gmail's rules, roughly), which the schema used before it was kept here. */
export const EMAIL =
  /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;
const TOKEN_CHARS = /^[A-Za-z0-9_-]*$/; // reCAPTCHA tokens are base64url-like

/** Shaped like what reCAPTCHA issues (or empty): the action sends anything else as empty, and the API decides. */
export const isCaptchaShaped = (token: string) =>
  token.length <= CONTACT_LIMITS.captchaMax && TOKEN_CHARS.test(token);

// What autofill and copy-paste put between a phone's digits: spaces (any width), dashes, dots, parentheses.
const PHONE_SEPARATORS = /[\p{Zs}\u2010-\u2013.()-]/gu;
/** A phone as Mexicans type it, checked and sent bare: `+52 1 55 1234 5678` is `+5215512345678`. */
export const barePhone = (typed: string) => typed.replace(PHONE_SEPARATORS, '');
/** Pasted text as a textarea would hold it: one kind of line break (forms post CRLF), no tabs. */
export const asTyped = (text: string) =>
  text.replace(/\r\n?|[\u2028\u2029]/g, '\n').replace(/\t/g, ' ');

const M = CONTACT_MESSAGES;
const L = CONTACT_LIMITS;
/** A length as zod measures a string's: in Unicode code points (an emoji is one), not UTF-16 units. */
const lengthOf = (value: string) => [...value].length;

/**
 * One field's rules in the order the schema checks them, each a message or undefined; the first message is the
 * field's. The same order and tests as schema.ts's fields: schema.test.ts runs both over thousands of generated values.
 */
const RULES: Record<ContactField, (value: string) => (string | undefined)[]> = {
  name: (typed) => {
    const value = typed.trim();
    const length = lengthOf(value);
    return [
      length < 1 ? M.required : undefined,
      length < L.nameMin ? M.min5 : undefined,
      BREAKS_A_LINE.test(value) ? M.chars : undefined,
      LETTER.test(value) ? undefined : M.letters,
      length > L.nameMax ? M.max100 : undefined,
    ];
  },
  mail: (typed) => {
    const value = typed.trim();
    const length = lengthOf(value);
    return [
      length < 1 ? M.required : undefined,
      BREAKS_A_LINE.test(value) ? M.chars : undefined,
      length > L.mailMax ? M.max100 : undefined,
      EMAIL.test(value) ? undefined : M.email,
    ];
  },
  phone: (typed) => {
    const value = barePhone(typed.trim());
    const length = lengthOf(value);
    return [
      length < 1 ? M.required : undefined,
      BREAKS_A_LINE.test(value) ? M.chars : undefined,
      length > L.phoneMax ? M.max15 : undefined,
    ];
  },
  reason: (typed) => {
    const value = asTyped(typed).trim();
    const length = lengthOf(value);
    return [
      length < 1 ? M.required : undefined,
      length < L.reasonMin ? M.min5 : undefined,
      STRAY_CONTROL.test(value) ? M.chars : undefined,
      length > L.reasonMax ? M.max500 : undefined,
    ];
  },
};

/**
 * The first message of one field's value, or undefined: what the form shows while the visitor types. Plain code, not
 * the zod schema: under Turbopack the schema's chunk is 52 kB (16 kB gzip) of zod, whose evaluation held the main
 * thread about 100 ms on a 4x slower phone just as the visitor began typing (issue 52). The server still decides with
 * the schema.
 */
export function validateField(field: ContactField, value: string): string | undefined {
  return RULES[field](value).find((message) => message !== undefined);
}
