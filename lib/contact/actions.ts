'use server';

import { cookies, headers } from 'next/headers';
import { requestAddress, requestClient } from '@/lib/abuse/client';
import { getForwardConfig } from '@/lib/env/server';
import { countedLead, leadExperiments, taggedWith, VARIANT_FIELD } from '@/lib/experiments/lead';
import { ANSWER_WITHIN_MS, deliverEnquiry, quarantineEnquiry } from './deliver';
import {
  CONTACT_FIELDS,
  EDITION_FIELD,
  HONEYPOT_FIELD,
  RESEND_FIELD,
  TOKEN_FIELD,
  type ContactValues,
} from './fields';
import { answerQaEnquiry, isQaEnquiry } from './qa-enquiry';
import { visitorOf, type Visitor } from './lead/forward';
import { consumeEnquiry } from './rate-limit';
import { isCaptchaShaped } from './rules';
import { contactSchema, fieldErrorsOf } from './schema';
import { checkResend, checkToken, issueResend, issueToken, spendToken } from './signature-store';
import {
  FIRST_TOUCH_COOKIE,
  LAST_TOUCH_COOKIE,
  leadSourceOf,
  type LeadSource,
} from '@/lib/contact/source';
import { spamRule } from './spam-rules';
import type { ContactState } from './state';

const ENQUIRY_FIELDS = [...CONTACT_FIELDS, 'captcha'] as const;
const POSTED_FIELDS: readonly string[] = [
  ...ENQUIRY_FIELDS,
  HONEYPOT_FIELD,
  TOKEN_FIELD,
  EDITION_FIELD,
  VARIANT_FIELD,
  RESEND_FIELD,
];

/**
 * The contact form's Server Action, for the island and for the plain HTML form (React renders the page again from the
 * returned state). The browser is never trusted: the same schema validates again, and every state but `sent` carries
 * the posted values back. A post without a valid signature is asked to confirm before the abuse limit, so that costs
 * nothing and is stored nowhere; one too young is asked again with a new signature, whose wait starts over, so a
 * script that posts each answer back at once never gets through, however many times it loops. Spam is thanked like a
 * person and kept apart; a QA enquiry is thanked and logged, never delivered.
 */
export async function submitContact(
  _previous: ContactState,
  formData: FormData,
): Promise<ContactState> {
  const answerBy = Date.now() + ANSWER_WITHIN_MS;
  const input = readFields(formData);
  if (!input) return { status: 'invalid', fieldErrors: {} };
  // The four visible fields as posted (the captcha token is not the visitor's).
  const values = Object.fromEntries(
    CONTACT_FIELDS.map((field) => [field, input[field] ?? '']),
  ) as ContactValues;
  const requestHeaders = await headers();
  const client = requestClient(requestHeaders);
  const confirmToken = () => issueToken('confirm', client);

  const enquiry: Record<string, string> = Object.fromEntries(
    ENQUIRY_FIELDS.map((field) => [field, input[field] ?? '']),
  );
  // Not the visitor's to fix: a captcha that is no reCAPTCHA token goes as none (the API decides), never refusing a
  // person.
  if (!isCaptchaShaped(enquiry.captcha ?? '')) enquiry.captcha = '';
  const parsed = contactSchema.safeParse(enquiry);
  if (!parsed.success)
    return {
      status: 'invalid',
      fieldErrors: fieldErrorsOf(parsed.error.issues),
      values,
      token: await confirmToken(),
    };

  const trap =
    input[HONEYPOT_FIELD] === undefined
      ? 'honeypot-missing'
      : input[HONEYPOT_FIELD] !== ''
        ? 'honeypot'
        : null;
  let nonce: string | undefined;
  if (!trap) {
    const signature = await checkToken(input[TOKEN_FIELD], client);
    if (signature.verdict !== 'valid')
      return { status: 'confirm', values, token: await confirmToken() };
    nonce = signature.nonce;
  }

  const verdict = await consumeEnquiry(requestHeaders);
  if (!verdict.allowed) {
    console.warn(
      `[contacto] Límite de solicitudes alcanzado; se puede reintentar en ${verdict.retryAfterSeconds} s`,
    );
    return { status: 'failed', reason: 'rate-limited', values, token: await confirmToken() };
  }
  if (nonce && !(await spendToken(nonce)))
    return { status: 'confirm', values, token: await confirmToken() };

  const experiments = await leadExperiments(input[VARIANT_FIELD]);
  const { source, visitor } = await leadContext(requestHeaders).then(taggedWith(experiments));
  const rule = trap ?? spamRule(parsed.data);
  let state: ContactState;
  if (isQaEnquiry(parsed.data))
    state = answerQaEnquiry(rule); // whatever the spam rules said
  else if (rule) state = await quarantineEnquiry(parsed.data, rule, { answerBy, source });
  else {
    // The same words sent again after a failure keep that send's key: the API stores the lead once.
    const key = await checkResend(input[RESEND_FIELD], client, parsed.data);
    if (key) console.info(`[contacto] Reenvío de la solicitud ${key}, con la misma clave`);
    state = await deliverEnquiry(parsed.data, { answerBy, source, visitor, key }).then(
      countedLead(experiments),
    );
    if (state.status === 'failed' && state.resend)
      state = { ...state, resend: await issueResend(state.resend, client, parsed.data) };
  }
  return state.status === 'failed' ? { ...state, values, token: await confirmToken() } : state;
}

/**
 * Where the lead came from (the proxy's cookies, the page that posted) and, only when Meta's Conversions API is
 * configured, what it matches the visitor with. The agency's to know, never the visitor's problem: none on a failure.
 */
async function leadContext(
  requestHeaders: Pick<Headers, 'get'>,
): Promise<{ source?: LeadSource; visitor?: Visitor }> {
  const cookie = await cookies().then(
    (jar) => (name: string) => jar.get(name)?.value,
    () => () => undefined,
  );
  const referer = requestHeaders.get('referer');
  const found = { first: cookie(FIRST_TOUCH_COOKIE), last: cookie(LAST_TOUCH_COOKIE) };
  const source = attempt(() => leadSourceOf(found, referer, Date.now()));
  const visitor = attempt(() => {
    if (!getForwardConfig().capi) return undefined;
    const [ip, userAgent] = [requestAddress(requestHeaders), requestHeaders.get('user-agent')];
    const [fbp, fbc, siteOrigin] = [
      cookie('_fbp'),
      cookie('_fbc'),
      requestHeaders.get('origin') ?? undefined,
    ];
    return visitorOf({ ip, userAgent, fbp, fbc, referer, siteOrigin });
  });
  return { source, visitor };
}

const attempt = <T>(read: () => T): T | undefined => {
  try {
    return read();
  } catch {
    return undefined;
  }
};

/** The posted fields as single strings (a missing one left out), or null if anything else was posted. */
function readFields(formData: FormData): Partial<Record<string, string>> | null {
  if (!(formData instanceof FormData)) return null;
  // React adds its own $ACTION_* entries to forms it renders.
  if (
    [...formData.keys()].some((key) => !key.startsWith('$ACTION') && !POSTED_FIELDS.includes(key))
  )
    return null;
  const input: Partial<Record<string, string>> = {};
  for (const field of POSTED_FIELDS) {
    const [value, ...more] = formData.getAll(field);
    if (value === undefined) continue;
    if (more.length > 0 || typeof value !== 'string') return null;
    input[field] = value;
  }
  return input;
}
