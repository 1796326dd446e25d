// The leads the engine holds, for the agency's staff:
// `npm run leads -- status | pending | dead | export [file.csv] | spam | release <key> | forget <email>`.
// A command line over lib/staff/leads/, the module the staff page reads too. It uses
// the server's configuration (.env.local and the environment) and says first
// which world: point WORKFLOW_TARGET_WORLD and WORKFLOW_POSTGRES_URL (or, for
// Vercel's, the project's variables) at production's to work on it. Only
// pending, dead, spam and forget show people.
import nextEnv from '@next/env';

nextEnv.loadEnvConfig(process.cwd());

// After the environment: the engine's modules read it when first used.
const { chooseWorkflowWorld, deliverTo, getWorkflowServerUrl, getWorkflowWorld } =
  await import('../lib/engine/choose-world');
chooseWorkflowWorld();
const { configProblems } = await import('../lib/env/server');
const { readEngineDoor } = await import('../lib/engine/door');
const { engineStorage } = await import('../lib/engine/storage');
const { countLeads, deadLetters, leadsIn } = await import('../lib/staff/leads/list');
const { release } = await import('../lib/staff/leads/release');
const { forget } = await import('../lib/staff/leads/forget');
const { deadLettersCsv } = await import('../lib/staff/leads/csv');
const { defaultExportFile, exportRefusal, writePrivateFile } =
  await import('../lib/staff/leads/export-file');
const { readCounts } = await import('../lib/experiments/counters');
const {
  RELEASE_SAID,
  TOTALS_DAYS,
  beyondReach,
  forgotLines,
  isoDate,
  oneLine,
  person,
  totalsLines,
  whyDead,
  whySpam,
  worldLine,
} = await import('../lib/staff/leads/words');

const USAGE =
  'Uso: npm run leads -- status | pending | dead | export [archivo.csv] | spam | release <clave> | forget <correo>';
const [command, argument] = process.argv.slice(2);

// Said before anything is read, released or deleted: which world (production's?).
const where = getWorkflowWorld();
console.log(worldLine(where));
for (const { variable, message, fallback } of configProblems())
  console.error(`${variable} ${message}; ${fallback}.`);
// Where the engine in this process sends a run it wakes (release): in the local world, to the private door of the
// server on this machine (lib/engine/door.ts; its public address refuses the engine's messages). In PostgreSQL, to
// no one: the job waits in the database for the servers' workers. world-postgres (4.3) starts a worker in the
// process that queues once that address answers; at a loopback port nobody listens on it never does, so this process
// neither takes (and fails) other leads' jobs nor hands production's to a development server on this machine. On
// Vercel the platform's queue takes it.
const serverUrl =
  where.kind === 'postgres'
    ? 'http://127.0.0.1:9'
    : (where.kind === 'local' && readEngineDoor(where.dir)) || getWorkflowServerUrl();
deliverTo(serverUrl);

const world = engineStorage();

