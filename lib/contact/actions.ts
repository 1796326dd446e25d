'use server';

import { headers } from 'next/headers';
import { ANSWER_WITHIN_MS, deliverEnquiry, quarantineEnquiry } from './deliver';
import { CONTACT_FIELDS, HONEYPOT_FIELD, TOKEN_FIELD, type ContactValues } from './fields';
import { checkFormToken, confirmToken } from './form-token';
import { answerQaEnquiry, isQaEnquiry } from './qa-enquiry';
import { consumeEnquiry } from './rate-limit';
import { contactSchema, fieldErrorsOf, isCaptchaShaped, type ContactEnquiry } from './schema';
import { spamRule } from './spam-rules';
import type { ContactState } from './state';

const ENQUIRY_FIELDS = [...CONTACT_FIELDS, 'captcha'] as const;
const POSTED_FIELDS: readonly string[] = [...ENQUIRY_FIELDS, HONEYPOT_FIELD, TOKEN_FIELD];

/**
 * The contact form's Server Action, for the form sent by the island and for
 * the plain HTML form sent before (or without) JavaScript: React renders the
 * page again from the state returned here. The browser is never trusted: the
 * same schema as the form validates again here, and invalid input goes
 * nowhere. Every state but `sent` carries the posted values back, so no
 * answer page ever loses what the visitor typed.
 *
 * The spam filter, in order: a filled or missing honeypot is spam; a post
 * without a valid signature of the form's time on screen is asked to confirm
 * (stored nowhere, and no count against the abuse limit); then the abuse
 * limit; then a few content rules. Spam is thanked like a person, and kept
 * apart instead of delivered (deliver.ts). A QA enquiry runs all of that,
 * then is thanked and logged, never delivered (qa-enquiry.ts).
 */
export async function submitContact(_previous: ContactState, formData: FormData): Promise<ContactState> {
  const answerBy = Date.now() + ANSWER_WITHIN_MS;
  const input = readFields(formData);
  if (!input) return { status: 'invalid', fieldErrors: {} };
  const values = typedValues(input);

  const enquiry: Record<string, string> = Object.fromEntries(ENQUIRY_FIELDS.map((field) => [field, input[field] ?? '']));
  // Not the visitor's to fix: a captcha that is no reCAPTCHA token goes as none (the API decides), never refusing a person.
  if (!isCaptchaShaped(enquiry.captcha ?? '')) enquiry.captcha = '';
  const parsed = contactSchema.safeParse(enquiry);
  if (!parsed.success) return { status: 'invalid', fieldErrors: fieldErrorsOf(parsed.error.issues), values, token: confirmToken() };

  const trap = input[HONEYPOT_FIELD] === undefined ? 'honeypot-missing' : input[HONEYPOT_FIELD] !== '' ? 'honeypot' : null;
  if (!trap && checkFormToken(input[TOKEN_FIELD]) !== 'valid') return { status: 'confirm', values, token: confirmToken() };

  const verdict = await consumeEnquiry(await headers());
  if (!verdict.allowed) {
    console.warn(`[contacto] Límite de solicitudes alcanzado; se puede reintentar en ${verdict.retryAfterSeconds} s`);
    return { status: 'failed', reason: 'rate-limited', values, token: confirmToken() };
  }

  const state = await answerChecked(parsed.data, trap ?? spamRule(parsed.data), answerBy);
  return state.status === 'failed' ? { ...state, values, token: confirmToken() } : state;
}

/** A checked enquiry's way out: a QA enquiry stops here, whatever the spam rules said; spam is kept apart; the rest is delivered. */
async function answerChecked(enquiry: ContactEnquiry, rule: string | null, answerBy: number): Promise<ContactState> {
  if (isQaEnquiry(enquiry)) return answerQaEnquiry(rule);
  if (rule) return quarantineEnquiry(enquiry, rule, { answerBy });
  return deliverEnquiry(enquiry, { answerBy });
}

/** The four visible fields as posted (the captcha token is not the visitor's). */
function typedValues(input: Partial<Record<string, string>>): ContactValues {
  return Object.fromEntries(CONTACT_FIELDS.map((field) => [field, input[field] ?? ''])) as ContactValues;
}

/** The posted fields as single strings (a missing one left out), or null if anything else was posted. */
function readFields(formData: FormData): Partial<Record<string, string>> | null {
  if (!(formData instanceof FormData)) return null;
  for (const key of new Set(formData.keys())) {
    // React adds its own $ACTION_* entries to forms it renders.
    if (!key.startsWith('$ACTION') && !POSTED_FIELDS.includes(key)) return null;
  }
  const input: Partial<Record<string, string>> = {};
  for (const field of POSTED_FIELDS) {
    const values = formData.getAll(field);
    if (values.length === 0) continue;
    const value = values[0];
    if (values.length > 1 || typeof value !== 'string') return null;
    input[field] = value;
  }
  return input;
}
