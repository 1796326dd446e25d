import type { APIRequestContext } from '@playwright/test';

/**
 * The contact form as a program sees it: read from the server HTML and posted
 * as multipart, the way the browser posts it without JavaScript. The bot tests
 * and the tests of many visitors behind a proxy both use it.
 */

export type Control = { tag: 'input' | 'textarea'; type: string; name: string; value: string };

const ENTITIES: Record<string, string> = {
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
  '&amp;': '&',
};
const decode = (text: string) =>
  text.replace(/&(?:quot|#x27|#39|lt|gt|amp);/g, (entity) => ENTITIES[entity] ?? entity);

function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const [, name, value] of tag.matchAll(/\s([^\s="'>/]+)(?:="([^"]*)")?/g))
    found[(name as string).toLowerCase()] = decode(value ?? '');
  return found;
}

/** Every named control of the contact form in a page's HTML, with the value it was served with. */
export function formControls(html: string): Control[] {
  const start = html.indexOf('<form', html.indexOf('id="contacto"'));
  const form = html.slice(start, html.indexOf('</form>', start));
  if (start < 0 || !form) throw new Error('no contact form in the page');
  const controls: Control[] = [];
  for (const match of form.matchAll(/<(input|textarea)\b([^>]*)>(?:([^<]*)<\/textarea>)?/g)) {
    const tag = match[1] as 'input' | 'textarea';
    const attrs = attributes(` ${match[2]}`);
    if (!attrs.name) continue;
    controls.push({
      tag,
      type: tag === 'textarea' ? 'textarea' : (attrs.type ?? 'text'),
      name: attrs.name,
      value: tag === 'textarea' ? decode(match[3] ?? '') : (attrs.value ?? ''),
    });
  }
  return controls;
}

/**
 * How long a person takes to read "Para confirmar el envío…" and press again: a second or two.
 * The server holds a confirmation to that pace (CONFIRM_MIN_MS, 1.5 s); a program that posts the
 * answer back at once is asked again.
 */
export const READ_AGAIN_MS = 2000;
export const readAgain = () => new Promise<void>((resolve) => setTimeout(resolve, READ_AGAIN_MS));

/**
 * How long a person takes to read the page and write four fields before the first «Enviar»: a few
 * seconds at the least. Without JavaScript the served form carries no signature, so the pace does
 * not change the first answer; a test that plays a person keeps it anyway.
 */
export const READ_AND_WRITE_MS = 3000;
export const readAndWrite = () =>
  new Promise<void>((resolve) => setTimeout(resolve, READ_AND_WRITE_MS));

export type Answer = {
  status: number;
  html: string;
  kind: 'thanks' | 'confirm' | 'rate-limited' | 'other';
};

export function answerKind(html: string): Answer['kind'] {
  if (/Gracias por contactarnos/.test(html)) return 'thanks';
  if (/Para confirmar el envío/.test(html)) return 'confirm';
  if (/varias solicitudes desde tu conexión/.test(html)) return 'rate-limited';
  return 'other';
}

/** Posts these fields to `/` as the browser's own multipart form post (Origin as a browser sends it). */
export async function postForm(
  request: APIRequestContext,
  baseURL: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await request.post(`${baseURL}/`, {
    multipart: fields,
    headers: { origin: new URL(baseURL).origin, ...headers },
    maxRedirects: 0,
  });
  const html = await response.text();
  return { status: response.status(), html, kind: answerKind(html) };
}

/** The served controls as a post body, with `values` written over them. */
export const bodyOf = (controls: Control[], values: Record<string, string>) =>
  Object.fromEntries(
    controls.map((control) => [control.name, values[control.name] ?? control.value]),
  );

/**
 * A person without JavaScript: loads the page, reads it and fills the four
 * fields, sends, and presses once more when asked to confirm. Returns the last
 * answer, and the page as it was first served (`served`).
 */
export async function sendAsPersonWithoutScripts(
  request: APIRequestContext,
  baseURL: string,
  values: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer & { served: string }> {
  const served = await (await request.get(`${baseURL}/`, { headers })).text();
  await readAndWrite();
  let answer = await postForm(request, baseURL, bodyOf(formControls(served), values), headers);
  // The answer page is the same form with every value kept and the server's signature: the second press, once read.
  if (answer.kind === 'confirm') await readAgain();
  if (answer.kind === 'confirm')
    answer = await postForm(request, baseURL, bodyOf(formControls(answer.html), {}), headers);
  return { ...answer, served };
}
