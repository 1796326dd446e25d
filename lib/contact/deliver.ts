import 'server-only';
import { randomUUID } from 'node:crypto';
import { getContactConfig } from '@/lib/env/server';
import { saveToInbox } from './inbox';
import type { ContactEnquiry } from './schema';
import type { ContactState } from './state';
import { postEnquiry } from './upstream';

/**
 * Sends a valid enquiry where the configuration says, and turns the outcome
 * into the state the form renders. Logs say what happened without any of the
 * visitor's personal data.
 */
export async function deliverEnquiry(enquiry: ContactEnquiry): Promise<ContactState> {
  const config = getContactConfig();
  // One key for every attempt of this submission: the API never stores a retry twice.
  const idempotencyKey = randomUUID();

  if (config.mode === 'misconfigured') {
    console.error(`[contacto] Solicitud no entregada (${idempotencyKey}): ${config.problem}`);
    return { status: 'failed' };
  }

  if (config.mode === 'inbox') {
    try {
      const file = await saveToInbox(enquiry, config.dir, idempotencyKey);
      console.info(`[contacto] Sin CONTACT_API_BASE_URL: solicitud ${idempotencyKey} guardada en la bandeja local ${file}`);
      return { status: 'sent', key: idempotencyKey };
    } catch (error) {
      console.error(`[contacto] No se pudo guardar la solicitud ${idempotencyKey} en la bandeja local:`, errorName(error));
      return { status: 'failed' };
    }
  }

  const started = Date.now();
  const report = await postEnquiry(enquiry, {
    baseUrl: config.baseUrl,
    siteKey: config.siteKey,
    idempotencyKey,
  });
  const summary = `${idempotencyKey}: ${report.attempts} intento(s) en ${Date.now() - started} ms`;

  switch (report.result.outcome) {
    case 'accepted':
      if (report.failures.length) console.warn(`[contacto] Entregada tras fallos (${report.failures.join(', ')}) ${summary}`);
      return { status: 'sent', key: idempotencyKey };
    case 'rejected':
      console.warn(`[contacto] La API rechazó la solicitud ${summary}`);
      return { status: 'failed', mes: report.result.mes };
    case 'unavailable':
      console.error(`[contacto] Solicitud no entregada, la API no respondió bien (${report.failures.join(', ')}) ${summary}`);
      return { status: 'failed' };
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${(error as NodeJS.ErrnoException).code ?? ''}` : 'desconocido';
}
