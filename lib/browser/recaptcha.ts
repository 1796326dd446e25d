import { errorName } from '../server/error-name';

/**
 * Invisible reCAPTCHA v3, loaded on demand: the script is added only when the
 * visitor submits, never at page load.
 */

type Grecaptcha = {
  ready: (callback: () => void) => void;
  execute: (siteKey: string, options: { action: string }) => Promise<string>;
};

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

export const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js';

let loading: Promise<Grecaptcha> | undefined;

function loadRecaptcha(siteKey: string): Promise<Grecaptcha> {
  loading ??= new Promise<Grecaptcha>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${RECAPTCHA_SCRIPT}?render=${encodeURIComponent(siteKey)}`;
    script.async = true;
    script.onload = () => {
      const grecaptcha = window.grecaptcha;
      if (grecaptcha) grecaptcha.ready(() => resolve(grecaptcha));
      else reject(new Error('reCAPTCHA no se inicializó'));
    };
    script.onerror = () => reject(new Error('No se pudo cargar reCAPTCHA'));
    document.head.append(script);
  }).catch((error: unknown) => {
    loading = undefined; // let the next submit try again
    throw error;
  });
  return loading;
}

/**
 * A token for `action`, or '' when reCAPTCHA cannot be reached in time: the
 * enquiry still goes out and the contact API decides, rather than the visitor
 * being stuck behind a blocked script.
 */
export async function getRecaptchaToken(
  siteKey: string,
  action: string,
  timeoutMs = 8000,
): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('reCAPTCHA tardó demasiado')), timeoutMs);
  });
  try {
    const grecaptcha = await Promise.race([loadRecaptcha(siteKey), timeout]);
    return await Promise.race([grecaptcha.execute(siteKey, { action }), timeout]);
  } catch (error) {
    console.warn(`[contacto] Envío sin token de reCAPTCHA (${errorName(error)})`);
    return '';
  } finally {
    clearTimeout(timer);
  }
}
