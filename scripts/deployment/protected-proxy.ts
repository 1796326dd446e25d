import { randomBytes } from 'node:crypto';
import http from 'node:http';

/** One request as the proxy saw it: its host, its headers, and what it answered. */
export type Recorded = {
  host: string;
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  status: number;
};

const BYPASS = 'x-vercel-protection-bypass';
const SET_COOKIE = 'x-vercel-set-bypass-cookie';
const COOKIE = '_vercel_bypass';

/**
 * A stand-in for Vercel's Deployment Protection in front of `target` (a
 * `next start`), on 127.0.0.1:`port`: a request to its own host passes with
 * the bypass secret in `x-vercel-protection-bypass`, or with the cookie it
 * sets when a request also sends `x-vercel-set-bypass-cookie: true`; anything
 * else gets 401. Requests for any other host get 421 and go nowhere. Every
 * request is recorded, host and headers. The secret never reaches the site.
 */
export async function startProtectedProxy({
  port,
  target,
  secret,
}: {
  port: number;
  target: string;
  secret: string;
}) {
  const records: Recorded[] = [];
  const host = `127.0.0.1:${port}`;
  const cookieValue = randomBytes(16).toString('hex');
  const server = http.createServer((req, res) => {
    const record: Recorded = {
      host: req.headers.host ?? '',
      method: req.method ?? '',
      path: req.url ?? '',
      headers: { ...req.headers },
      status: 0,
    };
    records.push(record);
    const answer = (status: number, body: string) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    };
    if (record.host !== host) return answer(421, 'Misdirected Request');
    const byHeader = req.headers[BYPASS] === secret;
    const byCookie = (req.headers.cookie ?? '').split(/;\s*/).includes(`${COOKIE}=${cookieValue}`);
    if (!byHeader && !byCookie)
      return answer(
        401,
        '<!doctype html><title>Authentication Required</title><h1>Vercel Authentication</h1>',
      );

    const headers: http.OutgoingHttpHeaders = {
      ...req.headers,
      'x-forwarded-for': req.socket.remoteAddress ?? '127.0.0.1',
    };
    delete headers[BYPASS];
    delete headers[SET_COOKIE];
    const upstream = http.request(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers, timeout: 30_000 },
      (answerFromSite) => {
        record.status = answerFromSite.statusCode ?? 502;
        const out = { ...answerFromSite.headers };
        if (byHeader && req.headers[SET_COOKIE] === 'true') {
          out['set-cookie'] = [
            ...(out['set-cookie'] ?? []),
            `${COOKIE}=${cookieValue}; Path=/; HttpOnly; SameSite=Lax`,
          ];
        }
        res.writeHead(record.status, out);
        answerFromSite.pipe(res);
      },
    );
    upstream.on('timeout', () => upstream.destroy(new Error('timeout')));
    upstream.on('error', () => (res.headersSent ? res.destroy() : answer(502, 'Bad Gateway')));
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://${host}`,
    host,
    records,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
