/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { transform } from '@swc/core';
import type { Lead } from './lead';

/*
 * The lead's workflow counts its end for the staff page's totals once: later, dead, or live for a spam released and
 * delivered at once. Two views of one file. Run as plain functions (without the SDK's compiler "use step" is a no-op,
 * as its docs on testing say), with the engine's clock, hooks and start faked and fetch as the contact API. Compiled as
 * the engine's sandbox runs it (the SDK's own SWC plugin, in its workflow mode), to see that the count is a step there:
 * the body runs again at every replay, while a step's recorded result is read back instead of running it again.
 */
let released: boolean;
jest.mock('workflow', () => ({
  sleep: async () => undefined,
  getWorkflowMetadata: () => ({ workflowRunId: 'wrun_prueba' }),
  createHook: () =>
    Object.assign(released ? Promise.resolve({ released: true }) : new Promise(() => {}), {
      [Symbol.dispose]: () => undefined,
    }),
}));
const mockStart = jest.fn(async (..._args: unknown[]) => ({ runId: 'wrun_siguiente' }));
jest.mock('workflow/api', () => ({ start: (...args: unknown[]) => mockStart(...args) }));
jest.mock('@/lib/engine/choose-world', () => ({
  getWorkflowWorld: () => ({ kind: 'local', dir: '.' }),
}));
/** What happened, in order: the counts and the forgetting scheduled. */
const mockDone: string[] = [];
jest.mock('@/lib/experiments/counters', () => ({
  countOutcome: async (outcome: string) => void mockDone.push(`count:${outcome}`),
}));
jest.mock('./forget-workflow', () => ({
  forgetAfter: async () => void mockDone.push('forgetAfter'),
  forgetInboxLater: async () => undefined,
}));
jest.mock('./forward-start', () => ({
  forwardOf: (lead: unknown) => lead,
  startForwarding: async () => undefined,
}));

process.env.CONTACT_API_BASE_URL = 'http://127.0.0.1:9/api/';
process.env.CONTACT_SITE_KEY = 'clave-del-sitio';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- after the environment: the env module reads it once
const { leadWorkflow } = require('./workflow') as typeof import('./workflow');

const lead = (extra: Partial<Lead> = {}): Lead => ({
  key: '6f1c2a0e-8d3b-4c5a-9e7f-1a2b3c4d5e6f',
  enquiry: {
    name: 'Ana Variante',
    mail: 'ana@example.mx',
    phone: '5587654321',
    reason: 'Una tienda.',
    captcha: '',
  },
  receivedAt: Date.now(),
  backoffSeconds: [60],
  keepMs: 30 * 24 * 60 * 60 * 1000,
  source: {
    last: { utm_source: 'google', at: 1 },
    experiments: [{ name: 'titular-verano', variant: 'b' }],
  },
  ...extra,
});
// A 503 that asks for an hour: one attempt a round, no waiting inside it.
const down = () => new Response('{}', { status: 503, headers: { 'Retry-After': '3600' } });
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });

let fetchMock: jest.Mock;
beforeEach(() => {
  released = true;
  mockDone.splice(0);
  mockStart.mockClear();
  fetchMock = jest.fn(async () => answer(200, { success: true }));
  global.fetch = fetchMock as unknown as typeof fetch;
  for (const level of ['info', 'warn', 'error'] as const)
    jest.spyOn(console, level).mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

describe("the lead's workflow, run as plain functions", () => {
  it('delivered after a retry: counts later once, after its forgetting is scheduled', async () => {
    fetchMock.mockResolvedValueOnce(down()).mockResolvedValueOnce(answer(200, { success: true }));
    expect(await leadWorkflow(lead())).toEqual({ outcome: 'delivered', rounds: 3 });
    expect(mockDone).toEqual(['forgetAfter', 'count:later']);
  });

  it('gives the contact API the five fields of the spec in every round, never the variant', async () => {
    fetchMock.mockResolvedValueOnce(down()).mockResolvedValueOnce(answer(200, { success: true }));
    await leadWorkflow(lead());
    expect(fetchMock).toHaveBeenCalledTimes(2);
    for (const [, init] of fetchMock.mock.calls as Array<[URL, RequestInit]>) {
      expect(Object.keys(JSON.parse(String(init.body)))).toEqual([
        'name',
        'mail',
        'reason',
        'phone',
        'captcha',
      ]);
      expect(String(init.body)).not.toMatch(/titular-verano|experiment/);
    }
  });

  it('refused at a later round: counts dead once', async () => {
    fetchMock.mockResolvedValueOnce(
      answer(400, { success: false, mes: 'El token de captcha expiró' }),
    );
    expect(await leadWorkflow(lead())).toMatchObject({ outcome: 'dead', reason: 'refused' });
    expect(mockDone).toEqual(['forgetAfter', 'count:dead']);
  });

  it('a spam released and delivered at once counts live; after a retry, later', async () => {
    expect(await leadWorkflow(lead({ spamRule: 'only-links' }))).toEqual({
      outcome: 'delivered',
      rounds: 1,
    });
    expect(mockDone).toEqual(['forgetAfter', 'count:live']);
    mockDone.splice(0);
    fetchMock.mockResolvedValueOnce(down());
    expect(await leadWorkflow(lead({ spamRule: 'only-links' }))).toEqual({
      outcome: 'delivered',
      rounds: 2,
    });
    expect(mockDone).toEqual(['forgetAfter', 'count:later']);
  });

  it('counts nothing for a spam nobody released (counted as spam when held), nor for a run that goes on in another', async () => {
    released = false;
    expect(await leadWorkflow(lead({ spamRule: 'only-links' }))).toEqual({
      outcome: 'spam-expired',
    });
    fetchMock.mockImplementation(async () => down());
    expect(await leadWorkflow(lead())).toEqual({ outcome: 'continued' });
    expect(mockStart).toHaveBeenCalledTimes(1);
    expect(mockDone).toEqual(['forgetAfter', 'forgetAfter']);
  });
});

describe("the lead's workflow, as the engine's sandbox runs it", () => {
  const file = path.join(__dirname, 'workflow.ts');
  // As the SDK's builder compiles a workflow's file for its sandbox (@workflow/builders' applySwcTransform).
  const sandboxed = async () =>
    (
      await transform(readFileSync(file, 'utf8'), {
        filename: 'lib/contact/lead/workflow.ts',
        swcrc: false,
        jsc: {
          parser: { syntax: 'typescript' },
          target: 'es2022',
          experimental: {
            plugins: [[require.resolve('@workflow/swc-plugin'), { mode: 'workflow' }]],
          },
        },
      })
    ).code;

  it('counts only in a step: the count is a step call there, and the counters are not even imported', async () => {
    const code = await sandboxed();
    expect(code).toContain(
      'countLeadOutcome = globalThis[Symbol.for("WORKFLOW_USE_STEP")]("step//./lib/contact/lead/workflow//countLeadOutcome")',
    );
    expect(code).not.toMatch(/experiments\/counters|countOutcome\(/);
    // The body calls that step after the forgetting is scheduled, at the run's end.
    const body = code.slice(
      code.indexOf('export async function leadWorkflow'),
      code.indexOf('leadWorkflow.workflowId'),
    );
    const calls = [...body.matchAll(/countLeadOutcome\(/g)].map((call) => call.index);
    expect(calls.length).toBeGreaterThan(0);
    for (const at of calls) expect(at).toBeGreaterThan(body.indexOf('forgetAfter('));
  });
});
