// A Workflow SDK world in memory, for lib/staff/leads/'s unit tests: the engine's client is the one boundary faked. It
// answers runs.list, hooks.list, steps.list and events.list as the SDK's types say (the Vercel world's client does
// the same over HTTP): pages of `limit` (20 when none is asked for), an opaque cursor, hasMore. It counts the runs it
// hands out, so a test can hold a caller to a bound.
import type { Lead, LeadOutcome } from '../lib/contact/lead/lead';

type Status = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';
export type FakeRun = {
  runId: string;
  workflowName: string;
  status: Status;
  input: unknown[];
  output?: unknown;
  createdAt: Date;
};
type Pagination = { limit?: number; cursor?: string; sortOrder?: 'asc' | 'desc' };

export const LEAD_WORKFLOW = 'workflow//./lib/contact/lead/workflow//leadWorkflow';
export const FORWARD_WORKFLOW = 'workflow//./lib/contact/lead/forward-workflow//forwardWorkflow';

/** The engine's ids: wrun_ and 26 characters that sort as they were made (a ULID's time first). */
export const runIdAt = (n: number) => `wrun_${n.toString(32).toUpperCase().padStart(26, '0')}`;

/** A lead as the lead's workflow carries it, received `n` minutes after a fixed day. */
export function fakeLead(n: number, extra: Partial<Lead> = {}): Lead {
  return {
    key: `clave-${n}`,
    enquiry: {
      name: `Persona ${n}`,
      mail: `persona${n}@example.mx`,
      phone: '5512345678',
      reason: 'Una página',
    },
    receivedAt: Date.UTC(2026, 10, 1) + n * 60_000,
    backoffSeconds: [60],
    keepMs: 30 * 24 * 60 * 60 * 1000,
    ...extra,
  } as Lead;
}

export function fakeWorld() {
  const runs: FakeRun[] = [];
  const hooks: { hookId: string; runId: string; token: string }[] = [];
  let handedOut = 0;
  const page = <T>(
    all: T[],
    id: (item: T) => string,
    { limit = 20, cursor, sortOrder = 'asc' }: Pagination = {},
  ) => {
    const sorted = [...all].sort(
      (a, b) => id(a).localeCompare(id(b)) * (sortOrder === 'desc' ? -1 : 1),
    );
    const from = cursor === undefined ? 0 : sorted.findIndex((item) => id(item) === cursor) + 1;
    const data = sorted.slice(from, from + limit);
    const hasMore = from + limit < sorted.length;
    return { data, cursor: hasMore ? id(data[data.length - 1] as T) : null, hasMore };
  };
  const world = {
    runs: {
      async list({ pagination }: { pagination?: Pagination } = {}) {
        // The SDK's default for runs is newest first.
        const answer = page(runs, (run) => run.runId, { sortOrder: 'desc', ...pagination });
        handedOut += answer.data.length;
        return answer;
      },
      async get(runId: string) {
        const run = runs.find((found) => found.runId === runId);
        if (!run) throw new Error(`Workflow run "${runId}" not found`);
        return run;
      },
    },
    hooks: {
      async list({ runId, pagination }: { runId?: string; pagination?: Pagination }) {
        return page(
          hooks.filter((hook) => !runId || hook.runId === runId),
          (hook) => hook.hookId,
          pagination,
        );
      },
    },
    steps: { list: async () => ({ data: [], cursor: null, hasMore: false }) },
    events: { list: async () => ({ data: [], cursor: null, hasMore: false }) },
    close: async () => {},
  };
  return {
    world,
    runs,
    /** How many runs runs.list has handed out so far. */
    handedOut: () => handedOut,
    addRun(
      n: number,
      workflowName: string,
      status: Status,
      input: unknown[],
      output?: LeadOutcome,
    ) {
      const run = {
        runId: runIdAt(n),
        workflowName,
        status,
        input,
        output,
        createdAt: new Date(n),
      };
      runs.push(run);
      return run;
    },
    addReleaseHook(runId: string, key: string) {
      hooks.push({ hookId: `hook_${runId}`, runId, token: `lead-release:${key}` });
    },
    /** What getRun(runId).cancel() does in the SDK: a run_cancelled event, the run cancelled and its hooks gone. */
    cancel(runId: string) {
      const run = runs.find((found) => found.runId === runId);
      if (run) run.status = 'cancelled';
      hooks.splice(0, hooks.length, ...hooks.filter((hook) => hook.runId !== runId));
    },
  };
}
