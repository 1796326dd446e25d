import 'server-only';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import {
  configProblems,
  getContactConfig,
  getDeliveryConfig,
  getRateLimitConfig,
} from '@/lib/env/server';
import { formKeySource } from '../contact/signature-store';
import { countingStore } from '../experiments/counters';
import { getStaffConfig, staffAreaMissing } from '../staff/config';

// Off Vercel with no proxy, the client writes X-Forwarded-For and Next keeps it.
const CLIENT_PICKS_ADDRESS =
  '[contacto] AVISO: servidor propio (no Vercel) sin proxies de confianza (TRUST_PROXY_HEADERS vacía, 0 o ' +
  'inválida): cada cliente puede elegir la dirección que cuenta el límite de solicitudes (escribiendo ' +
  'X-Forwarded-For), y así saltárselo o bloquear a otra persona. Ponlo detrás de un proxy (nginx, por ejemplo) y ' +
  'define TRUST_PROXY_HEADERS con el número de proxies tuyos delante del servidor (1 si hay uno).';

/** The start-up report: where enquiries go, which engine holds those the API does not take at once, and who is told. */
export function describeContactConfig(): void {
  for (const { variable, message, fallback } of configProblems()) {
    console.error(
      `[contacto] ERROR DE CONFIGURACIÓN: ${variable} ${message}; ${fallback}. Las solicitudes se siguen entregando.`,
    );
  }

  const limit = getRateLimitConfig();
  if (!limit.onVercel && limit.trustedProxies === 0) console.warn(CLIENT_PICKS_ADDRESS);
  console.info(
    `[contacto] Filtro de spam (campo trampa; tiempo en pantalla con firmas de un solo uso, ligadas a la ` +
      `dirección del cliente; reglas de contenido): el posible spam se aparta 30 días (npm run leads -- spam, y ` +
      `release <clave> para entregarlo).`,
  );
  console.info(`[contacto] El formulario se firma ${KEY_SOURCES[formKeySource()]}.`);
  const counts = countingStore();
  if (counts.kind === 'none')
    console.warn(`[experimentos] AVISO: cuentas desactivadas. ${counts.why}`);

  const config = getContactConfig();
  if (config.mode === 'misconfigured') {
    console.error(
      `[contacto] ERROR DE CONFIGURACIÓN: ${config.problem} El formulario mostrará un error a cada visitante.`,
    );
    return;
  }
  if (config.mode === 'inbox')
    console.info(
      `[contacto] Sin CONTACT_API_BASE_URL: las solicitudes se guardan en la bandeja local ` +
        `${config.dir}/enquiries.jsonl`,
    );

  const world = getWorkflowWorld();
  const { backoffSeconds, alert, alertProblem } = getDeliveryConfig();
  console.info(
    `[contacto] Lo que no se entrega en el momento lo guarda y reintenta el motor de entregas (Workflow SDK, ` +
      `${WORLD_WORDS[world.kind]}${world.kind === 'local' ? ` en ${world.dir}` : ''}): esperas de ` +
      `${backoffSeconds.join(', ')} s; a las 24 horas, no entregada.`,
  );
  const staff = getStaffConfig();
  if (staff)
    console.info(
      `[equipo] Área del equipo en /equipo: ${staff.emails.length} correo(s) pueden entrar; los enlaces usados y las ` +
        `sesiones cerradas se anotan ${LEDGER_WORDS[staff.ledger.kind]}` +
        `${staff.ledger.kind === 'files' ? ` en ${staff.ledger.dir} (un solo servidor)` : ''}.`,
    );
  else
    console.info(
      `[equipo] Área del equipo desactivada (/equipo responde 404): falta ${staffAreaMissing().join(', ')}.`,
    );
  if (alert)
    console.info(
      `[contacto] Avisos por correo activados: solicitudes pendientes y no entregadas a ${alert.to}.`,
    );
  else
    console.warn(
      `[contacto] Avisos por correo ` +
        `desactivados${alertProblem ? `: ${alertProblem}` : ' (falta ALERT_SMTP_URL, o no es válida)'}.`,
    );
}

const LEDGER_WORDS = {
  redis: 'en Redis, para todas las instancias',
  postgres: 'en PostgreSQL, para todas las instancias',
  files: 'en archivos',
} as const;
const WORLD_WORDS = {
  local: 'archivos locales',
  postgres: 'PostgreSQL',
  vercel: 'Vercel',
  other: 'otro',
} as const;
const KEY_SOURCES = {
  secret: 'con CONTACT_FORM_SECRET',
  redis: 'con una clave aleatoria guardada en Redis, la misma en cada instancia',
  postgres: 'con una clave aleatoria guardada en PostgreSQL, la misma en cada instancia',
  process:
    'con una clave aleatoria de este proceso: al reiniciar, o en otra instancia, quien tenía la página abierta ' +
    'confirma una vez; define CONTACT_FORM_SECRET si hay varias instancias',
} as const;
