import { z } from 'zod';
import type { EnvProblem, Parsed } from './parse-each';
import { formatIssues, httpUrl, optional, withDefault, type Source } from './public';

/* ---------- The contact API (required together, or not at all) ---------- */

const contactSchema = z.object({
  CONTACT_API_BASE_URL: optional(httpUrl),
  CONTACT_SITE_KEY: optional(z.string()),
  CONTACT_INBOX_DIR: withDefault(z.string(), '.inbox'),
  VERCEL: optional(z.string()),
});

/**
 * Where enquiries go: the contact API; a local file inbox when no API is
 * configured (a fresh clone); or nowhere, reported as an error, when the
 * configuration is wrong (never a silent success).
 */
export type ContactConfig =
  | { mode: 'api'; baseUrl: string; siteKey: string }
  | { mode: 'inbox'; dir: string }
  | { mode: 'misconfigured'; problem: string };

const SITE_KEY_MISSING = 'está vacía, y es obligatoria cuando CONTACT_API_BASE_URL está definida';
const NO_FORM = 'el formulario muestra un error a cada visitante';

export function parseContactConfig(source: Source): ContactConfig {
  const result = contactSchema.safeParse(source);
  if (!result.success) {
    return { mode: 'misconfigured', problem: `Variables de entorno inválidas:\n${formatIssues(result.error)}` };
  }
  const env = result.data;
  if (env.CONTACT_API_BASE_URL) {
    if (!env.CONTACT_SITE_KEY) {
      return { mode: 'misconfigured', problem: 'CONTACT_API_BASE_URL está definida pero CONTACT_SITE_KEY está vacía.' };
    }
    // The API base ends in /api/; a missing final slash would drop that segment.
    const baseUrl = env.CONTACT_API_BASE_URL.endsWith('/') ? env.CONTACT_API_BASE_URL : `${env.CONTACT_API_BASE_URL}/`;
    return { mode: 'api', baseUrl, siteKey: env.CONTACT_SITE_KEY };
  }
  if (env.VERCEL === '1') {
    return {
      mode: 'misconfigured',
      problem: 'CONTACT_API_BASE_URL está vacía en Vercel: las solicitudes de contacto no se pueden entregar.',
    };
  }
  return { mode: 'inbox', dir: env.CONTACT_INBOX_DIR };
}

/** The contact API's malformed variables, which the form cannot do without. */
export function contactProblems(source: Source): EnvProblem[] {
  const contact = contactSchema.safeParse(source);
  if (!contact.success) {
    return contact.error.issues.map((issue) => ({
      variable: issue.path.join('.'),
      message: issue.message,
      fallback: NO_FORM,
    }));
  }
  if (contact.data.CONTACT_API_BASE_URL && !contact.data.CONTACT_SITE_KEY) {
    return [{ variable: 'CONTACT_SITE_KEY', message: SITE_KEY_MISSING, fallback: NO_FORM }];
  }
  return [];
}

/* ---------- The form's signing secret ---------- */

const FORM_SECRET_MIN = 32;

/**
 * CONTACT_FORM_SECRET signs the form's time on screen (lib/contact/form-token.ts): at least
 * 32 characters. Malformed or unset: a random key, shared through the deployment's store
 * when it has one (lib/contact/signature-store.ts).
 */
export function parseFormSecret(source: Source): Parsed<string | undefined> {
  const value = source.CONTACT_FORM_SECRET?.trim();
  if (!value) return { config: undefined, problems: [] };
  if (value.length >= FORM_SECRET_MIN) return { config: value, problems: [] };
  return {
    config: undefined,
    problems: [
      {
        variable: 'CONTACT_FORM_SECRET',
        message: `debe tener al menos ${FORM_SECRET_MIN} caracteres (openssl rand -base64 32)`,
        fallback: 'la firma del formulario usa una clave aleatoria (compartida en Redis o PostgreSQL si los hay)',
      },
    ],
  };
}
