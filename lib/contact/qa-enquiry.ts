import 'server-only';
import { randomUUID } from 'node:crypto';
import { getContactConfig } from '@/lib/env/server';
import type { ContactEnquiry } from './schema';
import type { ContactState } from './state';

/**
 * A QA enquiry: its address is at the reserved `.invalid` domain (RFC 2606),
 * which can never receive mail, so no client ever writes one. The QA suite
 * (npm run test:deployment) sends them to deployments. Anyone can mark their
 * own enquiry this way, and all it does is keep it from being delivered.
 */
export function isQaEnquiry(enquiry: Pick<ContactEnquiry, 'mail'>): boolean {
  const domain = enquiry.mail.slice(enquiry.mail.lastIndexOf('@') + 1);
  return /(^|\.)invalid\.?$/i.test(domain);
}

/**
 * Takes the place of delivery once a QA enquiry has run every check a
 * visitor's runs (validation, the form's signature, the abuse limit, the spam
 * rules): it reads the contact settings as delivery would, so a deployment
 * that could not deliver answers QA as it would a visitor; otherwise the same
 * thanks, with no key (nothing to convert). Never delivered, stored, alerted
 * or kept as spam: one log line, with the spam rules' verdict and nothing
 * that was typed.
 */
export function answerQaEnquiry(spamVerdict: string | null): ContactState {
  const id = randomUUID();
  const config = getContactConfig();
  if (config.mode === 'misconfigured') {
    console.error(`[contacto] Solicitud de prueba (QA, dirección .invalid) ${id} no atendida: ${config.problem}`);
    return { status: 'failed' };
  }
  const filter = spamVerdict ? `el filtro de spam la habría apartado (${spamVerdict})` : 'pasó el filtro de spam';
  const destination = config.mode === 'api' ? 'la API de contacto' : 'la bandeja local';
  console.info(`[contacto] Solicitud de prueba (QA, dirección .invalid) ${id}: ${filter}; no se envía a ${destination}, ni se avisa ni se convierte`);
  return { status: 'sent' };
}
