/**
 * @jest-environment node
 */
import path from 'node:path';
import { parseRateLimitConfig } from '@/lib/env/server';
import { chooseWorkflowWorld, getWorkflowServerUrl, getWorkflowWorld, SEALED_WORLD_MODULE } from './choose-world';

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
  ])('on Vercel (%s) leaves the platform its own world, unsealed: Vercel signs its deliveries', (name, value) => {
    process.env[name] = value;
    chooseWorkflowWorld();
    expect(process.env.WORKFLOW_TARGET_WORLD).toBeUndefined();
    expect(process.env.ENGINE_WORLD).toBeUndefined();
    process.env.VERCEL = '1';
    expect(getWorkflowWorld()).toEqual({ kind: 'vercel' });
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
