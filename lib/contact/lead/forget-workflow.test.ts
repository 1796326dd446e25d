/**
 * @jest-environment node
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import {
  forgetAfter,
  forgetInboxLater,
  forgetInboxWorkflow,
  forgetWorkflow,
} from './forget-workflow';
import { FORGET_WORKFLOW_ID } from '@/lib/engine/storage';

/*
 * The end of a lead's run (and of a forwarding run): forgetAfter, then the forgetting run's steps, called as plain
 * functions. The engine's client is the one boundary faked: start() and the world's runs.get are what reach
 * Vercel's backend over the network (and the SDK's ES modules do not load under Jest). The rest is ours, as it runs.
 */
const mockStart = jest.fn(async (..._args: unknown[]) => ({
  runId: 'wrun_01KAZ0000000000000000000CD',
}));
jest.mock('workflow/api', () => ({ start: (...args: unknown[]) => mockStart(...args) }));
// The lead's run has ended by the time its forgetting runs: Vercel's world answers so.
const mockGetRun = jest.fn(async (runId: string) => ({ runId, status: 'completed' }));
jest.mock('workflow/runtime', () => ({
  getWorld: () => ({ runs: { get: (runId: string) => mockGetRun(runId) } }),
}));

const RUN = 'wrun_01KAZ0000000000000000000AB';
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  jest.clearAllMocks();
  jest.restoreAllMocks();
});

describe('a lead’s run ending on Vercel', () => {
  beforeEach(() => {
    // As a Vercel function sees it: no WORKFLOW_TARGET_WORLD, VERCEL=1 and a deployment id.
    delete process.env.WORKFLOW_TARGET_WORLD;
    Object.assign(process.env, { VERCEL: '1', VERCEL_DEPLOYMENT_ID: 'dpl_4e3bHq9Yz1' });
  });

  it.each([
    ['delivered (forgotten at once)', 0],
    ['a dead letter (kept CONTACT_KEEP_DAYS)', KEEP_MS],
  ])('ends without error when %s, leaving the run to Vercel’s retention', async (_end, keep) => {
    await expect(forgetAfter(RUN, Date.now() + keep)).resolves.toBe('kept-by-vercel');
    // No forgetting run that could only fail, 21 times, for every lead.
    expect(mockStart).not.toHaveBeenCalled();
  });

  it('ends a forgetting run started before (rerun on latest from the dashboard) without error', async () => {
    const info = jest.spyOn(console, 'info').mockImplementation(() => {});
    await expect(forgetWorkflow(RUN, Date.now() - 1)).resolves.toBeUndefined();
    expect(info).not.toHaveBeenCalledWith(expect.stringMatching(/borrados/));
  });
});

describe('a lead’s run ending on our own server', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'forget-workflow-'));
    Object.assign(process.env, { WORKFLOW_TARGET_WORLD: 'local', WORKFLOW_LOCAL_DATA_DIR: dir });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('still schedules the forgetting, and the forgetting still deletes the run', async () => {
    const at = Date.now() + KEEP_MS;
    await expect(forgetAfter(RUN, at)).resolves.toBe('scheduled');
    expect(mockStart).toHaveBeenCalledWith(forgetWorkflow, [RUN, at]);

    const info = jest.spyOn(console, 'info').mockImplementation(() => {});
    await forgetWorkflow(RUN, Date.now() - 1);
    expect(mockGetRun).toHaveBeenCalledWith(RUN);
    expect(info).toHaveBeenCalledWith(
      `[contacto] Datos de la ejecución ${RUN} borrados, como dice el aviso de privacidad`,
    );
  });

  it('ends quietly when the run is gone already (forgotten), and fails the step on any other error', async () => {
    const info = jest.spyOn(console, 'info').mockImplementation(() => {});
    // As the engine throws it (@workflow/errors tells its errors apart by name).
    const notFound = Object.assign(new Error(`Workflow run "${RUN}" not found`), {
      name: 'WorkflowRunNotFoundError',
    });
    mockGetRun.mockRejectedValueOnce(notFound);
    await expect(forgetWorkflow(RUN, Date.now() - 1)).resolves.toBeUndefined();
    expect(info).not.toHaveBeenCalledWith(expect.stringMatching(/borrados/));
    // Words alone ("not found") are not the engine saying so: the engine retries the step.
    mockGetRun.mockRejectedValueOnce(new Error('connect ECONNREFUSED: host not found'));
    await expect(forgetWorkflow(RUN, Date.now() - 1)).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the local inbox’s forgetting', () => {
  // One folder for the describe: the env module reads CONTACT_INBOX_DIR once.
  const dir = mkdtempSync(path.join(tmpdir(), 'forget-inbox-'));
  const old = {
    receivedAt: new Date(Date.now() - KEEP_MS - 60_000).toISOString(),
    mail: 'vieja@example.com',
  };
  const recent = { receivedAt: new Date().toISOString(), mail: 'reciente@example.com' };
  const lines = () => readFileSync(path.join(dir, 'enquiries.jsonl'), 'utf8');
  beforeEach(() => {
    writeFileSync(
      path.join(dir, 'enquiries.jsonl'),
      `${JSON.stringify(old)}\n${JSON.stringify(recent)}\n`,
    );
    const noApi = { CONTACT_API_BASE_URL: '', CONTACT_SITE_KEY: '', VERCEL: '' };
    Object.assign(process.env, { ...noApi, CONTACT_INBOX_DIR: dir, CONTACT_KEEP_DAYS: '30' });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is a workflow of its own, forgetting only the lines past their period', async () => {
    await forgetInboxLater(KEEP_MS);
    expect(mockStart).toHaveBeenCalledWith(forgetInboxWorkflow, [expect.any(Number)]);
    await forgetInboxWorkflow(Date.now() - 1);
    expect(lines()).not.toContain(old.mail);
    expect(lines()).toContain(recent.mail);
  });

  it('still runs from a forgetting scheduled by an older build under the name bandeja-local', async () => {
    await forgetWorkflow('bandeja-local', Date.now() - 1);
    expect(mockGetRun).not.toHaveBeenCalled();
    expect(lines()).not.toContain(old.mail);
    expect(lines()).toContain(recent.mail);
  });
});

describe('the id `npm run leads -- forget` starts the forgetting run by', () => {
  it('is the one the SDK’s build gives forgetWorkflow', () => {
    // Written by the workflow build that runs before Jest (and before every next build).
    const manifest = readFileSync(
      path.join(__dirname, '../../../app/.well-known/workflow/v1/manifest.json'),
      'utf8',
    );
    const ids = [...manifest.matchAll(/"workflowId":\s*"([^"]+)"/g)].map((match) => match[1]);
    expect(ids).toContain(FORGET_WORKFLOW_ID);
  });
});
