import 'server-only';
import { randomUUID } from 'node:crypto';
import { getContactConfig } from '@/lib/env/server';
import type { ContactEnquiry } from './schema';
import type { ContactState } from './state';

// An address at the reserved `.invalid` domain (RFC 2606) never receives mail, so no client writes one; the QA suite
// (npm run test:deployment) does. Anyone can mark their own enquiry this way: that only keeps it undelivered.
export function isQaEnquiry(enquiry: Pick<ContactEnquiry, 'mail'>): boolean {
  return /(^|\.)invalid\.?$/i.test(enquiry.mail.slice(enquiry.mail.lastIndexOf('@') + 1));
}

// Delivery's stand-in after every check a visitor's enquiry runs: a deployment that could not deliver answers QA as it
// would a visitor, else thanks with no key (nothing to convert). Only one log line, with nothing that was typed.
export function answerQaEnquiry(spamVerdict: string | null): ContactState {
  const qa = `[contacto] Solicitud de prueba (QA, dirección .invalid) ${randomUUID()}`;
  const config = getContactConfig();
  if (config.mode === 'misconfigured') {
    console.error(`${qa} no atendida: ${config.problem}`);
    return { status: 'failed' };
  }
  const filter = spamVerdict
    ? `el filtro de spam la habría apartado (${spamVerdict})`
    : 'pasó el filtro de spam';
  const destination = config.mode === 'api' ? 'la API de contacto' : 'la bandeja local';
  console.info(`${qa}: ${filter}; no se envía a ${destination}, ni se avisa ni se convierte`);
  return { status: 'sent' };
}
