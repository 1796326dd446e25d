/**
 * Posts that Next reads as a Server Action call, held to what it can read. Next answers a malformed one with a 500 and
 * a stack trace in its log: a multipart body it cannot parse (no boundary, cut short), a reply React cannot decode
 * (vercel/next.js#86945), an Origin of another site or none it can parse. The proxy answers each with a short Spanish
 * 4xx instead, before Next reads the body. Plain functions: no next/server, so the tests check them as they are.
 */

/** Next's own test (server-action-request-meta.ts): a POST naming an action, or any multipart POST (a plain form). */
export function isActionPost(method: string, headers: Headers): boolean {
  if (method !== 'POST') return false;
  return (
    headers.has('next-action') ||
    Boolean(headers.get('content-type')?.startsWith('multipart/form-data'))
  );
}

/** What a stranger gets: no page, no detail, never cached. */
export function refusal(status: 400 | 403): Response {
  const text =
    status === 403 ? 'Solicitud no válida: viene de otro sitio.' : 'Solicitud no válida.';
  return new Response(`${text}\n`, {
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
  });
}

/**
 * Next's own Origin check (action-handler.ts), which it ends with a 500: an Origin header, when there is one, must be
 * this host (the first X-Forwarded-Host, else Host). The site sets no serverActions.allowedOrigins; if it ever does,
 * they belong here too.
 */
function fromAnotherSite(headers: Headers): boolean {
  const origin = headers.get('origin');
  if (origin === null) return false;
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host');
  let originHost = 'null';
  if (origin !== 'null') {
    try {
      originHost = new URL(origin).host;
    } catch {
      return true;
    }
  }
  return !host || originHost !== host;
}

// React's reply format: JSON parts whose strings may point at other parts with a `$` tag. Only what this site's own
// forms send is let through: text (escaped as `$$…`), `$undefined`, a form's fields (`$K`, never missing: an empty
// form at worst), and another part of the same body (`$@`, the no-JavaScript form's state) that is itself such JSON.
// An action argument of another type (a Date, a Map, a file) would need its tag here.
const SELF_CONTAINED = /^\$[$uK]/;
const OTHER_PART = /^\$@([0-9a-fA-F]{1,8})$/;

/** Each part of the reply React would decode from part 0, parsed; null when it could not decode them. */
function decodableParts(partOf: (id: string) => string | undefined): Map<string, unknown> | null {
  const parsed = new Map<string, unknown>();
  const parts = ['0'];
  while (parts.length > 0) {
    const id = parts.pop() ?? '0';
    if (parsed.has(id)) continue;
    const text = partOf(id);
    if (text === undefined) return null;
    let root: unknown;
    try {
      root = JSON.parse(text);
    } catch {
      return null;
    }
    parsed.set(id, root);
    // A walk of our own, not recursion: a deeply nested body must not overflow the proxy's stack.
    const values = [root];
    while (values.length > 0) {
      const value = values.pop();
      if (typeof value === 'string') {
        if (!value.startsWith('$') || SELF_CONTAINED.test(value)) continue;
        const part = OTHER_PART.exec(value)?.[1];
        if (part === undefined) return null;
        parts.push(String(Number.parseInt(part, 16)));
      } else if (value !== null && typeof value === 'object') {
        for (const inner of Object.values(value)) values.push(inner);
      }
    }
  }
  return parsed;
}

/** Next applies an action to its arguments, and refuses (with a 500) more than 1,000 (action-handler.ts). */
const MAX_ARGUMENTS = 1000;
const isArgumentList = (value: unknown) => Array.isArray(value) && value.length <= MAX_ARGUMENTS;

/**
 * Whether Next can call an action with the reply whose parts `partOf` gives (undefined: no such part, or not text):
 * the island's call is its list of arguments; a form's bound action (`{ id, bound }`) names the part that holds them.
 */
export function isDecodableReply(
  partOf: (id: string) => string | undefined,
  shape: 'call' | 'bound' = 'call',
): boolean {
  const parts = decodableParts(partOf);
  const root = parts?.get('0');
  if (!parts) return false;
  if (shape === 'call') return isArgumentList(root);
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return false;
  const bound = OTHER_PART.exec(String((root as { bound?: unknown }).bound))?.[1];
  return bound === undefined || isArgumentList(parts.get(String(Number.parseInt(bound, 16))));
}

/** A bound action in a form React rendered: its parts are named `$ACTION_<n>:<part>`. */
const BOUND_ACTION = '$ACTION_REF_';
const textOf = (value: FormDataEntryValue | null) =>
  typeof value === 'string' ? value : undefined;

/** The 4xx for an action post Next would answer with a 500, or null to let it go on. */
export async function actionPostRefusal(
  headers: Headers,
  body: Uint8Array<ArrayBuffer>,
): Promise<Response | null> {
  if (fromAnotherSite(headers)) return refusal(403);
  const type = headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/form-data')) {
    // The island's call of an action whose arguments hold no form: the reply is the body itself.
    const text = new TextDecoder().decode(body);
    return !headers.has('next-action') || isDecodableReply((id) => (id === '0' ? text : undefined))
      ? null
      : refusal(400);
  }
  let form: FormData;
  try {
    form = await new Response(body, { headers: { 'content-type': type } }).formData();
  } catch {
    return refusal(400);
  }
  // The island's call: part 0 of the form. A form posted without JavaScript: each bound action's own parts.
  const replies = headers.has('next-action')
    ? ['']
    : [...form.keys()]
        .filter((key) => key.startsWith(BOUND_ACTION))
        .map((key) => `$ACTION_${key.slice(BOUND_ACTION.length)}:`);
  const sound = replies.every((prefix) =>
    isDecodableReply((id) => textOf(form.get(`${prefix}${id}`)), prefix ? 'bound' : 'call'),
  );
  return sound ? null : refusal(400);
}
