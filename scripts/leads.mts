// The leads the engine holds, for the agency's staff:
// `npm run leads -- status | pending | dead | export [file.csv] | spam | release <key> | purge <email>`.
// It reads the Workflow SDK's world through the engine's own API, with the
// server's configuration (.env.local and the environment), and says first
// which world: point WORKFLOW_TARGET_WORLD and WORKFLOW_POSTGRES_URL at
// production's to work on it. Only pending, dead, spam and purge show people.
import path from 'node:path';
import nextEnv from '@next/env';

nextEnv.loadEnvConfig(process.cwd());

// After the environment: the engine's modules read it when first used.
const { chooseWorkflowWorld, deliverTo, getWorkflowServerUrl, getWorkflowWorld } =
  await import('../lib/engine/choose-world');
chooseWorkflowWorld();
const { configProblems, getDeliveryConfig, getInboxDir } = await import('../lib/env/server');
const { getWorld } = await import('workflow/runtime');
const { getRun, resumeHook, start } = await import('workflow/api');
const { HookNotFoundError } = await import('workflow/errors');
const { hydrateResourceIO, observabilityRevivers, parseWorkflowName } = await import('workflow/observability');
const { FORGET_WORKFLOW_ID, releaseToken } = await import('../lib/contact/lead/lead');
const { deadLettersCsv } = await import('./leads-csv');
const { forgetRun } = await import('../lib/engine/forget-run');
const { purgeInbox } = await import('./leads-inbox');
const { readEngineDoor } = await import('../lib/engine/door');
const { SPAM_RULE_LABELS } = await import('../lib/contact/spam-rules');
const { defaultExportFile, exportRefusal, writePrivateFile } = await import('./leads-export');

type Lead = import('../lib/contact/lead/lead').Lead;
type LeadOutcome = import('../lib/contact/lead/lead').LeadOutcome;
type DeadLetter = import('./leads-csv').DeadLetter;
type State = 'pending' | 'spam' | 'delivered' | 'dead' | 'spam-expired' | 'continued' | 'cancelled' | 'failed';
type LeadRun = { runId: string; state: State; lead: Lead; outcome?: LeadOutcome };

const USAGE =
  'Uso: npm run leads -- status | pending | dead | export [archivo.csv] | spam | release <clave> | purge <correo>';
const [command, argument] = process.argv.slice(2);

/** postgres://user:****@host/db: the password never reaches the terminal (nor the whole value, when it is not a URL). */
function maskedUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.password) url.password = '****';
    return url.toString();
  } catch {
    return '(WORKFLOW_POSTGRES_URL no es una URL)';
  }
}

