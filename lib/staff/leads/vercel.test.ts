/**
 * @jest-environment node
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FORWARD_WORKFLOW, LEAD_WORKFLOW, fakeLead, fakeWorld } from '@/test-support/fake-world';
import { getWorkflowWorld } from '@/lib/engine/choose-world';
import { forget } from './forget';
import { countLeads, listLeads } from './list';
import { release } from './release';
import { beyondReach, worldLine } from './words';

/*
 * Issue 43: the module the staff page and `npm run leads` share runs on Vercel's world, where the command once
 * stopped with "Este programa no lee sus ejecuciones". The environment is a Vercel function's; the world stands for
 * the Vercel world's client (its answers shaped as the SDK's types say). forgetRun, which refuses on Vercel, is not
 * faked: were it called, forget would fail.
 */
const fake = fakeWorld();
jest.mock('workflow/runtime', () => ({ getWorld: () => fake.world }));
jest.mock('workflow/observability', () => ({
  observabilityRevivers: {},
  parseWorkflowName: (name: string) => ({ shortName: name.split('//').pop() }),
}));
jest.mock('@workflow/core/serialization-format', () => ({
  isEncryptedData: () => false,
  hydrateDataWithKey: async (value: unknown) => value,
}));
jest.mock('@workflow/core/encryption', () => ({ importKey: async () => undefined }));
const mockStart = jest.fn();
const mockResume = jest.fn(async (token: string) => ({ runId: `run of ${token}` }));
jest.mock('workflow/api', () => ({
  getRun: (runId: string) => ({ cancel: async () => fake.cancel(runId) }),
  resumeHook: (token: string) => mockResume(token),
  start: (...args: unknown[]) => mockStart(...args),
}));
jest.mock('workflow/errors', () => ({ HookNotFoundError: { is: () => false } }));

const ANA = 'ana@example.mx';
const saved = { ...process.env };
let inbox: string;
beforeAll(() => {
  // As a Vercel function sees it: no WORKFLOW_TARGET_WORLD, VERCEL=1 and a deployment id.
  delete process.env.WORKFLOW_TARGET_WORLD;
  inbox = mkdtempSync(path.join(tmpdir(), 'leads-vercel-'));
  Object.assign(process.env, {
    VERCEL: '1',
    VERCEL_DEPLOYMENT_ID: 'dpl_x',
    CONTACT_INBOX_DIR: inbox,
  });
  const ana = (n: number) =>
    fakeLead(n, { enquiry: { ...fakeLead(n).enquiry, mail: 'Ana@Example.mx ' } });
  fake.addRun(1, LEAD_WORKFLOW, 'completed', [ana(1)], {
    outcome: 'dead',
    reason: 'refused',
    deadAt: 5,
  });
  fake.addRun(2, LEAD_WORKFLOW, 'running', [ana(2)]);
  fake.addRun(3, FORWARD_WORKFLOW, 'running', [{ key: 'clave-2', enquiry: ana(2).enquiry }]);
  const spam = fake.addRun(4, LEAD_WORKFLOW, 'running', [fakeLead(4, { spamRule: 'only-links' })]);
  fake.addReleaseHook(spam.runId, 'clave-4');
});
afterAll(() => {
  process.env = saved;
  rmSync(inbox, { recursive: true, force: true });
});

describe('reading and acting on leads on Vercel’s world', () => {
  it('is Vercel’s world, and says so', () => {
    expect(getWorkflowWorld()).toEqual({ kind: 'vercel' });
    expect(worldLine(getWorkflowWorld())).toBe('Motor de entregas: Vercel');
  });

  it('lists and counts the leads', async () => {
    const { leads } = await listLeads();
    expect(leads.map((lead) => [lead.lead.key, lead.state])).toEqual([
      ['clave-4', 'spam'],
      ['clave-2', 'pending'],
      ['clave-1', 'dead'],
    ]);
    expect(await countLeads()).toMatchObject({ pending: 1, spam: 1, dead: 1, delivered: 0 });
  });

  it('releases a suspected spam through its hook, with no local server to check', async () => {
    const fetchSpy = jest.spyOn(global, 'fetch');
    await expect(
      release('clave-4', { serverUrl: 'http://127.0.0.1:9', waitMs: 0 }),
    ).resolves.toEqual({
      result: 'released',
      runId: 'run of lead-release:clave-4',
      takenUp: false,
    });
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('forgets a person as far as Vercel allows, and says the platform keeps the runs', async () => {
    const report = await forget(' ANA@example.mx');
    expect(report).toMatchObject({
      mail: ANA,
      leads: 2,
      cancelled: 1,
      forwards: 1,
      runsDeleted: false,
    });
    expect(report.beyondReach).toContain('vercel-runs');
    // Her live lead and copy stopped: neither is delivered now.
    expect(fake.runs.filter((run) => run.status === 'running').map((run) => run.input[0])).toEqual([
      expect.objectContaining({ key: 'clave-4' }),
    ]);
    // No forgetting run scheduled: on Vercel it could only fail.
    expect(mockStart).not.toHaveBeenCalled();
    expect(beyondReach(report).join('\n')).toMatch(/3 de esta persona .* las guarda Vercel/);
  });
});
