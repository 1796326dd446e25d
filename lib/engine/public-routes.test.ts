/**
 * @jest-environment node
 */
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { NextRequest } from 'next/server';
import { config } from '@/proxy';
import { ENGINE_KEY, ENGINE_KEY_HEADER } from './delivery-key.mjs';
import { guardEngineRoutes } from './public-routes';

const SITE = 'http://localhost:3000';
const FLOW = '/.well-known/workflow/v1/flow';
const STEP = '/.well-known/workflow/v1/step';
const KEY = 'clave-de-esta-puerta';
const keys = globalThis as Record<symbol, unknown>;

const request = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
  new NextRequest(`${SITE}${path}`, {
    method,
    headers,
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
/** What the guard does: 'pass' (on to the route), a status, or 'other' (not the engine's: the rest of the proxy). */
function answer(
  path: string,
  method?: string,
  headers?: Record<string, string>,
): 'pass' | 'other' | number {
  const response = guardEngineRoutes(request(path, method, headers));
  if (!response) return 'other';
  return response.headers.get('x-middleware-next') === '1' ? 'pass' : response.status;
}

describe("the engine's public routes (lib/engine/public-routes.ts)", () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    delete keys[ENGINE_KEY];
  });

  describe('on a server of ours, its door open', () => {
    beforeEach(() => {
      keys[ENGINE_KEY] = KEY;
    });

    it("answers a stranger's health check with a bare 404: no version, no CORS, whatever the method", async () => {
      for (const path of [`${FLOW}?__health`, `${STEP}?__health`, `${FLOW}?x=1&__health=`])
        for (const method of ['GET', 'HEAD', 'POST', 'OPTIONS']) {
          const response = guardEngineRoutes(request(path, method));
          expect([path, method, response?.status]).toEqual([path, method, 404]);
          expect(response?.headers.get('access-control-allow-origin')).toBeNull();
          expect(await response?.text()).toBe('');
        }
      expect(answer(`${FLOW}?__health`, 'POST', { [ENGINE_KEY_HEADER]: 'adivinada' })).toBe(404);
    });

    it("lets through only the door's posts, which carry this process's key (its start-up health check too)", () => {
      const door = { [ENGINE_KEY_HEADER]: KEY };
      expect(answer(FLOW, 'POST', door)).toBe('pass');
      expect(answer(STEP, 'POST', door)).toBe('pass');
      expect(answer(`${FLOW}?__health`, 'POST', door)).toBe('pass');
      expect(answer(FLOW, 'GET', door)).toBe(404);
      expect(answer(FLOW, 'POST')).toBe(404);
      expect(answer(STEP, 'POST', { [ENGINE_KEY_HEADER]: `${KEY}x` })).toBe(404);
    });

    it('answers 404 for the webhook route and every other path under /.well-known/workflow/, key or not', () => {
      for (const path of [
        '/.well-known/workflow/v1/webhook/x1',
        '/.well-known/workflow/v1/webhook/',
        '/.well-known/workflow/v1/manifest.json',
        '/.well-known/workflow/v1/flow/x',
        '/.well-known/workflow',
      ])
        for (const method of ['GET', 'POST', 'DELETE'])
          expect([path, method, answer(path, method, { [ENGINE_KEY_HEADER]: KEY })]).toEqual([
            path,
            method,
            404,
          ]);
    });

    it('leaves every other path to the rest of the proxy', () => {
      for (const path of ['/', '/.well-known/workflowx', '/.well-known/security.txt', '/equipo'])
        expect([path, answer(path)]).toEqual([path, 'other']);
    });
  });

  it('on a server of ours whose door did not open, lets nothing reach the engine', () => {
    expect(answer(FLOW, 'POST')).toBe(404);
    expect(answer(`${FLOW}?__health`)).toBe(404);
  });

  describe("on Vercel (a function's environment: no next.config.ts, no door)", () => {
    beforeEach(() => {
      Object.assign(process.env, {
        VERCEL: '1',
        VERCEL_DEPLOYMENT_ID: 'dpl_123',
        WORKFLOW_TARGET_WORLD: '',
      });
    });

    it("passes every request to the queue's routes to Vercel's world, as before: its deliveries are signed", () => {
      for (const path of [FLOW, STEP])
        expect([
          path,
          answer(path, 'POST', { 'content-type': 'application/cloudevents+json' }),
        ]).toEqual([path, 'pass']);
      expect(answer(`${FLOW}?__health`)).toBe('pass');
    });

    it('still answers 404 for the webhook route, which this site never uses', () => {
      expect(answer('/.well-known/workflow/v1/webhook/x', 'POST')).toBe(404);
    });
  });

  describe("the proxy's matcher", () => {
    const matches = (path: string) =>
      unstable_doesMiddlewareMatch({ config, url: `${SITE}${path}` });

    it("runs the proxy for every request under /.well-known/workflow/, a health check's `?__health` included", () => {
      for (const path of [
        FLOW,
        `${FLOW}?__health`,
        STEP,
        '/.well-known/workflow/v1/webhook/x1',
        '/.well-known/workflow',
      ])
        expect([path, matches(path)]).toEqual([path, true]);
    });

    // A page view of `/` runs the proxy since issue 50 (its A/B variants); the rest of .well-known never does.
    it('keeps the rest of .well-known proxy-free', () => {
      for (const path of ['/.well-known/security.txt', '/.well-known/workflowx'])
        expect([path, matches(path)]).toEqual([path, false]);
    });
  });
});
