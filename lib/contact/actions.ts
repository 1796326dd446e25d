'use server';

import { headers } from 'next/headers';
import { deliverEnquiry } from './deliver';
import { consumeEnquiry } from './rate-limit';
import { CONTACT_FIELDS, type ContactValues } from './fields';
import { contactSchema, fieldErrorsOf } from './schema';
import type { ContactState } from './state';

const FIELDS = ['name', 'mail', 'phone', 'reason', 'captcha'] as const;

/**
 * The contact form's Server Action, for the form sent by the island and for
 * the plain HTML form sent before (or without) JavaScript: React renders the
 * page again from the state returned here. The browser is never trusted: the
 * same schema as the form validates again here, and invalid input goes
 * nowhere. Every state but `sent` carries the posted values back, so no
 * answer page ever loses what the visitor typed.
 */
export async function submitContact(_previous: ContactState, formData: FormData): Promise<ContactState> {
  const input = readFields(formData);
  if (!input) return { status: 'invalid', fieldErrors: {} };
  const values = typedValues(input);

  const parsed = contactSchema.safeParse(input);
  if (!parsed.success) return { status: 'invalid', fieldErrors: fieldErrorsOf(parsed.error.issues), values };

  const verdict = await consumeEnquiry(await headers());
  if (!verdict.allowed) {
    console.warn(`[contacto] Límite de solicitudes alcanzado; se puede reintentar en ${verdict.retryAfterSeconds} s`);
    return { status: 'failed', reason: 'rate-limited', values };
  }

  const state = await deliverEnquiry(parsed.data);
  return state.status === 'failed' ? { ...state, values } : state;
}

/** The four visible fields as posted (the captcha token is not the visitor's). */
function typedValues(input: Record<string, string>): ContactValues {
  return Object.fromEntries(CONTACT_FIELDS.map((field) => [field, input[field] ?? ''])) as ContactValues;
}

/** The five fields as single strings, or null if anything else was posted. */
function readFields(formData: FormData): Record<string, string> | null {
  if (!(formData instanceof FormData)) return null;
  for (const key of new Set(formData.keys())) {
    // React adds its own $ACTION_* entries to forms it renders.
    if (!key.startsWith('$ACTION') && !(FIELDS as readonly string[]).includes(key)) return null;
  }
  const input: Record<string, string> = {};
  for (const field of FIELDS) {
    const values = formData.getAll(field);
    const value = values[0] ?? '';
    if (values.length > 1 || typeof value !== 'string') return null;
    input[field] = value;
  }
  return input;
}
