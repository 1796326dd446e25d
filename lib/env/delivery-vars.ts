import { z } from 'zod';
import { alertConfigOf, alertFallbacks, alertShape, type AlertConfig } from './alert-vars';
import { parseEach, type Fallbacks, type Parsed } from './parse-each';
import { optional, type Source } from './public';

export const DEFAULT_BACKOFF_SECONDS: readonly number[] = [60, 300, 900, 3600, 10800];
/** How long an undelivered lead or a suspected spam is kept: the privacy notice says 30 days (lib/content.ts). */
export const DEFAULT_KEEP_DAYS = 30;
const deliveryShape = {
  CONTACT_OUTBOX_BACKOFF_SECONDS: optional(
    z
      .string()
      .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'debe ser una lista de segundos separados por comas, como 60,300,900')
      .transform((list) => list.split(',').map(Number))
      .refine((seconds) => seconds.every((value) => value > 0), 'cada espera debe ser mayor que cero'),
  ),
  CONTACT_KEEP_DAYS: optional(
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?\s*$/, 'debe ser un número de días, como 30')
      .transform(Number)
      .refine((days) => days > 0 && days <= 365, 'debe ser mayor que 0 y a lo más 365'),
  ),
  ...alertShape,
};

const fallbacks: Fallbacks<typeof deliveryShape> = {
  CONTACT_OUTBOX_BACKOFF_SECONDS: `se usan las esperas por omisión (${DEFAULT_BACKOFF_SECONDS.join(', ')} s)`,
  CONTACT_KEEP_DAYS: `se usan ${DEFAULT_KEEP_DAYS} días, los del aviso de privacidad`,
  ...alertFallbacks,
};

/** How the lead's workflow retries (lib/contact/lead/workflow.ts), and whom it tells. */
export type DeliveryConfig = {
  /** Wait before redelivery n, in seconds (the last value repeats). */
  backoffSeconds: readonly number[];
  /** Dead letters and suspected spam are forgotten this long after they end (ms); a delivered lead at once. */
  keepMs: number;
  /** E-mail to the agency when an enquiry goes pending or dead; unset: no alerts. */
  alert?: AlertConfig;
  /** Set when some alert variables are there but not all: said at start-up. */
  alertProblem?: string;
};

export function parseDeliveryConfig(source: Source): Parsed<DeliveryConfig> {
  const { env, problems } = parseEach(deliveryShape, source, fallbacks);
  const { alert, alertProblem } = alertConfigOf(env, problems);
  const keepMs = Math.round((env.CONTACT_KEEP_DAYS ?? DEFAULT_KEEP_DAYS) * 24 * 60 * 60 * 1000);
  return {
    config: {
      backoffSeconds: env.CONTACT_OUTBOX_BACKOFF_SECONDS ?? DEFAULT_BACKOFF_SECONDS,
      keepMs,
      alert,
      alertProblem,
    },
    problems,
  };
}
