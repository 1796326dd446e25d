import 'server-only';
import { randomUUID } from 'node:crypto';
import { after } from 'next/server';
import { getContactConfig, getOutboxConfig } from '@/lib/env/server';
import { redeliverDue, redeliverOnce } from './flush';
import { saveToInbox } from './inbox';
import { getOutbox, removeFromOutbox, type Outbox } from './outbox';
import type { OutboxEntry } from './outbox-entry';
import { AFTER_ENDS_BY_MS, BACKGROUND_DEADLINE_MS, DRAIN_MAX_ENTRIES, LIVE_DEADLINE_MS, newEntry, spamEntry } from './policy';
import { sendSpamNotice } from './alert';
import type { ContactEnquiry } from './schema';
import type { ContactState } from './state';
import { postEnquiry } from './upstream';

type Api = { baseUrl: string; siteKey: string };

/**
 * Sends a valid enquiry where the configuration says, and turns the outcome
 * into the state the form renders. With an outbox the enquiry is stored
 * first, so when the API is down the visitor is thanked anyway and the
 * outbox delivers it later; after the answer, every enquiry also redelivers
 * a few due entries of earlier visitors. Logs say what happened without any
 * of the visitor's personal data.
 */
export async function deliverEnquiry(enquiry: ContactEnquiry): Promise<ContactState> {
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
  const stored = outbox !== null && (await storeFirst(outbox, entry));

  const api: Api = { baseUrl: config.baseUrl, siteKey: config.siteKey };
  const started = Date.now();
  const report = await postEnquiry(enquiry, {
    ...api,
    idempotencyKey,
    // The outbox takes over after a short wait; without one, the visitor's only chance is this call.
    ...(stored ? { deadlineMs: LIVE_DEADLINE_MS } : {}),
  });
  const summary = `${idempotencyKey}: ${report.attempts} intento(s) en ${Date.now() - started} ms`;

  switch (report.result.outcome) {
    case 'accepted':
      if (report.failures.length) console.warn(`[contacto] Entregada tras fallos (${report.failures.join(', ')}) ${summary}`);
      if (stored) {
        await removeFromOutbox(outbox.store, idempotencyKey, holder);
        afterAnswer(() => redeliverOthers(outbox, api, endsAt));
      }
      return { status: 'sent', key: idempotencyKey };
    case 'rejected':
      console.warn(`[contacto] La API rechazó la solicitud ${summary}`);
      if (stored) {
        await removeFromOutbox(outbox.store, idempotencyKey, holder);
        afterAnswer(() => redeliverOthers(outbox, api, endsAt));
      }
      return { status: 'failed', mes: report.result.mes };
    case 'unavailable':
      if (!stored) {
        console.error(`[contacto] Solicitud no entregada, la API no respondió bien (${report.failures.join(', ')}) ${summary}`);
        return { status: 'failed' };
      }
      console.warn(
        `[contacto] La API no respondió bien (${report.failures.join(', ')}) ${summary}; la solicitud queda en la bandeja de salida`,
      );
      // After the visitor has their answer: one more try (then the alert), then a few others.
      afterAnswer(async () => {
        await retryOnceInBackground(outbox, entry, holder, api, endsAt);
        await redeliverOthers(outbox, api, endsAt);
      });
      // Safely kept: a confirmed lead for the visitor and for the Ads conversion.
      return { status: 'sent', key: idempotencyKey };
  }
}

/**
 * A suspected spam: thanked like a person (so a bot learns nothing), but with
 * no key (nothing to convert), no alert and no delivery. Kept apart in the
 * outbox's store for 30 days (`npm run outbox -- spam`, `release <key>`);
 * with no store, sent to the alert address (a few an hour), else only counted
 * in the log. The log never carries what was typed.
 */
export async function quarantineEnquiry(enquiry: ContactEnquiry, rule: string): Promise<ContactState> {
  const entry = spamEntry(randomUUID(), enquiry, Date.now(), rule);
  const outbox = getOutbox();
  if (outbox) {
    try {
      await outbox.store.add(entry);
      console.warn(`[contacto] Posible spam (${rule}) guardado aparte: ${entry.key}; npm run outbox -- spam lo lista`);
      return { status: 'sent' };
    } catch (error) {
      console.error(`[contacto] No se pudo guardar aparte el posible spam ${entry.key} (${errorName(error)})`);
    }
  }
  const alert = outbox?.config.alert ?? getOutboxConfig().alert;
  const mailed = alert ? await sendSpamNotice(entry, alert) : false;
  if (!mailed) console.warn(`[contacto] Posible spam (${rule}) descartado sin guardar: ${entry.key} (sin bandeja de salida ni aviso por correo)`);
  return { status: 'sent' };
}

async function storeFirst(outbox: Outbox, entry: OutboxEntry): Promise<boolean> {
  try {
    await outbox.store.add(entry);
    return true;
  } catch (error) {
    // The safety net being down must never fail a visitor: deliver live as without an outbox.
    console.error(
      `[contacto] ERROR: no se pudo guardar la solicitud ${entry.key} en la bandeja de salida (${errorName(error)}); se entrega sin red de seguridad`,
    );
    return false;
  }
}

/** Runs in after(): a second round while the function still has time (the alert included, if it goes pending). */
async function retryOnceInBackground(outbox: Outbox, entry: OutboxEntry, holder: string, api: Api, endsAt: number): Promise<void> {
  try {
    const deadlineMs = Math.max(0, Math.min(BACKGROUND_DEADLINE_MS, endsAt - Date.now()));
    await redeliverOnce(entry, holder, { store: outbox.store, config: outbox.config, api, deadlineMs });
  } catch (error) {
    // The lease runs out and the next flush picks the entry up.
    console.error(`[contacto] Falló el reintento en segundo plano de ${entry.key} (${errorName(error)})`);
  }
}

/** Runs in after(), on every path with an outbox: a few due entries of earlier visitors go too, in the time left. */
async function redeliverOthers(outbox: Outbox, api: Api, endsAt: number): Promise<void> {
  try {
    await redeliverDue({ store: outbox.store, config: outbox.config, api, endsAt, max: DRAIN_MAX_ENTRIES });
  } catch (error) {
    // The flush (or the next visitor) tries them again.
    console.error(`[contacto] Falló el reenvío de pendientes tras una solicitud (${errorName(error)})`);
  }
}

/**
 * after(), which must never cost the visitor their answer: it throws outside
 * a request (a script, a test), and then the work is skipped and logged; the
 * outbox still holds whatever was not delivered, for the flush.
 */
function afterAnswer(task: () => Promise<void>): void {
  try {
    after(task);
  } catch (error) {
    console.error(`[contacto] No se pudo dejar trabajo para después de la respuesta (${errorName(error)}); la bandeja de salida lo retoma`);
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${(error as NodeJS.ErrnoException).code ?? ''}` : 'desconocido';
}
