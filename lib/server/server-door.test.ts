/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { guardServerDoor } from './server-door';

describe("the server's door", () => {
  const seen: Array<{ method?: string; url?: string; range?: string; ifMatch?: string }> = [];
  let publicDir: string;
  let server: http.Server;
  let undo: () => void;
  let port: number;

  beforeAll(async () => {
    publicDir = mkdtempSync(path.join(tmpdir(), 'public-'));
    mkdirSync(path.join(publicDir, 'images'));
    writeFileSync(path.join(publicDir, 'images', 'logo.svg'), '<svg/>');
    undo = guardServerDoor(publicDir);
    // Stands in for Next: records what reaches it.
    server = http.createServer((request, response) => {
      seen.push({
        method: request.method,
        url: request.url,
        range: request.headers.range,
        ifMatch: request.headers['if-match'],
      });
      response.end('next');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    undo();
    await new Promise((resolve) => server.close(resolve));
    rmSync(publicDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const send = (method: string, url: string, headers: Record<string, string> = {}) =>
    new Promise<{ status?: number; allow?: string; body: string }>((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port, method, path: url, headers },
        (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode, allow: response.headers.allow, body }),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });

  it('refuses TRACE anywhere, and Next never sees it', async () => {
    for (const url of ['/', '/gracias', '/api/contact/token', '/images/logo.svg']) {
      const answer = await send('TRACE', url);
      expect([url, answer.status, answer.body]).toEqual([url, 405, 'Método no permitido.\n']);
    }
    expect(seen).toEqual([]);
  });

  it('refuses the image optimiser a url whose escapes do not decode, and passes every other url on', async () => {
    const answer = await send('GET', '/_next/image?url=%2F%25zz&w=64&q=75');
    expect([answer.status, answer.body]).toEqual([400, 'Solicitud no válida.\n']);
    expect(seen).toEqual([]);
    expect((await send('GET', '/_next/image?url=%2Fimages%2Flogo.svg&w=64&q=75')).body).toBe(
      'next',
    );
    expect((await send('GET', '/gracias?x=%25zz')).body).toBe('next');
  });

  it('refuses other methods than GET and HEAD on a file, and only on a file', async () => {
    for (const url of ['/images/logo.svg', '/images/logo.svg?v=1', '/_next/static/chunks/x.js']) {
      const answer = await send('POST', url);
      expect([url, answer.status, answer.allow]).toEqual([url, 405, 'GET, HEAD']);
    }
    expect(seen).toEqual([]);
    expect((await send('POST', '/gracias')).body).toBe('next');
    expect((await send('DELETE', '/images/otro.svg')).body).toBe('next');
  });

  it("serves a file whole, whatever range or precondition it is asked with, and leaves pages' headers alone", async () => {
    const odd = { range: 'bytes=999999-', 'if-match': '"nada"' };
    await send('GET', '/images/logo.svg', odd);
    await send('GET', '/gracias', odd);
    expect(seen).toEqual([
      { method: 'GET', url: '/images/logo.svg', range: undefined, ifMatch: undefined },
      { method: 'GET', url: '/gracias', range: 'bytes=999999-', ifMatch: '"nada"' },
    ]);
  });
});
