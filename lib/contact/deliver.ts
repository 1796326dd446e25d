import 'server-only';
import { randomUUID } from 'node:crypto';
import { getContactConfig, getOutboxConfig, type AlertConfig } from '@/lib/env/server';
import { errorName } from '@/lib/error-name';
import { TimedOutError, withTimeout } from '@/lib/with-timeout';
import { afterAnswer, alertOutboxFull, redeliverOthers, retryOnceInBackground, settled } from './after-answer';
import { contactApiBreaker } from './breaker';
import { saveToInbox } from './inbox';
import { sendSpamNotice } from './outbox/alert';
import type { OutboxEntry } from './outbox/entry';
import { getOutbox, type Outbox } from './outbox/outbox';
import { AFTER_ENDS_BY_MS, LIVE_DEADLINE_MS, maxRetryAfterMs, newEntry, spamEntry, STORE_WAIT_MS } from './outbox/policy';
import { OutboxFullError, StoredTooLateError } from './outbox/store';
import type { ContactEnquiry } from './schema';
import type { ContactState } from './state';
import { postEnquiry, type ContactApi } from './upstream';

/** Whether the enquiry is in the outbox before the live attempt, and if not, why. */
type Stored = 'stored' | 'no-outbox' | 'full' | 'failed';

/**
 * Sends a valid enquiry where the configuration says, and turns the outcome
 * into the state the form renders, by `answerBy` (ms since the epoch) whatever
 * a store or the API does. With an outbox the enquiry is stored first (within
 * STORE_WAIT_MS, else not at all: see StoredTooLateError), so when the API is
 * down the visitor is thanked anyway and the outbox delivers it later; after
 * the answer, every enquiry also redelivers a few due entries of earlier
 * visitors. A visitor is thanked only for an enquiry that is stored or
 * delivered. Logs say what happened without any of the visitor's personal data.
 */
export async function deliverEnquiry(enquiry: ContactEnquiry, { answerBy }: { answerBy: number }): Promise<ContactState> {
  // What runs in after() must end within the function's time, counted from here.
  const endsAt = Date.now() + AFTER_ENDS_BY_MS;
  const config = getContactConfig();
  // One key for every attempt of this submission, now or replayed later: the API never stores it twice.
  const idempotencyKey = randomUUID();

  if (config.mode === 'misconfigured') {
    console.error(`[contacto] Solicitud no entregada (${idempotencyKey}): ${config.problem}`);
    return { status: 'failed' };
  }

  if (config.mode === 'inbox') {
    // The local inbox is itself a durable file on this machine: nothing to retry, so no outbox in front of it.
    try {
      const file = await saveToInbox(enquiry, config.dir, idempotencyKey);
      console.info(`[contacto] Sin CONTACT_API_BASE_URL: solicitud ${idempotencyKey} guardada en la bandeja local ${file}`);
      return { status: 'sent', key: idempotencyKey };
    } catch (error) {
      console.error(`[contacto] No se pudo guardar la solicitud ${idempotencyKey} en la bandeja local:`, errorName(error));
      return { status: 'failed' };
    }
  }

  const outbox = getOutbox();
  const holder = randomUUID();
  const entry = newEntry(idempotencyKey, enquiry, Date.now(), holder);
  const stored: Stored = outbox ? await storeFirst(outbox, entry) : 'no-outbox';
  if (stored === 'full' && outbox?.config.alert) {
    const alert = outbox.config.alert;
    afterAnswer(() => alertOutboxFull(outbox, alert));
  }

  const api: ContactApi = { baseUrl: config.baseUrl, siteKey: config.siteKey };
  const started = Date.now();
  const report = await postEnquiry(enquiry, {
    ...api,
    idempotencyKey,
    // The circuit only spares the API calls for enquiries the outbox holds: otherwise this call is the visitor's only chance.
    ...(stored === 'stored' ? { breaker: contactApiBreaker } : {}),
    maxRetryAfterMs: maxRetryAfterMs(getOutboxConfig().backoffSeconds),
    // With no outbox configured the visitor's only chance is this call, with the client's own deadline.
    ...(stored === 'no-outbox' ? {} : { deadlineMs: liveDeadline(stored, answerBy) }),
  });
  const summary = `${idempotencyKey}: ${report.attempts} intento(s) en ${Date.now() - started} ms`;

  switch (report.result.outcome) {
    case 'accepted':
      if (report.failures.length) console.warn(`[contacto] Entregada tras fallos (${report.failures.join(', ')}) ${summary}`);
      if (stored === 'stored' && outbox) await settled(outbox, entry.key, holder, api, endsAt);
      return { status: 'sent', key: idempotencyKey };
    case 'rejected':
      console.warn(`[contacto] La API rechazó la solicitud ${summary}`);
      if (stored === 'stored' && outbox) await settled(outbox, entry.key, holder, api, endsAt);
      return { status: 'failed', mes: report.result.mes };
    case 'unavailable':
      if (stored !== 'stored' || !outbox) {
        console.error(`[contacto] Solicitud no entregada, la API no respondió bien (${report.failures.join(', ')}) ${summary}`);
        return { status: 'failed' };
      }
      console.warn(
        `[contacto] La API no respondió bien (${report.failures.join(', ')}) ${summary}; la solicitud queda en la bandeja de salida`,
      );
      // After the visitor has their answer: one more try (then the alert), then a few others.
      afterAnswer(async () => {
        await retryOnceInBackground(outbox, entry, holder, api, endsAt, report);
        await redeliverOthers(outbox, api, endsAt);
      });
      // Safely kept: a confirmed lead for the visitor and for the Ads conversion.
      return { status: 'sent', key: idempotencyKey };
  }
}

