import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'devalue';
import type { Lead, LeadOutcome } from '../../lib/contact/lead/lead';
import { DATA_DIR } from './test-env';

/** One run of the lead's workflow as the local world keeps it on disk. */
export type LeadRun = { runId: string; status: string; lead: Lead; outcome?: LeadOutcome };

/** The engine's serialisation: base64 of "devl" and a devalue string. */
function decode(value: { data?: string } | undefined): unknown {
  if (!value?.data) return undefined;
  const text = Buffer.from(value.data, 'base64').toString('utf8');
  return parse(text.replace(/^devl/, ''));
}

/** Every lead run of the server whose CONTACT_INBOX_DIR is `DATA_DIR/<server>` (its local world), read from the files. */
export function leadRuns(server = 'main'): LeadRun[] {
  const folder = path.join(DATA_DIR, server, 'workflow', 'runs');
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json'));
  } catch {}
  const runs: LeadRun[] = [];
  for (const name of names) {
    try {
      const run = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as {
        runId: string;
        workflowName: string;
        status: string;
        input?: { data?: string };
        output?: { data?: string };
      };
      // The small runs that forget a lead's run carry no lead.
      if (!run.workflowName.endsWith('//leadWorkflow')) continue;
      const [lead] = decode(run.input) as [Lead];
      runs.push({
        runId: run.runId,
        status: run.status,
        lead,
        outcome: decode(run.output) as LeadOutcome | undefined,
      });
    } catch {
      // A file being written: read it next time.
    }
  }
  return runs;
}

/** The runs of the lead with this e-mail address. */
export const runsFor = (mail: string, server = 'main') =>
  leadRuns(server).filter((run) => run.lead.enquiry.mail === mail);

/** Every run of any workflow (lead, forwarding, forgetting) whose input holds `text`, of the server at `DATA_DIR/<server>`. */
export const runsHolding = (text: string, server: string): string[] =>
  inputsHolding(text, server).map(({ name }) => name);

/** The rounds the webhook's forwarding runs of `mail` begin at (its input's 4th argument): more than 0 for a run that goes on from another. */
export const webhookRunsFrom = (mail: string, server: string): number[] =>
  inputsHolding(mail, server, 'forwardWorkflow').flatMap(({ input }) =>
    Array.isArray(input) && input[1] === 'webhook' ? [Number(input[3])] : [],
  );

function inputsHolding(
  text: string,
  server: string,
  workflow?: string,
): { name: string; input: unknown }[] {
  const folder = path.join(DATA_DIR, server, 'workflow', 'runs');
  let names: string[] = [];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.json'));
  } catch {}
  return names.flatMap((name) => {
    try {
      const run = JSON.parse(readFileSync(path.join(folder, name), 'utf8')) as {
        input?: { data?: string };
        workflowName?: string;
      };
      if (workflow && !run.workflowName?.endsWith(`//${workflow}`)) return [];
      const input = decode(run.input);
      return JSON.stringify(input ?? null).includes(text) ? [{ name, input }] : [];
    } catch {
      return [];
    }
  });
}

/** `status` is the exit code, or null when the command was stopped (its time ran out: `timedOut`). */
export type CliRun = { status: number | null; timedOut: boolean; stdout: string; stderr: string };

/**
 * `npm run leads -- <args>` as the staff run it, without blocking this worker: a stand-in receiver or stub
 * that lives in the worker keeps answering meanwhile (spawnSync froze them, so a "down" receiver hung
 * instead, and answered every send it held at once when the command ended).
 */
export function leadsCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  // 5 s here idle; under the whole suite on 2 cores, over 60 s was seen (tsx compiling it, the engine loading).
  timeoutMs = 120_000,
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      'npm',
      ['run', '--silent', 'leads', '--', ...args],
      { env, encoding: 'utf8', timeout: timeoutMs },
      (error, stdout: string, stderr: string) =>
        resolve({
          status: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          timedOut: Boolean(error?.killed),
          stdout,
          stderr,
        }),
    );
  });
}
