/**
 * @jest-environment node
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { harnessJson, harnessRequest } from './harness-request';

/** A server that drops the first `drops` requests' sockets without answering, then answers `{"ok":true}`. */
async function flakyServer(drops: number) {
  let seen = 0;
  const server = http.createServer((req, res) => {
    seen += 1;
    if (seen <= drops) req.socket.destroy();
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/__records`,
    seen: () => seen,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe("the harness's own requests", () => {
  it('outlast a socket the server closed, as a busy machine or a stale keep-alive does', async () => {
    const server = await flakyServer(2);
    try {
      await expect(harnessJson('the stub’s records', server.url)).resolves.toEqual({ ok: true });
      expect(server.seen()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('say which request failed, and how, when it fails for good', async () => {
    const server = await flakyServer(99);
    try {
      await expect(
        harnessRequest('the stub’s summary', server.url, { method: 'POST', body: '{}' }),
      ).rejects.toThrow(
        /^the stub’s summary: POST http:\/\/127\.0\.0\.1:\d+\/__records failed 3 times, 5 s each; last: fetch failed \(.*(other side closed|ECONNRESET).*\)$/,
      );
      expect(server.seen()).toBe(3);
    } finally {
      await server.close();
    }
  });
});
