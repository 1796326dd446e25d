// The outbox, for the agency's developer: `npm run outbox -- status | flush | export [file.csv] | spam | release <key>`.
// Uses the same configuration as the server (.env.local and the environment):
// point REDIS_URL at production's Redis (`vercel env pull`) to work on it. It
// says which store and which contact API it uses before it does anything.
import { writeFileSync } from 'node:fs';
import nextEnv from '@next/env';

nextEnv.loadEnvConfig(process.cwd());

const { configProblems } = await import('../lib/env/server');
const { entriesOf, getOutbox, listEntries } = await import('../lib/contact/outbox/outbox');
const { flushOutbox, releaseSpam } = await import('../lib/contact/outbox/flush');
const { SPAM_RULE_LABELS } = await import('../lib/contact/spam-rules');
const { deadLettersCsv } = await import('../lib/contact/outbox/dead-letters');
const { getContactConfig } = await import('../lib/env/server');

/** redis://user:****@host:port: the password never reaches the terminal. */
function maskedRedisUrl(value: string): string {
  const url = new URL(value);
  if (url.password) url.password = '****';
  return url.toString();
}

/** The last 4 characters of a long key, enough to tell production's from a test's. */
const maskedKey = (key: string) => (key.length >= 12 ? `****${key.slice(-4)}` : '****');

const [command, argument] = process.argv.slice(2);
const file = argument ?? `solicitudes-no-entregadas-${new Date().toISOString().slice(0, 10)}.csv`;

/** What the filter saw, in Spanish: a content rule's label, or the honeypot. */
const whySpam = (rule = '') =>
  rule === 'honeypot'
    ? 'llenó el campo oculto que solo llenan los programas'
    : rule === 'honeypot-missing'
      ? 'envió el formulario sin su campo oculto (no salió de la página)'
      : (SPAM_RULE_LABELS as Record<string, string>)[rule] ?? rule;
const oneLine = (text: string, max: number) => {
  // Control characters (a terminal's escape sequences) never reach the screen.
  const flat = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
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
    const now = Date.now();
    const counts = { pending: 0, due: 0, dead: 0, spam: 0, oldest: Infinity };
    // A page at a time: only the counts are kept.
    for await (const entry of entriesOf(outbox.store)) {
      counts[entry.state] += 1;
      if (entry.state !== 'pending') continue;
      if (entry.nextAttemptAt <= now && !(entry.lease && entry.lease.until > now)) counts.due += 1;
      counts.oldest = Math.min(counts.oldest, entry.receivedAt);
    }
    const usage = await outbox.store.usage();
    const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(`Pendientes:     ${counts.pending} (${counts.due} por reintentar ya)`);
    console.log(`No entregadas:  ${counts.dead}`);
    console.log(`Posible spam:   ${counts.spam} (npm run outbox -- spam)`);
    console.log(
      `Ocupación:      ${usage.entries} de ${usage.maxEntries} entradas, ${megabytes(usage.bytes)} de ${megabytes(usage.maxBytes)} MB (CONTACT_OUTBOX_MAX_ENTRIES, CONTACT_OUTBOX_MAX_BYTES)`,
    );
    if (counts.pending) console.log(`Pendiente más antigua: ${new Date(counts.oldest).toISOString()}`);
  } else if (command === 'flush') {
    console.log(JSON.stringify(await flushOutbox()));
  } else if (command === 'export') {
    const dead = await listEntries(outbox.store, (entry) => entry.state === 'dead');
    writeFileSync(file, deadLettersCsv(dead), 'utf8');
    console.log(`${dead.length} solicitud(es) no entregada(s) en ${file}`);
  } else if (command === 'spam') {
    // What the filter held back, newest first: a person's enquiry among them is one `release` from delivered.
    const spam = (await listEntries(outbox.store, (entry) => entry.state === 'spam')).sort((a, b) => b.receivedAt - a.receivedAt);
    console.log(`${spam.length} posible(s) spam guardado(s) aparte (se borran a los 30 días):`);
    for (const entry of spam) {
      const { name, mail, phone, reason } = entry.enquiry;
      console.log('');
      console.log(`${entry.key}  ${new Date(entry.receivedAt).toISOString()}  por qué: ${whySpam(entry.spamRule)}`);
      console.log(`  ${oneLine(name, 60)} <${oneLine(mail, 60)}> ${oneLine(phone, 20)}`);
      console.log(`  ${oneLine(reason, 160)}`);
    }
    if (spam.length) console.log('\nSi alguno es de una persona: npm run outbox -- release <clave>');
  } else if (command === 'release' && argument) {
    const result = await releaseSpam(outbox.store, outbox.config, argument);
    const said = {
      delivered: 'entregada a la API de contacto.',
      inbox: 'guardada en la bandeja local (sin CONTACT_API_BASE_URL).',
      pending: 'pendiente: la API no la recibió ahora; se reintentará como cualquier otra (y llega el aviso por correo).',
      'not-found': 'no existe en la bandeja de salida.',
      'not-spam': 'no está entre el posible spam (ver npm run outbox -- status).',
      busy: 'alguien más la está procesando; inténtalo en unos segundos.',
    }[result];
    console.log(`Solicitud ${argument}: ${said}`);
    if (!['delivered', 'inbox', 'pending'].includes(result)) process.exitCode = 1;
  } else {
    console.error('Uso: npm run outbox -- status | flush | export [archivo.csv] | spam | release <clave>');
    process.exitCode = 2;
  }
} finally {
  await outbox.store.close();
}
