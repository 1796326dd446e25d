/**
 * @jest-environment node
 */
import path from 'node:path';
import { withWorkflow } from 'workflow/next';
import {
  PHASE_DEVELOPMENT_SERVER,
  PHASE_PRODUCTION_BUILD,
  PHASE_PRODUCTION_SERVER,
} from 'next/constants';
import { parseRateLimitConfig } from '@/lib/env/server';
import {
  chooseWorkflowWorld,
  getWorkflowServerUrl,
  getWorkflowWorld,
  openEngineProblem,
  SEALED_WORLD_MODULE,
} from './choose-world';

const ENGINE_VARS = [
  'VERCEL',
  'VERCEL_DEPLOYMENT_ID',
  'WORKFLOW_TARGET_WORLD',
  'WORKFLOW_LOCAL_DATA_DIR',
  'WORKFLOW_LOCAL_BASE_URL',
  'WORKFLOW_POSTGRES_URL',
  'ENGINE_WORLD',
  'ENGINE_SITE_URL',
  'CONTACT_INBOX_DIR',
  'PORT',
];

describe('the world each platform gets (lib/engine/choose-world.ts)', () => {
  const saved = { ...process.env };
  beforeEach(() => {
    for (const name of ENGINE_VARS) delete process.env[name];
  });
  afterAll(() => {
    process.env = saved;
  });

  it.each([
    ['VERCEL', '1'],
    ['VERCEL_DEPLOYMENT_ID', 'dpl_123'],
  ])(
    'on a Vercel build (%s) leaves the platform its own world, unsealed: Vercel signs its deliveries',
    (name, value) => {
      process.env[name] = value;
      chooseWorkflowWorld(PHASE_PRODUCTION_BUILD);
      expect(process.env.WORKFLOW_TARGET_WORLD).toBeUndefined();
      expect(process.env.ENGINE_WORLD).toBeUndefined();
    },
  );

  it("on a Vercel build as Vercel runs it, hands the SDK Vercel's world (next.config.ts, then withWorkflow())", () => {
    Object.assign(process.env, { VERCEL: '1', VERCEL_DEPLOYMENT_ID: 'dpl_123' });
    chooseWorkflowWorld(PHASE_PRODUCTION_BUILD);
    withWorkflow({});
    expect(process.env.WORKFLOW_TARGET_WORLD).toBe('vercel');
    expect(getWorkflowWorld()).toEqual({ kind: 'vercel' });
  });

  it("in a Vercel function (next.config.ts never runs there) starts nothing of ours: the world is Vercel's", () => {
    Object.assign(process.env, { VERCEL: '1', VERCEL_DEPLOYMENT_ID: 'dpl_123' });
    // A script run there, or the SDK's own choice, leaves it as it is.
    chooseWorkflowWorld();
    expect(getWorkflowWorld()).toEqual({ kind: 'vercel' });
    expect(openEngineProblem()).toBeNull();
  });

  it.each([
    ['next start', PHASE_PRODUCTION_SERVER],
    ['next dev', PHASE_DEVELOPMENT_SERVER],
  ])(
    'seals a server of ours (%s) whatever Vercel variables it was handed, and says so',
    (_, phase) => {
      Object.assign(process.env, { VERCEL: '1', VERCEL_DEPLOYMENT_ID: 'dpl_123' });
      const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
      try {
        chooseWorkflowWorld(phase);
        expect(process.env.WORKFLOW_TARGET_WORLD).toBe(
          path.join(process.cwd(), SEALED_WORLD_MODULE),
        );
        expect(getWorkflowWorld()).toEqual({ kind: 'local', dir: '.inbox/workflow' });
        expect(openEngineProblem()).toBeNull();
        expect(warn.mock.calls.join('\n')).toMatch(
          /servidor es propio .* el motor de entregas se sella/,
        );
      } finally {
        warn.mockRestore();
      }
    },
  );

  it('refuses to start a server of ours whose world it cannot seal, saying why', () => {
    process.env.WORKFLOW_TARGET_WORLD = 'vercel';
    expect(() => chooseWorkflowWorld(PHASE_PRODUCTION_SERVER)).toThrow(
      /el servidor no arranca\. WORKFLOW_TARGET_WORLD=vercel: en un servidor propio/,
    );
    expect(process.env.WORKFLOW_TARGET_WORLD).toBe('vercel');
    // A script (npm run leads) may read such a world: it serves no route.
    expect(() => chooseWorkflowWorld()).not.toThrow();
  });

  it('refuses to start an engine that no one sealed, off Vercel (a server that skipped next.config.ts)', () => {
    expect(openEngineProblem()).toMatch(
      /el servidor no arranca\. El motor de entregas \(local\) no está sellado/,
    );
    process.env.WORKFLOW_TARGET_WORLD = '@workflow/world-postgres';
    expect(openEngineProblem()).toMatch(/\(postgres\) no está sellado/);
    chooseWorkflowWorld(PHASE_PRODUCTION_SERVER);
    expect(openEngineProblem()).toBeNull();
  });

  it("refuses to start Vercel's world where it cannot tell it is on Vercel: a Vercel function always has VERCEL=1", () => {
    // What withWorkflow() makes of a deployment id alone, when next.config.ts did not seal first.
    Object.assign(process.env, {
      VERCEL_DEPLOYMENT_ID: 'dpl_123',
      WORKFLOW_TARGET_WORLD: 'vercel',
    });
    expect(openEngineProblem()).toMatch(/El motor de entregas \(vercel\) no está sellado/);
    process.env.VERCEL = '1';
    expect(openEngineProblem()).toBeNull();
  });

  it('on one machine seals the local world, and the site keeps its own address apart from the deliveries', () => {
    process.env.WORKFLOW_LOCAL_BASE_URL = 'http://127.0.0.1:3000';
    chooseWorkflowWorld();
    expect(process.env.WORKFLOW_TARGET_WORLD).toBe(path.join(process.cwd(), SEALED_WORLD_MODULE));
    expect(process.env.ENGINE_WORLD).toBe('local');
    expect(process.env.WORKFLOW_LOCAL_BASE_URL).toBeUndefined();
    expect(getWorkflowServerUrl()).toBe('http://127.0.0.1:3000');
    expect(getWorkflowWorld()).toEqual({ kind: 'local', dir: '.inbox/workflow' });
    // Twice (next.config.ts, then a script): still the same world.
    chooseWorkflowWorld();
    expect(getWorkflowWorld()).toEqual({ kind: 'local', dir: '.inbox/workflow' });
  });

  it('on several machines seals the Postgres world', () => {
    Object.assign(process.env, {
      WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
      WORKFLOW_POSTGRES_URL: 'postgres://u:p@db/w',
    });
    chooseWorkflowWorld();
    expect(process.env.ENGINE_WORLD).toBe('@workflow/world-postgres');
    expect(getWorkflowWorld()).toEqual({ kind: 'postgres', url: 'postgres://u:p@db/w' });
    // What every instance shares there (the abuse limit, the form's key and spent signatures, the staff's spent links
    // and ended sessions) still lives in that database once the world is sealed, never in each server's memory.
    expect(parseRateLimitConfig(process.env).config.postgresUrl).toBe('postgres://u:p@db/w');
  });
});
