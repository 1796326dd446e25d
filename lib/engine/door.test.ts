/**
 * @jest-environment node
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ENGINE_KEY, ENGINE_KEY_HEADER } from './delivery-key.mjs';
import { openEngineDoor, ownTarget, readEngineDoor } from './door';

type Seen = { method?: string; url?: string; headers: http.IncomingHttpHeaders; body: string };

/** What a request target written by hand gets from `url` (fetch would normalise it to a path first). */
function rawPost(url: string, target: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () =>
      socket.end(
        `POST ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      ),
    );
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

describe("the engine's private door", () => {
  const saved = { ...process.env };
  let site: http.Server;
  let siteUrl: string;
  const seen: Seen[] = [];
  let dir: string;

  beforeAll(async () => {
    site = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    seen.length = 0;
    dir = mkdtempSync(path.join(os.tmpdir(), 'puerta-'));
  });
  afterEach(() => {
    process.env = { ...saved };
    rmSync(dir, { recursive: true, force: true });
  });
  afterAll(() => new Promise((resolve) => site.close(resolve)));

  it("passes the engine's messages to the site with this process's key, and points the world's deliveries at itself", async () => {
    const door = await openEngineDoor(siteUrl, dir);
    try {
      expect(process.env.WORKFLOW_LOCAL_BASE_URL).toBe(door.url);
      expect(door.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const answer = await fetch(`${door.url}/.well-known/workflow/v1/step`, {
        method: 'POST',
        headers: {
          'x-vqs-queue-name': '__wkf_step_x',
          [ENGINE_KEY_HEADER]: 'lo-que-diga-quien-llama',
        },
        body: '{"stepId":"s"}',
      });
      expect(answer.status).toBe(200);
      const [message] = seen;
      expect(message?.url).toBe('/.well-known/workflow/v1/step');
      expect(message?.body).toBe('{"stepId":"s"}');
      expect(message?.headers['x-vqs-queue-name']).toBe('__wkf_step_x');
      const key = (globalThis as Record<symbol, unknown>)[ENGINE_KEY];
      expect(typeof key).toBe('string');
      expect(message?.headers[ENGINE_KEY_HEADER]).toBe(key);
    } finally {
      await door.close();
    }
  });

  it('lets nothing else through: other paths and methods are refused before the site sees them', async () => {
    const door = await openEngineDoor(siteUrl, dir);
    try {
      for (const [method, route] of [
        ['POST', '/'],
        ['GET', '/.well-known/workflow/v1/flow'],
        ['POST', '/.well-known/workflow/v1/webhook/x'],
        ['POST', '/.well-known/workflow/v1/flow/../../'],
      ]) {
        expect(
          (
            await fetch(`${door.url}${route}`, {
              method,
              ...(method === 'POST' ? { body: 'x' } : {}),
            })
          ).status,
        ).toBe(404);
      }
      expect(seen).toEqual([]);
    } finally {
      await door.close();
    }
  });

  it('sends nothing to another host a request target names, absolute or starting with //', async () => {
    // Another listener on this machine: whatever can reach the door's port must not make it carry the key there.
    const received: http.IncomingHttpHeaders[] = [];
    const elsewhere = http.createServer((req, res) => {
      received.push(req.headers);
      res.writeHead(200).end();
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const other = `127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const door = await openEngineDoor(siteUrl, dir);
    try {
      const route = '/.well-known/workflow/v1/flow';
      const targets = [
        `http://${other}${route}`,
        `//${other}${route}`,
        `http://${other}/`,
        '*',
        `/\\${other}${route}`,
      ];
      const answers = [];
      for (const target of targets) answers.push([target, await rawPost(door.url, target)]);
      expect(received).toEqual([]);
      expect(seen).toEqual([]);
      for (const [target, status] of answers)
        expect([target, status]).toEqual([target, expect.stringMatching(/^HTTP\/1\.1 4\d\d /)]);
    } finally {
      await door.close();
      await new Promise((resolve) => elsewhere.close(resolve));
    }
  });

  it('takes a request target only as a plain path on its own site', () => {
    const site = new URL('http://localhost:3000');
    const route = '/.well-known/workflow/v1/flow';
    expect(ownTarget(route, site)?.href).toBe(`http://localhost:3000${route}`);
    expect(ownTarget(`${route}?__health`, site)?.href).toBe(
      `http://localhost:3000${route}?__health`,
    );
    // Not a plain path, even when it names this very site.
    for (const target of [
      `http://localhost:3000${route}`,
      `//localhost:3000${route}`,
      '*',
      '',
      undefined,
    ])
      expect([target, ownTarget(target, site)]).toEqual([target, null]);
    // A plain path to the eye that the URL parser reads as another host: it drops tabs and newlines.
    for (const target of [`/\t/other.example${route}`, `/\n/other.example${route}`])
      expect([target, ownTarget(target, site)]).toEqual([target, null]);
  });

  it('tells a site that does not answer as a failed delivery, for the world to try again', async () => {
    const door = await openEngineDoor('http://127.0.0.1:9', dir);
    try {
      expect(
        (await fetch(`${door.url}/.well-known/workflow/v1/flow`, { method: 'POST', body: '{}' }))
          .status,
      ).toBe(502);
    } finally {
      await door.close();
    }
  });

  it('writes its address for `npm run leads`, readable by its user only', async () => {
    const door = await openEngineDoor(siteUrl, dir);
    try {
      expect(readEngineDoor(dir)).toBe(door.url);
      expect(statSync(path.join(dir, 'engine-door.json')).mode & 0o077).toBe(0);
    } finally {
      await door.close();
    }
    expect(readEngineDoor(path.join(dir, 'ninguna'))).toBeUndefined();
  });
});
