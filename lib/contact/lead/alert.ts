import 'server-only';
import type { AlertConfig } from '@/lib/env/server';
import { sendMail } from '@/lib/server/mail';
import {
  alertMessage,
  digestMessage,
  KIND_WORDS,
  type AlertKind,
  type DeadDetail,
} from './alert-message';
import type { Lead } from './lead';

/** A busy day's outage gives the agency the first leads one by one, then one digest, not a flood. */
export const ALERTS_PER_HOUR = 20;
const HOUR_MS = 60 * 60 * 1000;

/** The hour begun by its first e-mail (a clock set back begins a new one), and the keys a digest covers. */
type AlertWindow = {
  startedAt: number;
  sent: number;
  heldKeys: string[];
  digest?: Promise<boolean>;
};
let alertWindow: AlertWindow = { startedAt: 0, sent: 0, heldKeys: [] };
const isOver = (window: AlertWindow, now: number) =>
  now - window.startedAt >= HOUR_MS || now < window.startedAt;

// The agency's one e-mail about a lead (pending, so a person calls within minutes, or dead); true once told, by it or
// the digest. Logs carry the key only.
export async function sendLeadAlert(
  kind: AlertKind,
  lead: Lead,
  detail: DeadDetail,
  config: AlertConfig,
  now = Date.now(),
): Promise<boolean> {
  if (isOver(alertWindow, now)) alertWindow = { startedAt: now, sent: 0, heldKeys: [] };
  const window = alertWindow;
  if (window.sent < ALERTS_PER_HOUR) {
    // Counted before the send, which awaits: concurrent alerts never pass the limit; given back if it fails.
    window.sent += 1;
    const outcome = await sendMail(config, alertMessage(kind, lead, detail, now));
    if (outcome.sent) {
      console.info(`[contacto] Aviso por correo (${KIND_WORDS[kind]}) enviado: ${lead.key}`);
      return true;
    }
    window.sent -= 1;
    console.error(
      `[contacto] No se pudo enviar el aviso por correo de ${lead.key} (${outcome.why}); se reintentará`,
    );
    return false;
  }
  if (!window.digest && !window.heldKeys.includes(lead.key)) window.heldKeys.push(lead.key);
  // Alerts held back while the digest is on its way wait for it: none counts as told unless it went out.
  window.digest ??= sendDigest(config, window);
  if (!(await window.digest)) {
    window.digest = undefined;
    return false;
  }
  console.warn(
    `[contacto] Aviso de ${lead.key} (${KIND_WORDS[kind]}) no enviado por el límite por hora; npm run leads -- ` +
      `pending la lista`,
  );
  return true;
}

async function sendDigest(config: AlertConfig, window: AlertWindow): Promise<boolean> {
  const outcome = await sendMail(
    config,
    digestMessage(window.heldKeys, window.startedAt + HOUR_MS, ALERTS_PER_HOUR),
  );
  if (outcome.sent)
    console.warn(
      `[contacto] Límite de ${ALERTS_PER_HOUR} avisos por hora alcanzado: enviado un solo aviso de resumen`,
    );
  else
    console.error(
      `[contacto] No se pudo enviar el aviso de límite por correo (${outcome.why}); se reintentará`,
    );
  return outcome.sent;
}
