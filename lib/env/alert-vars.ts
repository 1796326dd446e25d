import { z } from 'zod';
import type { EnvProblem, Fallbacks } from './parse-each';
import { optional } from './public';

const mailAddress = /^[^\s@<>,]+@[^\s@<>,]+\.[^\s@<>,]+$/;
/** `avisos@agencia.mx` or `Formulario <avisos@agencia.mx>`. */
const isMailbox = (text: string) => mailAddress.test(text.trim().match(/<([^<>]*)>$/)?.[1] ?? text.trim());

/** The e-mail alerts about leads: parsed with the lead workflow's variables (delivery-vars.ts). */
export const alertShape = {
  ALERT_SMTP_URL: optional(z.url({ protocol: /^smtps?$/, message: 'debe ser una URL smtp:// o smtps://' })),
  ALERT_EMAIL_TO: optional(
    z
      .string()
      .refine(
        (list) => list.split(',').every(isMailbox),
        'debe ser una dirección de correo, o varias separadas por comas',
      ),
  ),
  ALERT_EMAIL_FROM: optional(
    z.string().refine(isMailbox, 'debe ser un correo, como avisos@agencia.mx o Formulario <avisos@agencia.mx>'),
  ),
};

export const alertFallbacks: Fallbacks<typeof alertShape> = {
  ALERT_SMTP_URL: 'avisos por correo desactivados',
  ALERT_EMAIL_TO: 'avisos por correo desactivados',
  ALERT_EMAIL_FROM: 'avisos por correo desactivados',
};

export type AlertConfig = { smtpUrl: string; to: string; from: string };

/**
 * The alerts' configuration when all three variables are there; otherwise none, and a
 * problem to say at start-up when some are there but not all.
 */
export function alertConfigOf(
  env: { ALERT_SMTP_URL?: string; ALERT_EMAIL_TO?: string; ALERT_EMAIL_FROM?: string },
  problems: readonly EnvProblem[],
): { alert?: AlertConfig; alertProblem?: string } {
  const { ALERT_SMTP_URL: smtpUrl, ALERT_EMAIL_TO: to, ALERT_EMAIL_FROM: from } = env;
  if (smtpUrl && to && from) return { alert: { smtpUrl, to, from } };
  // A malformed one is already reported on its own.
  const malformed = problems.some((problem) => problem.variable.startsWith('ALERT_'));
  if (malformed || ![smtpUrl, to, from].some(Boolean)) return {};
  return { alertProblem: 'ALERT_SMTP_URL, ALERT_EMAIL_TO y ALERT_EMAIL_FROM van juntas: falta al menos una.' };
}
