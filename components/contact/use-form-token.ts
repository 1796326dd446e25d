import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { MIN_FILL_MS, TOKEN_PATH } from '@/lib/contact/fields';

/** A token request that takes longer is given up: the server then asks to confirm, which the island does itself. */
const FETCH_TIMEOUT_MS = 4000;
/** Two instances' clocks may differ a little: wait this much past the threshold. */
const MARGIN_MS = 250;

type Held = { token: string; at: number };

async function fetchToken(): Promise<Held | null> {
  try {
    // (A browser without AbortSignal.timeout throws here: no signature, and the server asks to confirm.)
    const response = await fetch(TOKEN_PATH, {
      cache: 'no-store',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    const { token } = (await response.json()) as { token?: unknown };
    // Timed from the answer: the server signed no later than that, so a wait measured from here is never short.
    return typeof token === 'string' ? { token, at: performance.now() } : null;
  } catch {
    return null;
  }
}

/**
 * The server's signature of when the form came on screen (the spam filter's
 * time check): fetched once the form is first seen, so the static page asks
 * nothing of the server until then. `ready()` resolves to it once it is
 * MIN_FILL_MS old, waiting silently for the rest, or to '' when none could be
 * had. A signature that is missing, refused or too old by the time of the send
 * is answered with one to confirm with, which the form then sends by itself.
 */
export function useFormToken(formRef: RefObject<HTMLFormElement | null>): () => Promise<string> {
  const held = useRef<Promise<Held | null> | null>(null);

  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      held.current ??= fetchToken();
    });
    observer.observe(form);
    return () => observer.disconnect();
  }, [formRef]);

  return useCallback(async () => {
    // Not seen yet (or the first request failed): asked now, and waited for in full.
    const current = (await held.current) ?? (await (held.current = fetchToken()));
    if (!current) return '';
    const left = current.at + MIN_FILL_MS + MARGIN_MS - performance.now();
    if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
    return current.token;
  }, []);
}
