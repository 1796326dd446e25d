// The outbox, for the agency's developer: `npm run outbox -- status | flush | export [file.csv]`.
// Uses the same configuration as the server (.env.local and the environment):
// point REDIS_URL at production's Redis (`vercel env pull`) to work on it. It
// says which store and which contact API it uses before it does anything.
import { writeFileSync } from 'node:fs';
import nextEnv from '@next/env';

nextEnv.loadEnvConfig(process.cwd());

const { configProblems } = await import('../lib/env/server');
const { getOutbox, listEntries } = await import('../lib/contact/outbox');
const { flushOutbox } = await import('../lib/contact/flush');
const { deadLettersCsv } = await import('../lib/contact/dead-letters');
const { getContactConfig } = await import('../lib/env/server');

/** redis://user:****@host:port: the password never reaches the terminal. */
function maskedRedisUrl(value: string): string {
  const url = new URL(value);
  if (url.password) url.password = '****';
  return url.toString();
}

/** The last 4 characters of a long key, enough to tell production's from a test's. */
const maskedKey = (key: string) => (key.length >= 12 ? `****${key.slice(-4)}` : '****');

const [command, file = `solicitudes-no-entregadas-${new Date().toISOString().slice(0, 10)}.csv`] = process.argv.slice(2);
// A malformed value counts as unset (a bad REDIS_URL would mean the local files): say so first.
for (const { variable, message, fallback } of configProblems()) console.error(`${variable} ${message}; ${fallback}.`);
const outbox = getOutbox();
if (!outbox) {
  console.error('Sin bandeja de salida: CONTACT_OUTBOX=off, o VERCEL=1 sin REDIS_URL.');
  process.exit(1);
}

// Said before anything is read, sent or exported: which store, which API (production's after `vercel env pull`?).
const { store } = outbox.config;
if (store.kind === 'redis') console.log(`Bandeja de salida: Redis ${maskedRedisUrl(store.redisUrl)}`);
else if (store.kind === 'files') console.log(`Bandeja de salida: archivos en ${store.dir}/outbox/`);
const contact = getContactConfig();
console.log(
  contact.mode === 'api'
    ? `API de contacto: ${contact.baseUrl} (clave del sitio ${maskedKey(contact.siteKey)})`
    : contact.mode === 'inbox'
      ? 'API de contacto: ninguna (sin CONTACT_API_BASE_URL, flush no entrega nada)'
      : `API de contacto: mal configurada: ${contact.problem}`,
);

try {
  if (command === 'status') {
    const entries = await listEntries(outbox.store);
    const now = Date.now();
    const pending = entries.filter((entry) => entry.state === 'pending');
    const dead = entries.filter((entry) => entry.state === 'dead');
    const due = pending.filter((entry) => entry.nextAttemptAt <= now && !(entry.lease && entry.lease.until > now));
    const oldest = pending.reduce((min, entry) => Math.min(min, entry.receivedAt), Infinity);
    console.log(`Pendientes:     ${pending.length} (${due.length} por reintentar ya)`);
    console.log(`No entregadas:  ${dead.length}`);
    if (pending.length) console.log(`Pendiente más antigua: ${new Date(oldest).toISOString()}`);
  } else if (command === 'flush') {
    console.log(JSON.stringify(await flushOutbox()));
  } else if (command === 'export') {
    const entries = await listEntries(outbox.store);
    writeFileSync(file, deadLettersCsv(entries), 'utf8');
    console.log(`${entries.filter((entry) => entry.state === 'dead').length} solicitud(es) no entregada(s) en ${file}`);
  } else {
    console.error('Uso: npm run outbox -- status | flush | export [archivo.csv]');
    process.exitCode = 2;
  }
} finally {
  await outbox.store.close();
}