/** Control characters (a terminal's escape sequences) never reach the screen. */
const oneLine = (text: string, max: number) => {
  const flat = text.replace(/[\s\u0000-\u001f\u007f-\u009f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const person = ({ enquiry }: Lead) =>
  `${oneLine(enquiry.name, 60)} <${oneLine(enquiry.mail, 60)}> ${oneLine(enquiry.phone, 20)}`;
const date = (ms: number) => new Date(ms).toISOString();

/** What the filter saw, in Spanish: a content rule's label, or the honeypot. */
const whySpam = (rule = '') =>
  rule === 'honeypot'
    ? 'llenó el campo oculto que solo llenan los programas'
    : rule === 'honeypot-missing'
      ? 'envió el formulario sin su campo oculto (no salió de la página)'
      : ((SPAM_RULE_LABELS as Record<string, string>)[rule] ?? rule);
const whyDead = (outcome: Extract<LeadOutcome, { outcome: 'dead' }>) =>
  outcome.reason === 'refused'
    ? `rechazada por la API${outcome.refusal ? `: ${oneLine(outcome.refusal, 120)}` : ''}`
    : `sin entregar en 24 horas${outcome.lastFailure ? ` (${oneLine(outcome.lastFailure, 80)})` : ''}`;

const isLead = (value: unknown): value is Lead => {
  const lead = value as Partial<Lead> | null;
  const enquiry = lead?.enquiry;
  return (
    typeof lead?.key === 'string' &&
    typeof lead.receivedAt === 'number' &&
    typeof enquiry?.mail === 'string' &&
    typeof enquiry.name === 'string' &&
    typeof enquiry.phone === 'string'
  );
};

// Said before anything is read, released or deleted: which world (production's?).
const where = getWorkflowWorld();
if (where.kind === 'vercel') {
  console.error(
    'Motor de entregas: Vercel. Este programa no lee sus ejecuciones: usa el panel de Vercel o npx workflow inspect runs --backend vercel.',
  );
  process.exit(1);
}
console.log(
  where.kind === 'local'
    ? `Motor de entregas: archivos locales en ${path.resolve(where.dir)}`
    : where.kind === 'postgres'
      ? `Motor de entregas: PostgreSQL ${maskedUrl(where.url)}`
      : `Motor de entregas: ${where.target}`,
);
for (const { variable, message, fallback } of configProblems()) console.error(`${variable} ${message}; ${fallback}.`);
// Where the engine in this process sends a run it wakes (release): in the local world, to the private door of the
// server on this machine (lib/engine/door.ts; its public address refuses the engine's messages). In PostgreSQL, to
// no one: the job waits in the database
// for the servers' workers. world-postgres (4.3) starts a worker in the process that queues once that address
// answers; at a loopback port nobody listens on it never does, so this process neither takes (and fails) other
// leads' jobs nor hands production's to a development server on this machine.
const serverUrl =
  where.kind === 'postgres'
    ? 'http://127.0.0.1:9'
    : (where.kind === 'local' && readEngineDoor(where.dir)) || getWorkflowServerUrl();
deliverTo(serverUrl);

const world = getWorld();

/** The runs sending `mail`'s lead on to the webhook or Meta (lib/contact/lead/forward-workflow.ts), and whether each still runs. */
async function* forwardRunsOf(mail: string): AsyncGenerator<{ runId: string; live: boolean }> {
  for (let cursor: string | undefined; ;) {
    const page = await world.runs.list({ resolveData: 'all', pagination: { limit: 50, cursor } });
    for (const run of page.data) {
      if (parseWorkflowName(run.workflowName)?.shortName !== 'forwardWorkflow') continue;
      const { input } = hydrateResourceIO(run, observabilityRevivers) as { input?: unknown };
      const forward = (Array.isArray(input) ? input[0] : undefined) as { enquiry?: { mail?: unknown } } | undefined;
      if (typeof forward?.enquiry?.mail !== 'string' || forward.enquiry.mail.trim().toLowerCase() !== mail) continue;
      yield { runId: run.runId, live: run.status === 'pending' || run.status === 'running' };
    }
    if (!page.hasMore || !page.cursor) break;
    cursor = page.cursor;
  }
}

/** Every lead's run, a page at a time, with its state; the runs of other workflows are passed over. */
async function* leadRuns(): AsyncGenerator<LeadRun> {
  // A held-back spam waits on its release hook; the runs that have one live now.
  const waiting = new Set<string>();
  for (let cursor: string | undefined; ;) {
    const page = await world.hooks.list({ resolveData: 'none', pagination: { limit: 100, cursor } });
    for (const hook of page.data) if (hook.token.startsWith(releaseToken(''))) waiting.add(hook.runId);
    if (!page.hasMore || !page.cursor) break;
    cursor = page.cursor;
  }
  for (let cursor: string | undefined; ;) {
    const page = await world.runs.list({ resolveData: 'all', pagination: { limit: 50, cursor } });
    for (const run of page.data) {
      if (parseWorkflowName(run.workflowName)?.shortName !== 'leadWorkflow') continue;
      const { input, output } = hydrateResourceIO(run, observabilityRevivers) as { input?: unknown; output?: unknown };
      const lead: unknown = Array.isArray(input) ? input[0] : undefined;
      if (!isLead(lead)) continue;
      const outcome = output as LeadOutcome | undefined;
      const state: State =
        run.status === 'pending' || run.status === 'running'
          ? // Not started yet (its hook comes with its first replay), or its hook still live: waiting for a release.
            lead.spamRule && (run.status === 'pending' || waiting.has(run.runId))
            ? 'spam'
            : 'pending'
          : run.status === 'completed'
            ? (outcome?.outcome ?? 'failed')
            : run.status;
      yield { runId: run.runId, state, lead, ...(outcome ? { outcome } : {}) };
    }
    if (!page.hasMore || !page.cursor) break;
    cursor = page.cursor;
  }
}

async function listOf(state: State): Promise<LeadRun[]> {
  const found: LeadRun[] = [];
  for await (const run of leadRuns()) if (run.state === state) found.push(run);
  return found;
}

const deadLetters = async (): Promise<DeadLetter[]> =>
  (await listOf('dead'))
    .flatMap(({ lead, outcome }) => (outcome?.outcome === 'dead' ? [{ lead, outcome }] : []))
    .sort((a, b) => a.lead.receivedAt - b.lead.receivedAt);

/** Whether the server's workflow endpoint answers its health check (the local world delivers nothing without it). */
async function serverAnswers(base: string): Promise<boolean> {
  try {
    const response = await fetch(`${base.replace(/\/+$/, '')}/.well-known/workflow/v1/flow?__health`, {
      method: 'POST',
      signal: AbortSignal.timeout(3000),
    });
    return response.ok && ((await response.json()) as { healthy?: unknown }).healthy === true;
  } catch {
    return false;
  }
}

/** Passes of `purge`: each finds the runs a continuation started while the last one was being cancelled. */
const PURGE_PASSES = 5;
/** A step's own bound is 10 s (the API's and receivers' timeouts); a step still "running" past this crashed with its server. */
const STEP_SETTLE_MS = 15_000;

/** Waits until none of the run's steps is running: a cancelled run may still be finishing one. */
async function stepsSettled(runId: string, withinMs: number): Promise<void> {
  for (
    const until = Date.now() + withinMs;
    Date.now() < until;
    await new Promise((resolve) => setTimeout(resolve, 250))
  ) {
    const { data } = await world.steps.list({ runId, resolveData: 'none', pagination: { limit: 100 } });
    if (!data.some((step) => step.status === 'running')) return;
  }
}

/** After a release: true once the run moved past it (an event after the hook's), i.e. the server took it up. */
async function movedOn(runId: string, withinMs: number): Promise<boolean> {
  for (
    const until = Date.now() + withinMs;
    Date.now() < until;
    await new Promise((resolve) => setTimeout(resolve, 500))
  ) {
    const { data } = await world.events.list({
      runId,
      resolveData: 'none',
      pagination: { limit: 1, sortOrder: 'desc' },
    });
    if (data[0] && data[0].eventType !== 'hook_received') return true;
  }
  return false;
}

try {
  if (command === 'status') {
    // Counts only: no one's name or address on a screen someone may be looking at.
    const counts: Record<State, number> = {
      pending: 0,
      spam: 0,
      delivered: 0,
      dead: 0,
      'spam-expired': 0,
      continued: 0,
      cancelled: 0,
      failed: 0,
    };
    let oldest = Infinity;
    for await (const run of leadRuns()) {
      counts[run.state] += 1;
      if (run.state === 'pending') oldest = Math.min(oldest, run.lead.receivedAt);
    }
    console.log(
      `Pendientes:             ${counts.pending}${counts.pending ? ` (la más antigua recibida el ${date(oldest)})` : ''}`,
    );
    console.log(`Entregadas:             ${counts.delivered}`);
    console.log(`No entregadas:          ${counts.dead} (npm run leads -- dead)`);
    console.log(`Posible spam en espera: ${counts.spam} (npm run leads -- spam)`);
    if (counts['spam-expired']) console.log(`Spam descartado sin liberar: ${counts['spam-expired']}`);
    if (counts.cancelled) console.log(`Canceladas:             ${counts.cancelled}`);
    if (counts.failed) console.log(`Con error del motor:    ${counts.failed} (npx workflow inspect runs)`);
  } else if (command === 'pending') {
    const pending = (await listOf('pending')).sort((a, b) => a.lead.receivedAt - b.lead.receivedAt);
    console.log(`${pending.length} solicitud(es) pendiente(s) de entrega (el motor las reintenta hasta 24 horas):`);
    for (const { lead } of pending) console.log(`${lead.key}  ${date(lead.receivedAt)}  ${person(lead)}`);
  } else if (command === 'dead') {
    const dead = await deadLetters();
    console.log(
      `${dead.length} solicitud(es) no entregada(s): hay que atenderlas a mano (npm run leads -- export las pasa a CSV).`,
    );
    for (const { lead, outcome } of dead)
      console.log(`${lead.key}  ${date(lead.receivedAt)}  ${person(lead)}  por qué: ${whyDead(outcome)}`);
  } else if (command === 'export') {
    const file = argument ?? defaultExportFile();
    const refusal = exportRefusal(file, process.cwd());
    if (refusal) {
      console.error(`No se exporta: ${refusal}`);
      process.exitCode = 1;
    } else {
      const dead = await deadLetters();
      try {
        writePrivateFile(file, deadLettersCsv(dead));
        console.log(
          `${dead.length} solicitud(es) no entregada(s) en ${file} (solo tu usuario puede leerlo; bórralo al terminar)`,
        );
        if (!argument)
          console.log('(En la carpeta temporal del sistema: fuera del repositorio, donde git no puede llevárselo.)');
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
    const spam = (await listOf('spam')).sort((a, b) => b.lead.receivedAt - a.lead.receivedAt);
    console.log(`${spam.length} posible(s) spam guardado(s) aparte (se descartan pasado el plazo de conservación):`);
    for (const { lead } of spam) {
      const until =
        typeof lead.keepMs === 'number' ? `  se descarta el ${date(lead.receivedAt + lead.keepMs).slice(0, 10)}` : '';
      console.log('');
      console.log(`${lead.key}  ${date(lead.receivedAt)}  por qué: ${whySpam(lead.spamRule)}${until}`);
      console.log(`  ${person(lead)}`);
      console.log(`  ${oneLine(lead.enquiry.reason, 160)}`);
    }
    if (spam.length) console.log('\nSi alguno es de una persona: npm run leads -- release <clave>');
  } else if (command === 'release' && argument) {
    try {
      if (where.kind === 'local' && !(await serverAnswers(serverUrl))) {
        console.error(
          `El servidor no responde en ${serverUrl} (la puerta del motor que anota en ${where.dir}): arráncalo y vuelve a intentarlo; sin él nada se entrega.`,
        );
        process.exitCode = 1;
      } else {
        const hook = await resumeHook(releaseToken(argument), { released: true });
        console.log(
          `Solicitud ${argument}: liberada; el motor la entrega como cualquier otra (npm run leads -- status).`,
        );
        if (!(await movedOn(hook.runId, 20_000)))
          console.warn('Ningún servidor la ha tomado en 20 s: ¿está en marcha? Se entregará cuando arranque.');
      }
    } catch (error) {
      if (!HookNotFoundError.is(error)) throw error;
      // No hook to resume: say why, from the lead's run.
      let found: LeadRun | undefined;
      for await (const run of leadRuns()) if (run.lead.key === argument) found = run;
      const said = !found
        ? 'no existe entre las solicitudes del motor de entregas.'
        : !found.lead.spamRule
          ? 'no está entre el posible spam (ver npm run leads -- status).'
          : found.state === 'spam'
            ? 'aún no empieza a esperar (¿está en marcha el servidor?); inténtalo en un momento.'
            : found.state === 'spam-expired'
              ? 'pasó su plazo sin que nadie la liberara y se descartó.'
              : 'ya fue liberada.';
      console.log(`Solicitud ${argument}: ${said}`);
      process.exitCode = 1;
    }
  } else if (command === 'purge' && argument?.includes('@')) {
    // A person's request to be forgotten: their runs (cancelled first if still running) and their inbox lines.
    const mail = argument.trim().toLowerCase();
    let forgotten = 0;
    let cancelled = 0;
    let forwards = 0;
    // A run cancelled in the middle of a step still finishes that step, and a continuation step (ROUNDS_PER_RUN)
    // starts a fresh run of the person's lead or copy. So each cancelled run's step is waited for, and the runs
    // are looked for again, until a pass finds none: nothing of theirs is left to start another.
    const done = new Set<string>();
    for (let pass = 0; pass < PURGE_PASSES; pass += 1) {
      const theirs: { runId: string; live: boolean; forward: boolean }[] = [];
      for await (const run of leadRuns()) {
        if (done.has(run.runId) || run.lead.enquiry.mail.trim().toLowerCase() !== mail) continue;
        theirs.push({ runId: run.runId, live: run.state === 'pending' || run.state === 'spam', forward: false });
      }
      for await (const run of forwardRunsOf(mail)) if (!done.has(run.runId)) theirs.push({ ...run, forward: true });
      if (!theirs.length) break;
      for (const { runId } of theirs.filter((run) => run.live)) {
        await getRun(runId).cancel();
        await stepsSettled(runId, STEP_SETTLE_MS);
      }
      for (const { runId, live, forward } of theirs) {
        // A run stopped just now keeps an empty, cancelled record so that no message left in the queue
        // re-creates it (lib/engine/forget-run.ts); the engine forgets that record after the usual period.
        await forgetRun(runId, { tombstone: live });
        if (live) await start({ workflowId: FORGET_WORKFLOW_ID }, [runId, Date.now() + getDeliveryConfig().keepMs]);
        done.add(runId);
        if (forward) forwards += 1;
        else {
          forgotten += 1;
          if (live) cancelled += 1;
        }
      }
    }
    const inbox = await purgeInbox(getInboxDir(), mail);
    console.log(
      `${mail}: ${forgotten} solicitud(es) borrada(s) del motor de entregas${cancelled ? ` (${cancelled} cancelada(s) antes: no se entregarán)` : ''}.`,
    );
    if (forwards) console.log(`${mail}: ${forwards} reenvío(s) al webhook o a Meta detenido(s) y borrado(s).`);
    console.log(`Bandeja local (${getInboxDir()}): ${inbox.lines} línea(s) borrada(s) en ${inbox.files} archivo(s).`);
    console.log(
      'Fuera de este proyecto quedan lo ya entregado a la API de contacto, los avisos enviados por correo y los CSV exportados: bórralos allí.',
    );
  } else {
    console.error(USAGE);
    process.exitCode = 2;
  }
} finally {
  await world.close?.();
}
// The local world's queue may still hold a timer for the server's answer to a release: it is not ours to wait for.
process.exit();
