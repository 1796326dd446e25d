import { formEdition } from '../env/public';
import {
  CONTACT_FIELDS,
  EDITION_FIELD,
  FIELD_MAX_CHARS,
  type ContactValues,
} from '../contact/fields';

/**
 * A form sent without JavaScript from a page of an older deployment names a
 * Server Action the server no longer knows, and Next answers it with a bare
 * "Server Action unavailable." (409). Each build stamps its form with an
 * edition of its own (EDITION_FIELD, a hidden input; next.config.ts makes
 * one per build); the proxy, built with the same stamp, sees an older
 * edition on a post and hands its values to the retry page, which shows the
 * current form filled in again. No framework internals are read: only the
 * form's own fields. On Vercel, Skew Protection serves an old page's post
 * from its own deployment first. Plain functions: the proxy and the retry
 * page share them, and the tests check them.
 */

/** The page that gives a stale form's values back (never linked, never indexed). */
export const RETRY_PATH = '/contacto/reintentar';
/** The request header that carries the values from the proxy to the retry page (never sent to the browser). */
export const VALUES_HEADER = 'x-contacto-valores';

/** Whether a posted form comes from another build's page: its edition is there and is not this build's. */
export function isOtherEdition(form: FormData, edition = formEdition): boolean {
  const posted = form.get(EDITION_FIELD);
  return typeof posted === 'string' && posted !== '' && edition !== '' && posted !== edition;
}

/** The four visible fields of a post (anything else, the captcha included, is left out). */
export function postedValues(form: FormData): ContactValues {
  return Object.fromEntries(
    CONTACT_FIELDS.map((field) => {
      const value = form.get(field);
      return [field, typeof value === 'string' ? value.slice(0, FIELD_MAX_CHARS[field]) : ''];
    }),
  ) as ContactValues;
}

/**
 * Header values are ASCII: the values travel as base64 of their UTF-8 (a third over, where percent-encoding triples an
 * accent).
 */
export function encodeValues(values: ContactValues): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(values)))
    binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeValues(header: string | null): ContactValues | null {
  if (!header) return null;
  try {
    const parsed: unknown = JSON.parse(
      new TextDecoder().decode(Uint8Array.from(atob(header), (char) => char.charCodeAt(0))),
    );
    if (typeof parsed !== 'object' || parsed === null) return null;
    const record = parsed as Record<string, unknown>;
    return Object.fromEntries(
      CONTACT_FIELDS.map((field) => [
        field,
        typeof record[field] === 'string'
          ? (record[field] as string).slice(0, FIELD_MAX_CHARS[field])
          : '',
      ]),
    ) as ContactValues;
  } catch {
    return null;
  }
}
