// The load and chaos harness's own requests (the stub's records, its switches, the page and its
// signatures): bounded in time and retried, so that a busy machine, or a keep-alive socket the
// server closed as it was reused, is not mistaken for a broken product; and named when they fail
// for good, so the failure says which request and how. The enquiries under test are never retried.

const TRIES = 3;
const TIMEOUT_MS = 5000;

export type HarnessAnswer = { status: number; text: string };

/** The socket's error code and message when fetch names them (UND_ERR_SOCKET: other side closed), else the error's own. */
function describe(error: unknown): string {
  // Read by shape: an error from another realm (Jest's) is no instanceof Error here.
  const { name, message, cause } = (error ?? {}) as {
    name?: unknown;
    message?: unknown;
    cause?: { code?: unknown; message?: unknown };
  };
  if (typeof message !== 'string') return String(error);
  const detail = [cause?.code, cause?.message]
    .filter((part) => typeof part === 'string')
    .join(': ');
  return detail ? `${message} (${detail})` : `${String(name)}: ${message}`;
}

/**
 * `init` sent to `url`, its whole answer read, up to 3 times, 5 s each. Only a request that is
 * safe to send twice belongs here. Throws, naming `what`, the method and the address, and the last error.
 */
export async function harnessRequest(
  what: string,
  url: string | URL,
  init: RequestInit = {},
): Promise<HarnessAnswer> {
  let last: unknown;
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
      return { status: response.status, text: await response.text() };
    } catch (error) {
      last = error;
      if (attempt < TRIES) await new Promise((resolve) => setTimeout(resolve, 300 * attempt));
    }
  }
  throw new Error(
    `${what}: ${init.method ?? 'GET'} ${String(url)} failed ${TRIES} times, ${TIMEOUT_MS / 1000} s each; last: ${describe(last)}`,
  );
}

/** The same, for a JSON answer. */
export async function harnessJson<T>(
  what: string,
  url: string | URL,
  init: RequestInit = {},
): Promise<T> {
  const { status, text } = await harnessRequest(what, url, init);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(
      `${what}: ${init.method ?? 'GET'} ${String(url)} answered ${status}, not JSON: ${text.slice(0, 120)}`,
    );
  }
}