/** The live attempt's time: short when the outbox has the enquiry, all that is left before the answer otherwise. */
function liveDeadline(stored: Stored, answerBy: number): number {
  const left = Math.max(0, answerBy - Date.now());
  return stored === 'stored' ? Math.min(LIVE_DEADLINE_MS, left) : left;
}

/**
 * A suspected spam: thanked like a person (so a bot learns nothing), but with
 * no key (nothing to convert), no alert and no delivery. Kept apart in the
 * outbox's store for 30 days (`npm run outbox -- spam`, `release <key>`), in
 * its first half only; with no store, sent to the alert address (a few an
 * hour, after the answer), else only counted in the log. The log never
 * carries what was typed.
 */
export async function quarantineEnquiry(enquiry: ContactEnquiry, rule: string): Promise<ContactState> {
  const entry = spamEntry(randomUUID(), enquiry, Date.now(), rule);
  const outbox = getOutbox();
  if (outbox) {
    const stored = await storeFirst(outbox, entry);
    if (stored === 'stored') {
      console.warn(`[contacto] Posible spam (${rule}) guardado aparte: ${entry.key}; npm run outbox -- spam lo lista`);
      return { status: 'sent' };
    }
    if (stored === 'full') {
      console.warn(`[contacto] Posible spam (${rule}) descartado: ${entry.key} (la mitad de la bandeja de salida para spam está llena)`);
      return { status: 'sent' };
    }
  }
  const alert = outbox?.config.alert ?? getOutboxConfig().alert;
  if (alert) afterAnswer(() => mailSpam(entry, alert, rule));
  else console.warn(`[contacto] Posible spam (${rule}) descartado sin guardar: ${entry.key} (sin bandeja de salida ni aviso por correo)`);
  return { status: 'sent' };
}

async function mailSpam(entry: OutboxEntry, alert: AlertConfig, rule: string): Promise<void> {
  if (!(await sendSpamNotice(entry, alert))) {
    console.warn(`[contacto] Posible spam (${rule}) descartado sin guardar: ${entry.key} (límite de avisos por hora)`);
  }
}

/**
 * Stores the entry within STORE_WAIT_MS. A store that answers later is told
 * not to store it at all (storeBy, checked by the store itself): the visitor
 * was answered without it, so a later copy could only be a duplicate lead.
 * Never throws: the safety net being down must never fail a visitor.
 */
async function storeFirst(outbox: Outbox, entry: OutboxEntry): Promise<Stored> {
  // A margin under the wait, so the store's "too late" comes before this side stops waiting.
  const storeBy = Date.now() + STORE_WAIT_MS - 150;
  try {
    await withTimeout(outbox.store.add(entry, { storeBy }), STORE_WAIT_MS);
    return 'stored';
  } catch (error) {
    if (error instanceof OutboxFullError) {
      console.error(`[contacto] ERROR: la bandeja de salida está llena; ${entry.key} se intenta solo en vivo (npm run outbox -- status)`);
      return 'full';
    }
    const why = error instanceof TimedOutError || error instanceof StoredTooLateError ? `no respondió en ${STORE_WAIT_MS} ms` : errorName(error);
    console.error(`[contacto] ERROR: no se pudo guardar ${entry.key} en la bandeja de salida (${why}); se intenta solo en vivo, sin red de seguridad`);
    return 'failed';
  }
}
