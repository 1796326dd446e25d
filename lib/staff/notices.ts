import type { ReleaseResult } from '@/lib/staff/leads/release';
import { RELEASE_SAID } from '@/lib/staff/leads/words';

// What the staff page says after an act travels in its address as a code and a lead's key, never as text: anyone can
// write an address and send it to a signed-in staff member, and the page must speak only the site's own words.

/** A lead's key as the site makes them (randomUUID): nothing else is shown back. */
export const LEAD_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Entregar's answer, as its code in the address. */
export const RELEASE_NOTICES: Record<ReleaseResult['result'], string> = {
  released: 'liberada',
  'server-down': 'sin-motor',
  unknown: 'no-existe',
  'not-spam': 'no-es-spam',
  'not-waiting-yet': 'aun-no-espera',
  expired: 'caducada',
  'already-released': 'ya-liberada',
};

const SAID = new Map<string, (key: string) => string>([
  [RELEASE_NOTICES.released, (key) => `Solicitud ${key} liberada: se entrega como cualquier otra.`],
  [
    RELEASE_NOTICES['server-down'],
    (key) => `Solicitud ${key}: el motor de entregas no responde; inténtalo en un momento.`,
  ],
  ...Object.entries(RELEASE_SAID).map(([result, said]): [string, (key: string) => string] => [
    RELEASE_NOTICES[result as keyof typeof RELEASE_SAID],
    (key) => `Solicitud ${key}: ${said}`,
  ]),
]);

/** Where Entregar sends the staff member back to, saying how it went. */
export const releaseNoticeUrl = (result: ReleaseResult['result'], key: string) =>
  `/equipo?lista=spam&aviso=${RELEASE_NOTICES[result]}&clave=${key}`;

/**
 * The page's words for a code and a key from its address; nothing for a code it does not know or a key that is
 * none.
 */
export function noticeText(code: string | undefined, key: string | undefined): string | undefined {
  const say = code ? SAID.get(code) : undefined;
  return say && key && LEAD_KEY.test(key) ? say(key) : undefined;
}