try {
  if (command === 'status') {
    // Counts only: no one's name or address on a screen someone may be looking at. What the engine holds now, read
    // whole (a command, not a page view: its time grows with the runs kept); then the staff page's totals, which
    // count what the engine forgets (a lead delivered at once never had a run).
    const counts = await countLeads(world);
    const oldest = counts.oldestPending;
    console.log('En el motor de entregas ahora:');
    console.log(
      `Pendientes:             ${counts.pending}${oldest !== undefined ? ` (la más antigua recibida el ${isoDate(oldest)})` : ''}`,
    );
    console.log(`No entregadas:          ${counts.dead} (npm run leads -- dead)`);
    console.log(`Posible spam en espera: ${counts.spam} (npm run leads -- spam)`);
    if (counts['spam-expired'])
      console.log(`Spam descartado sin liberar: ${counts['spam-expired']}`);
    if (counts.cancelled) console.log(`Canceladas:             ${counts.cancelled}`);
    if (counts.failed)
      console.log(`Con error del motor:    ${counts.failed} (npx workflow inspect runs)`);
    console.log(`\nTotales de los últimos ${TOTALS_DAYS} días (los de /equipo):`);
    for (const line of totalsLines(await readCounts([], TOTALS_DAYS))) console.log(line);
  } else if (command === 'pending') {
    const pending = await leadsIn('pending', world);
    console.log(
      `${pending.length} solicitud(es) pendiente(s) de entrega (el motor las reintenta hasta 24 horas):`,
    );
    for (const run of pending)
      console.log(`${run.lead.key}  ${isoDate(run.lead.receivedAt)}  ${person(run)}`);
  } else if (command === 'dead') {
    const dead = await deadLetters(world);
    console.log(
      `${dead.length} solicitud(es) no entregada(s): hay que atenderlas a mano (npm run leads -- export las pasa a CSV).`,
    );
    for (const { lead, outcome } of dead)
      console.log(
        `${lead.key}  ${isoDate(lead.receivedAt)}  ${person({ lead })}  por qué: ${whyDead(outcome)}`,
      );
  } else if (command === 'export') {
    const file = argument ?? defaultExportFile();
    const refusal = exportRefusal(file, process.cwd());
    if (refusal) {
      console.error(`No se exporta: ${refusal}`);
      process.exitCode = 1;
    } else {
      const dead = await deadLetters(world);
      try {
        writePrivateFile(file, deadLettersCsv(dead));
        console.log(
          `${dead.length} solicitud(es) no entregada(s) en ${file} (solo tu usuario puede leerlo; bórralo al terminar)`,
        );
        if (!argument)
          console.log(
            '(En la carpeta temporal del sistema: fuera del repositorio, donde git no puede llevárselo.)',
          );
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        console.error(
          code === 'EEXIST'
            ? `No se exporta: ${file} ya existe y no se sobrescribe; elige otro nombre.`
            : `No se pudo escribir ${file}${code === 'ENOENT' ? ': la carpeta no existe' : ` (${code ?? error})`}.`,
        );
        process.exitCode = 1;
      }
    }
  } else if (command === 'spam') {
    // What the filter held back, newest first: a person's enquiry among them is one `release` from delivered.
    const spam = (await leadsIn('spam', world)).reverse();
    console.log(
      `${spam.length} posible(s) spam guardado(s) aparte (se descartan pasado el plazo de conservación):`,
    );
    for (const run of spam) {
      const { lead } = run;
      const until =
        run.forgetAt !== undefined ? `  se descarta el ${isoDate(run.forgetAt).slice(0, 10)}` : '';
      console.log('');
      console.log(
        `${lead.key}  ${isoDate(lead.receivedAt)}  por qué: ${whySpam(lead.spamRule)}${until}`,
      );
      console.log(`  ${person(run)}`);
      console.log(`  ${oneLine(lead.enquiry.reason, 160)}`);
    }
    if (spam.length) console.log('\nSi alguno es de una persona: npm run leads -- release <clave>');
  } else if (command === 'release' && argument) {
    const released = await release(argument, { serverUrl, world });
    if (released.result === 'server-down') {
      console.error(
        `El servidor no responde en ${released.serverUrl} (la puerta del motor que anota en ${released.dir}): arráncalo y vuelve a intentarlo; sin él nada se entrega.`,
      );
      process.exitCode = 1;
    } else if (released.result === 'released') {
      console.log(
        `Solicitud ${argument}: liberada; el motor la entrega como cualquier otra (npm run leads -- status).`,
      );
      if (!released.takenUp)
        console.warn(
          'Ningún servidor la ha tomado en 20 s: ¿está en marcha? Se entregará cuando arranque.',
        );
    } else {
      console.log(`Solicitud ${argument}: ${RELEASE_SAID[released.result]}`);
      process.exitCode = 1;
    }
  } else if (command === 'forget' && argument?.includes('@')) {
    // A person's request to be forgotten: their runs (cancelled first if still running) and their inbox lines.
    const report = await forget(argument, world);
    for (const line of forgotLines(report)) console.log(line);
    for (const line of beyondReach(report)) console.log(line);
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} finally {
  await world.close?.();
}
// The local world's queue may still hold a timer for the server's answer to a release: it is not ours to wait for.
process.exit();
