import { CONTACT_FIELDS, FIELD_MAX_CHARS, type ContactValues } from './fields';

/**
 * A form sent without JavaScript from a page of an older deployment names a
 * Server Action the server no longer knows, and Next answers it with a bare
 * "Server Action unavailable." (409). The proxy spots such a post first and
 * hands its values to the retry page, which shows the current form filled in
 * again and asks the visitor to send it once more. Plain functions: the proxy
 * and the retry page share them, and the tests check them.
 */

/** The page that gives a stale form's values back (never linked, never indexed). */
export const RETRY_PATH = '/contacto/reintentar';
/** The request header that carries the values from the proxy to the retry page (never sent to the browser). */
export const VALUES_HEADER = 'x-contacto-valores';

/**
 * The action ids a multipart post names in React's hidden fields:
 * `$ACTION_ID_<id>`, or `$ACTION_REF_<n>` with `{"id": …}` in `$ACTION_<n>:0`.
 */
export function postedActionIds(form: FormData): string[] {
  const ids: string[] = [];
  for (const key of new Set(form.keys())) {
    if (key.startsWith('$ACTION_ID_')) ids.push(key.slice('$ACTION_ID_'.length));
    else if (key.startsWith('$ACTION_REF_')) {
      const id = idOf(form.get(`$ACTION_${key.slice('$ACTION_REF_'.length)}:0`));
      if (id) ids.push(id);
    }
  }
  return ids;
}

/** The same ids as a page of this deployment renders them (hidden inputs, HTML-escaped). */
export function pageActionIds(html: string): string[] {
  const ids: string[] = [];
  for (const match of html.matchAll(/name="\$ACTION_ID_([^"]+)"/g)) ids.push(match[1] as string);
  for (const match of html.matchAll(/name="\$ACTION_\d+:0" value="([^"]*)"/g)) {
    const id = idOf((match[1] as string).replaceAll('&quot;', '"').replaceAll('&amp;', '&'));
    if (id) ids.push(id);
  }
  return ids;
}

function idOf(descriptor: FormDataEntryValue | null): string | null {
  if (typeof descriptor !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(descriptor);
    return typeof parsed === 'object' && parsed !== null && typeof (parsed as { id?: unknown }).id === 'string'
      ? (parsed as { id: string }).id
      : null;
  } catch {
    return null;
  }
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

/** Header values are ASCII: the values travel as base64 of their UTF-8 (a third over, where percent-encoding triples an accent). */
export function encodeValues(values: ContactValues): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(JSON.stringify(values))) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function decodeValues(header: string | null): ContactValues | null {
  if (!header) return null;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(header), (char) => char.charCodeAt(0))));
    if (typeof parsed !== 'object' || parsed === null) return null;
    const record = parsed as Record<string, unknown>;
    return Object.fromEntries(
      CONTACT_FIELDS.map((field) => [field, typeof record[field] === 'string' ? (record[field] as string).slice(0, FIELD_MAX_CHARS[field]) : '']),
    ) as ContactValues;
  } catch {
    return null;
  }
}
