import 'server-only';
import { configProblems, getContactConfig, getOutboxConfig } from '@/lib/env/server';
import { DRAIN_MAX_ENTRIES } from './policy';

/**
 * The start-up report: where enquiries go, where they wait when the API is
 * down, who redelivers them and who is told. `selfFlush`: this server flushes
 * its own outbox every minute (see self-flush.ts).
 */
export function describeContactConfig({ selfFlush = false }: { selfFlush?: boolean } = {}): void {
  // The variables the server runs without: each named, with what was turned off instead.
  for (const { variable, message, fallback } of configProblems()) {
    console.error(`[contacto] ERROR DE CONFIGURACIÓN: ${variable} ${message}; ${fallback}. Las solicitudes se siguen entregando.`);
  }

  const config = getContactConfig();
  if (config.mode === 'misconfigured') {
    console.error(`[contacto] ERROR DE CONFIGURACIÓN: ${config.problem} El formulario mostrará un error a cada visitante.`);
    return;
  }
  if (config.mode === 'inbox') {
    console.info(`[contacto] Sin CONTACT_API_BASE_URL: las solicitudes se guardan en la bandeja local ${config.dir}/enquiries.jsonl`);
    return;
  }

  const outbox = getOutboxConfig();
  const { store } = outbox;
  if (store.kind === 'redis') {
    console.info('[contacto] Bandeja de salida en Redis (REDIS_URL): cada solicitud se guarda antes de enviarla.');
  } else if (store.kind === 'files') {
    console.info(`[contacto] Bandeja de salida en archivos (${store.dir}/outbox/): cada solicitud se guarda antes de enviarla.`);
  } else if (store.why === 'vercel-without-redis') {
    console.warn(
      '[contacto] Sin bandeja de salida: en Vercel sin REDIS_URL no hay dónde guardar las solicitudes; si la API de contacto falla, el visitante verá el error.',
    );
  } else {
    console.info('[contacto] Bandeja de salida desactivada (CONTACT_OUTBOX=off): si la API de contacto falla, el visitante verá el error.');
  }
  if (store.kind === 'none') return;

  console.info(
    `[contacto] Reintentos: con cada solicitud (hasta ${DRAIN_MAX_ENTRIES} pendientes), GET /api/outbox/flush ${outbox.cronSecret ? 'con CRON_SECRET' : 'desactivado (falta CRON_SECRET)'}${selfFlush ? ' y cada minuto desde este servidor' : ''}; esperas de ${outbox.backoffSeconds.join(', ')} s.`,
  );
  if (outbox.alert) console.info(`[contacto] Avisos por correo activados: solicitudes pendientes y no entregadas a ${outbox.alert.to}.`);
  else console.warn(`[contacto] Avisos por correo desactivados${outbox.alertProblem ? `: ${outbox.alertProblem}` : ' (falta ALERT_SMTP_URL, o no es válida)'}.`);
  if (!outbox.cronSecret && !outbox.alert) {
    console.warn(
      `[contacto] AVISO: hay bandeja de salida pero ni CRON_SECRET ni los avisos por correo: una solicitud pendiente espera a ${selfFlush ? 'los reenvíos de este servidor' : 'que otro visitante envíe la suya'} y nadie se entera si no se entrega. Define CRON_SECRET y ALERT_SMTP_URL, ALERT_EMAIL_TO, ALERT_EMAIL_FROM.`,
    );
  }
}
