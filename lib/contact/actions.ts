'use server';

import { cookies, headers } from 'next/headers';
import { getForwardConfig } from '@/lib/env/server';
import { ANSWER_WITHIN_MS, deliverEnquiry, quarantineEnquiry } from './deliver';
import { CONTACT_FIELDS, EDITION_FIELD, HONEYPOT_FIELD, TOKEN_FIELD, type ContactValues } from './fields';
import { answerQaEnquiry, isQaEnquiry } from './qa-enquiry';
import { visitorOf, type Visitor } from './lead/forward';
import { consumeEnquiry, requestAddress, requestClient } from './rate-limit';
import { contactSchema, fieldErrorsOf, isCaptchaShaped, type ContactEnquiry } from './schema';
import { checkToken, issueToken, spendToken } from './signature-store';
import { FIRST_TOUCH_COOKIE, LAST_TOUCH_COOKIE, leadSourceOf, type LeadSource } from '@/lib/source';
import { spamRule } from './spam-rules';
import type { ContactState } from './state';

const ENQUIRY_FIELDS = [...CONTACT_FIELDS, 'captcha'] as const;
const POSTED_FIELDS: readonly string[] = [...ENQUIRY_FIELDS, HONEYPOT_FIELD, TOKEN_FIELD, EDITION_FIELD];

/**
 * The contact form's Server Action, for the form sent by the island and for
 * the plain HTML form sent before (or without) JavaScript: React renders the
 * page again from the state returned here. The browser is never trusted: the
 * same schema as the form validates again here, and invalid input goes
 * nowhere. Every state but `sent` carries the posted values back, so no
 * answer page ever loses what the visitor typed.
 *
 * The spam filter, in order: a filled or missing honeypot is spam; a post
 * without a valid signature (form-token.ts) is asked to confirm: none, one
 * signed for another address, forged or too old; one too young (sooner than
 * a person could have filled the form, or read the confirmation) is asked
 * again with the same signature, whose wait goes on. A confirmation is stored
 * nowhere and costs nothing against the abuse limit. Then the abuse limit;
 * then the signature is spent, so a second enquiry with it is asked to
 * confirm; then a few content rules. Spam is thanked like a person, and kept
 * apart instead of delivered (deliver.ts). A QA enquiry runs all of that,
 * then is thanked and logged, never delivered (qa-enquiry.ts). Every answer
 * but thanks carries a new confirmation signature, held to a person's pace.
 */
export async function submitContact(_previous: ContactState, formData: FormData): Promise<ContactState> {
  const answerBy = Date.now() + ANSWER_WITHIN_MS;
  const input = readFields(formData);
  if (!input) return { status: 'invalid', fieldErrors: {} };
  const values = typedValues(input);
  const requestHeaders = await headers();
  const client = requestClient(requestHeaders);
  const confirmToken = () => issueToken('confirm', client);

  const enquiry: Record<string, string> = Object.fromEntries(ENQUIRY_FIELDS.map((field) => [field, input[field] ?? '']));
  // Not the visitor's to fix: a captcha that is no reCAPTCHA token goes as none (the API decides), never refusing a person.
  if (!isCaptchaShaped(enquiry.captcha ?? '')) enquiry.captcha = '';
  const parsed = contactSchema.safeParse(enquiry);
  if (!parsed.success) return { status: 'invalid', fieldErrors: fieldErrorsOf(parsed.error.issues), values, token: await confirmToken() };

  const trap = input[HONEYPOT_FIELD] === undefined ? 'honeypot-missing' : input[HONEYPOT_FIELD] !== '' ? 'honeypot' : null;
  let nonce: string | undefined;
  if (!trap) {
    const posted = input[TOKEN_FIELD];
    const signature = await checkToken(posted, client);
    if (signature.verdict === 'early' && posted) return { status: 'confirm', values, token: posted };
    if (signature.verdict !== 'valid') return { status: 'confirm', values, token: await confirmToken() };
    nonce = signature.nonce;
  }

  const verdict = await consumeEnquiry(requestHeaders);
  if (!verdict.allowed) {
    console.warn(`[contacto] Límite de solicitudes alcanzado; se puede reintentar en ${verdict.retryAfterSeconds} s`);
    return { status: 'failed', reason: 'rate-limited', values, token: await confirmToken() };
  }
  if (nonce && !(await spendToken(nonce))) return { status: 'confirm', values, token: await confirmToken() };

  const lead = { answerBy, source: await sourceOf(requestHeaders), visitor: await visitorFor(requestHeaders) };
  const state = await answerChecked(parsed.data, trap ?? spamRule(parsed.data), lead);
  return state.status === 'failed' ? { ...state, values, token: await confirmToken() } : state;
}

type Context = { answerBy: number; source?: LeadSource; visitor?: Visitor };

/** A checked enquiry's way out: a QA enquiry stops here, whatever the spam rules said; spam is kept apart; the rest is delivered. */
async function answerChecked(enquiry: ContactEnquiry, rule: string | null, { answerBy, source, visitor }: Context): Promise<ContactState> {
  if (isQaEnquiry(enquiry)) return answerQaEnquiry(rule);
  if (rule) return quarantineEnquiry(enquiry, rule, { answerBy, source });
  return deliverEnquiry(enquiry, { answerBy, source, visitor });
}

/** What Meta's Conversions API matches the visitor with: read only when it is configured (lib/contact/lead/forward.ts). */
async function visitorFor(requestHeaders: Pick<Headers, 'get'>): Promise<Visitor | undefined> {
  try {
    if (!getForwardConfig().capi) return undefined;
    const jar = await cookies();
    const origin = requestHeaders.get('origin') ?? undefined;
    return visitorOf({
      ip: requestAddress(requestHeaders),
      userAgent: requestHeaders.get('user-agent'),
      fbp: jar.get('_fbp')?.value,
      fbc: jar.get('_fbc')?.value,
      referer: requestHeaders.get('referer'),
      siteOrigin: origin,
    });
  } catch {
    return undefined;
  }
}

/** Where the lead came from: the proxy's cookies and the address of the page that posted the form (lib/contact/source.ts). */
async function sourceOf(requestHeaders: Pick<Headers, 'get'>): Promise<LeadSource | undefined> {
  try {
    const jar = await cookies();
    return leadSourceOf({ first: jar.get(FIRST_TOUCH_COOKIE)?.value, last: jar.get(LAST_TOUCH_COOKIE)?.value }, requestHeaders.get('referer'), Date.now());
  } catch {
    // Where it came from is the agency's to know, never the visitor's problem: unknown.
    return undefined;
  }
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
