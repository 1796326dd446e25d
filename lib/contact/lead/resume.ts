import { start } from 'workflow/api';
import type { Cut, OurWorkflows } from '@/lib/engine/rescue';
import { forgetInboxWorkflow, forgetWorkflow } from './forget-workflow';
import type { Forward, Target } from './forward';
import { forwardWorkflow } from './forward-workflow';
import { goingOn, leadNeeds, type Lead } from './lead';
import { leadWorkflow } from './workflow';

// What the engine's rescue (lib/engine/rescue.ts) may do with a run of ours it found interrupted: a crash cut a step
// off, or the engine itself failed the run. The engine's side knows how to find such runs; this side knows what each
// of our workflows needs to go on. Passed to the engine by instrumentation.ts.

const runId = async (run: Promise<{ runId: string }>) => (await run).runId;

export const OUR_WORKFLOWS: OurWorkflows = {
  byName: {
    leadWorkflow: {
      about: (args) => (args[0] as Lead | undefined)?.key,
      againAfterEngineFailure: true,
      async resume(args, cut) {
        const lead = args[0] as Lead | undefined;
        if (!lead?.key) return undefined;
        // The engine failed it: the same lead again; the agency was told already.
        if (!cut)
          return {
            needs: 'again',
            again: await runId(start(leadWorkflow, [{ ...lead, alerted: true }])),
          };
        const needs = leadNeeds(cut.step, cut.verdict, cut.output);
        if (needs !== 'again') return { needs };
        // It has a step, so it was released if it was spam. Sending on is a lead's first step: any other step cut off
        // means it was sent on already, as does its logged end.
        const forwarded =
          lead.forwarded || cut.step !== 'forwardConfirmed' || cut.verdict === 'stalled';
        const round = lead.round ?? (lead.spamRule ? 0 : 1);
        const next = goingOn(lead, { round, alerted: true, forwarded });
        return { needs, again: await runId(start(leadWorkflow, [next])) };
      },
    },
    forwardWorkflow: {
      about: (args) => (args[0] as Forward | undefined)?.key,
      againAfterEngineFailure: true,
      async resume(args, cut) {
        if (!(args[0] as Forward | undefined)?.key) return undefined;
        const needs = cut ? leadNeeds(cut.step, cut.verdict, cut.output) : 'again';
        if (needs !== 'again') return { needs };
        const [forward, target, backoffSeconds, from] = args as [Forward, Target, number[], number];
        return {
          needs,
          again: await runId(start(forwardWorkflow, [forward, target, backoffSeconds, from])),
        };
      },
    },
    forgetWorkflow: {
      about: (args) => `el borrado de ${String(args[0])}`,
      againAfterEngineFailure: false,
      async resume(args: unknown[], _cut?: Cut) {
        const [what, at] = args;
        if (typeof what !== 'string' || typeof at !== 'number') return undefined;
        return { needs: 'again', again: await runId(start(forgetWorkflow, [what, at])) };
      },
    },
    forgetInboxWorkflow: {
      about: () => 'el borrado de la bandeja local',
      againAfterEngineFailure: false,
      async resume([at]: unknown[]) {
        return typeof at === 'number'
          ? { needs: 'again', again: await runId(start(forgetInboxWorkflow, [at])) }
          : undefined;
      },
    },
  },
  forgetLater: (id, at) => start(forgetWorkflow, [id, at]).then(() => undefined),
};
