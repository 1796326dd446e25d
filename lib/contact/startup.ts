import 'server-only';
import { configProblems, getContactConfig, getFormTokenKey, getOutboxConfig, getRateLimitConfig } from '@/lib/env/server';
import { SPAM_NOTICES_PER_HOUR } from './outbox/alert';
import { DRAIN_MAX_ENTRIES } from './outbox/policy';

// Off Vercel with no proxy, the client writes X-Forwarded-For and Next keeps it.
const CLIENT_PICKS_ADDRESS =
  '[contacto] AVISO: servidor propio (no Vercel) sin proxies de confianza (TRUST_PROXY_HEADERS vacía, 0 o inválida): cada cliente puede elegir la dirección que cuenta el límite de solicitudes (escribiendo X-Forwarded-For), y así saltárselo o bloquear a otra persona. Ponlo detrás de un proxy (nginx, por ejemplo) y define TRUST_PROXY_HEADERS con el número de proxies tuyos delante del servidor (1 si hay uno).';

/**
 * The start-up report: where enquiries go, where they wait when the API is
 * down, who redelivers them and who is told. `selfFlush`: this server flushes
 * its own outbox every minute (see outbox/self-flush.ts).
 */
export function describeContactConfig({ selfFlush = false }: { selfFlush?: boolean } = {}): void {
  // The variables the server runs without: each named, with what was turned off instead.
  for (const { variable, message, fallback } of configProblems()) {
    console.error(`[contacto] ERROR DE CONFIGURACIÓN: ${variable} ${message}; ${fallback}. Las solicitudes se siguen entregando.`);
  }

  // In every mode: the abuse limit runs before any delivery.
  const limit = getRateLimitConfig();
  if (!limit.onVercel && limit.trustedProxies === 0) console.warn(CLIENT_PICKS_ADDRESS);

  describeSpamFilter();

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
    `[contacto] Capacidad de la bandeja de salida: ${store.limits.maxEntries} entradas y ${Math.round(store.limits.maxBytes / 1024 / 1024)} MB (CONTACT_OUTBOX_MAX_ENTRIES, CONTACT_OUTBOX_MAX_BYTES; el posible spam, la mitad); llena, cada solicitud se intenta solo en vivo.`,
  );

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

const KEY_SOURCES = {
  secret: 'firmado con CONTACT_FORM_SECRET',
  'site-key': 'firmado con una clave derivada de CONTACT_SITE_KEY (igual en cada instancia)',
  process: 'firmado con una clave de este proceso (sin CONTACT_FORM_SECRET ni API de contacto)',
} as const;

/** Where suspected spam goes: kept apart in the outbox's store, e-mailed, or only counted in the log. */
function describeSpamFilter(): void {
  const outbox = getOutboxConfig();
  const where =
    outbox.store.kind !== 'none'
      ? 'se guarda aparte 30 días (npm run outbox -- spam, y release <clave> para entregarlo)'
      : outbox.alert
        ? `no hay bandeja de salida: se envía al correo de avisos (hasta ${SPAM_NOTICES_PER_HOUR} por hora; los demás solo se cuentan en el registro)`
        : 'no hay bandeja de salida ni avisos por correo: se descarta y solo se cuenta en el registro';
  console.info(`[contacto] Filtro de spam (campo trampa, tiempo en pantalla ${KEY_SOURCES[getFormTokenKey().source]}, reglas de contenido): el posible spam ${where}.`);
}
