import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { MIN_FILL_MS, TOKEN_PATH } from '@/lib/contact/fields';

/** A signature this old is fetched again before a send (the server takes them for 2 hours). */
const REFRESH_AFTER_MS = 60 * 60 * 1000;
/** A token request that takes longer is given up: the server then asks to confirm, which the island does itself. */
const FETCH_TIMEOUT_MS = 4000;
/** Two instances' clocks may differ a little: wait this much past the threshold. */
const MARGIN_MS = 250;

type Held = { token: string; at: number };

const wait = (ms: number) => new Promise<null>((resolve) => setTimeout(() => resolve(null), ms));

async function fetchToken(): Promise<Held | null> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), FETCH_TIMEOUT_MS);
  try {
    const response = await fetch(TOKEN_PATH, { cache: 'no-store', signal: controller.signal });
    const body: unknown = response.ok ? await response.json() : null;
    const token = (body as { token?: unknown } | null)?.token;
    // Timed from the answer: the server signed no later than that, so a wait measured from here is never short.
    return typeof token === 'string' ? { token, at: performance.now() } : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The server's signature of when the form came on screen (the spam filter's
 * time check): fetched once the form is first seen, so the static page asks
 * nothing of the server until then. `ready()` resolves to it once it is
 * MIN_FILL_MS old, waiting silently for the rest, or to '' when none could
 * be had (the server then answers with one to confirm with).
 */
export function useFormToken(formRef: RefObject<HTMLFormElement | null>): () => Promise<string> {
  const held = useRef<Promise<Held | null> | null>(null);
  const request = useCallback(() => (held.current = fetchToken()), []);

  useEffect(() => {
    const form = formRef.current;
    if (!form || held.current) return;
    if (typeof IntersectionObserver === 'undefined') {
      request();
      return;
    }
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      if (!held.current) request();
    });
    observer.observe(form);
    return () => observer.disconnect();
  }, [formRef, request]);

  return useCallback(async () => {
    let current = await (held.current ?? request());
    if (!current || performance.now() - current.at > REFRESH_AFTER_MS) current = await request();
    if (!current) return '';
    const left = current.at + MIN_FILL_MS + MARGIN_MS - performance.now();
    if (left > 0) await wait(left);
    return current.token;
  }, [request]);
}
