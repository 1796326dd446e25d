// The engine's private door: the only way into the engine's routes on a server we run ourselves.
//
// The world (local files or PostgreSQL) posts each message it delivers to WORKFLOW_LOCAL_BASE_URL.
// That address is set here to a listener on 127.0.0.1 with a port the system picks at each start,
// which no reverse proxy is told of: it passes the world's posts to the site with this process's
// delivery key, the one header the proxy (lib/engine/public-routes.ts) and the sealed world
// (lib/engine/sealed-world.mjs) accept. The site's public address serves the same routes and
// refuses every message without the key, from anywhere, 127.0.0.1 included (a reverse proxy on
// this machine connects from there too).
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { PROXY_BODY_COPY_BYTES } from '../proxy/too-large';
import { deliverTo } from './choose-world';
import { ENGINE_KEY, ENGINE_KEY_HEADER } from './delivery-key.mjs';

/** The engine's two queue routes: nothing else passes the door. */
const ENGINE_ROUTES = new Set(['/.well-known/workflow/v1/flow', '/.well-known/workflow/v1/step']);
/**
 * A message is a run's input or a step's: a lead is a few kB. The proxy guards the engine's routes
 * (lib/engine/public-routes.ts), and Next copies at most this much of a body for it, passing the route the copy: a
 * bigger message would arrive cut.
 */
const MAX_MESSAGE_BYTES = PROXY_BODY_COPY_BYTES;
/**
 * A delivery runs a replay or a step inline: the steps' own timeouts end them long before (a delivery round is 7.5 s).
 */
const DELIVERY_TIMEOUT_MS = 5 * 60_000;
/** Where `npm run leads` finds the door of the server that shares its local world (lib/engine/door.ts). */
export const DOOR_FILE = 'engine-door.json';

type Door = { url: string; close: () => Promise<void> };

/**
 * Opens the door, points the world's deliveries at it, and returns its
 * address. `site` is where the site itself listens on this machine
 * (http://localhost:PORT). With `localDir`, the door's address is written
 * there for `npm run leads`, which shares the local world's files.
 */
export async function openEngineDoor(site: string, localDir?: string): Promise<Door> {
  const key = randomBytes(32).toString('base64url');
  (globalThis as Record<symbol, unknown>)[ENGINE_KEY] = key;
  const server = http.createServer((req, res) => pass(req, res, new URL(site), key));
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) =>
    server.once('error', reject).listen(0, '127.0.0.1', resolve),
  );
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  deliverTo(url, site);
  if (localDir) writeDoorFile(localDir, url);
  return { url, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Where on the site `requestTarget` points, or null unless it is a plain path there. Node hands over the target as
 * the client wrote it, and `new URL` would take an absolute `http://host/...`, a `//host/...` or a `/\host/...` for
 * another host, with this process's key; the origin is checked as well, since the parser also drops tabs and newlines.
 */
export function ownTarget(requestTarget: string | undefined, site: URL): URL | null {
  if (!requestTarget?.startsWith('/') || /^\/[/\\]/.test(requestTarget)) return null;
  const target = new URL(requestTarget, site);
  return target.origin === site.origin ? target : null;
}

function pass(req: http.IncomingMessage, res: http.ServerResponse, site: URL, key: string): void {
  const target = ownTarget(req.url, site);
  if (!target) {
    res.writeHead(400).end();
    return;
  }
  if (req.method !== 'POST' || !ENGINE_ROUTES.has(target.pathname)) {
    res.writeHead(404).end();
    return;
  }
  if (Number(req.headers['content-length'] ?? 0) > MAX_MESSAGE_BYTES) {
    res.writeHead(413).end();
    return;
  }
  const headers = { ...req.headers, host: target.host, [ENGINE_KEY_HEADER]: key };
  const send = target.protocol === 'https:' ? https.request : http.request;
  const out = send(target, { method: 'POST', headers, timeout: DELIVERY_TIMEOUT_MS }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  // A site that does not answer: the world sees a failed delivery and tries again on its own schedule.
  const fail = (status: number) => {
    if (res.headersSent) res.destroy();
    else res.writeHead(status).end();
  };
  out.on('timeout', () => out.destroy(new Error('timeout')));
  out.on('error', (error) => fail(error.message === 'timeout' ? 504 : 502));
  let bytes = 0;
  req.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_MESSAGE_BYTES) {
      out.destroy();
      fail(413);
    }
  });
  req.pipe(out);
}

/** The address, written whole or not at all, readable by this machine's user only. */
function writeDoorFile(dir: string, url: string): void {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, DOOR_FILE);
  writeFileSync(`${file}.${process.pid}`, JSON.stringify({ url, pid: process.pid }), {
    mode: 0o600,
  });
  renameSync(`${file}.${process.pid}`, file);
}

/**
 * The door of the server that shares the local world in `dir`, for `npm run leads`; undefined when none has opened one.
 */
export function readEngineDoor(dir: string): string | undefined {
  try {
    const { url } = JSON.parse(readFileSync(path.join(dir, DOOR_FILE), 'utf8')) as {
      url?: unknown;
    };
    return typeof url === 'string' && /^http:\/\/127\.0\.0\.1:\d+$/.test(url) ? url : undefined;
  } catch {
    return undefined;
  }
}
