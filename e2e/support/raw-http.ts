import { connect } from 'node:net';

/**
 * One HTTP/1.1 request written byte for byte on its own connection, as a script
 * could write it: fetch and Playwright would normalise the method, the target
 * (percent-encoding, `..`) and some headers before sending.
 */
export type RawRequest = {
  method: string;
  /** The request target exactly as sent: a path and query, not checked or encoded. */
  target: string;
  headers?: Array<[string, string]>;
  body?: string | Uint8Array;
};

export type RawAnswer = {
  /** 0 when the connection closed (or timed out) without a status line. */
  status: number;
  headers: Record<string, string>;
  body: string;
};

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = bytes.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = Number.parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

function parse(raw: Buffer): RawAnswer {
  const headEnd = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, headEnd < 0 ? raw.length : headEnd).toString('latin1');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = headEnd < 0 ? Buffer.alloc(0) : raw.subarray(headEnd + 4);
  const body = headers['transfer-encoding']?.includes('chunked') ? dechunk(rest) : rest;
  return { status, headers, body: body.toString('utf8') };
}

/** Sends `request` to 127.0.0.1:`port` with `Connection: close` and reads the whole answer. */
export function sendRaw(port: number, request: RawRequest, timeoutMs = 20_000): Promise<RawAnswer> {
  const body =
    typeof request.body === 'string' ? Buffer.from(request.body) : Buffer.from(request.body ?? []);
  const headers: Array<[string, string]> = [
    ['Host', `127.0.0.1:${port}`],
    ['Connection', 'close'],
    ...(request.headers ?? []),
  ];
  if (
    request.body !== undefined &&
    !headers.some(([name]) => name.toLowerCase() === 'content-length')
  )
    headers.push(['Content-Length', String(body.byteLength)]);
  const head = `${request.method} ${request.target} HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    // Written, not ended: a half-closed connection reads as a client that went away.
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body])),
    );
    const done = () => resolve(parse(Buffer.concat(chunks)));
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (chunk) => chunks.push(chunk));
    // A server may answer and close before it has read the whole body: what it sent is the answer.
    socket.on('error', () => {});
    socket.on('close', done);
  });
}
