import { readdirSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

/**
 * The requests Next answers with a 500 and a stack trace in its log before any code of ours can run, handled at the
 * server's own door (instrumentation.ts installs it when `next start` starts; on Vercel files never reach it):
 * - TRACE: Next builds a fetch Request for the proxy and each route handler, and the Fetch standard forbids TRACE
 *   (undici throws "'TRACE' HTTP method is unsupported."). Refused with a 405, as web servers do anyway: it echoes
 *   the request, cookies included.
 * - A file (public/, /_next/static/) asked with another method, a Range past its end or a failed precondition: Next
 *   means a 405, a 416 or a 412 but renders it with a status page an app/-only build lacks (vercel/next.js#92141). The
 *   405 is sent here; a range or a precondition on a file is dropped, so the file comes whole, as from a server that
 *   supports neither (RFC 9110 lets a server ignore Range).
 * - The image optimiser (/_next/image) asked for a `url` with a broken percent-escape (`%2F%25zz`): Next decodes it
 *   again and throws. Refused with a 400, as it refuses any other url it cannot use.
 * Returns what undoes it.
 */
export function guardServerDoor(publicDir: string): () => void {
  const files = new Set(
    filesUnder(publicDir).map(
      (file) => `/${path.relative(publicDir, file).split(path.sep).join('/')}`,
    ),
  );
  const isFile = (url = '') => {
    const pathname = url.split('?')[0] ?? '';
    return pathname.startsWith('/_next/static/') || files.has(pathname);
  };
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (
    this: http.Server,
    event: string | symbol,
    ...args: unknown[]
  ): boolean {
    const [request, response] = args as [http.IncomingMessage, http.ServerResponse];
    if (event === 'request' && request.method === 'TRACE')
      return refuse(response, 'GET, HEAD, POST');
    if (event === 'request' && !usableImageUrl(request.url)) return badRequest(response);
    if (event === 'request' && isFile(request.url)) {
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return refuse(response, 'GET, HEAD');
      for (const name of ['range', 'if-range', 'if-match', 'if-unmodified-since'])
        delete request.headers[name];
    }
    return Reflect.apply(emit, this, [event, ...args]);
  };
  return () => {
    http.Server.prototype.emit = emit;
  };
}

/** False only for /_next/image with a `url` whose percent-escapes do not decode; anything else is Next's to judge. */
function usableImageUrl(url = ''): boolean {
  if (!url.startsWith('/_next/image?')) return true;
  try {
    const wanted = new URLSearchParams(url.slice(url.indexOf('?') + 1)).getAll('url');
    for (const one of wanted) decodeURIComponent(one);
    return true;
  } catch {
    return false;
  }
}

function badRequest(response: http.ServerResponse): true {
  response.writeHead(400, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
  });
  response.end('Solicitud no válida.\n');
  return true;
}

function refuse(response: http.ServerResponse, allow: string): true {
  // The body, if any, is not read: the connection closes after the answer.
  response.writeHead(405, {
    allow,
    connection: 'close',
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
  });
  response.end('Método no permitido.\n');
  return true;
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
    );
  } catch {
    return [];
  }
}
