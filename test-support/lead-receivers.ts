import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the webhook receiver got, and what it answered. */
export type WebhookHit = {
  at: number;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  mail?: string;
};
/** One request to the stand-in Graph API's events endpoint. */
export type GraphHit = { at: number; path: string; body: Record<string, unknown> };

/**
 * The agency's webhook receiver and Meta's Graph API, stand-ins on 127.0.0.1
 * for the tests: they keep what they receive. The webhook answers 503 while
 * it is "down" (`downFor`), and holds a request unanswered while `hold` is on.
 */
export async function startLeadReceivers(port = 0) {
  const webhook: WebhookHit[] = [];
  const graph: GraphHit[] = [];
  let downUntil = 0;
  let held: Array<() => void> | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '';
      if (req.method === 'POST' && path === '/webhook') {
        const reply = () => {
          const status = Date.now() < downUntil ? 503 : 200;
          webhook.push({ at: Date.now(), status, headers: req.headers, body, mail: mailOf(body) });
          res.writeHead(status, { 'Content-Type': 'application/json' }).end('{}');
        };
        if (held) held.push(reply);
        else reply();
        return;
      }
      if (req.method === 'POST' && /^\/graph\/v[\d.]+\/\d+\/events$/.test(path)) {
        const parsed = JSON.parse(body) as Record<string, unknown>;
        graph.push({ at: Date.now(), path, body: parsed });
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(
          JSON.stringify({
            events_received: Array.isArray(parsed.data) ? parsed.data.length : 0,
          }),
        );
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    webhookUrl: `${url}/webhook`,
    graphUrl: `${url}/graph`,
    webhook,
    graph,
    /** Every webhook request answers 503 for `ms`. */
    downFor: (ms: number) => void (downUntil = Date.now() + ms),
    /** Webhook requests wait unanswered until `release()`. */
    hold: () => void (held ??= []),
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      waiting.forEach((reply) => reply());
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function mailOf(body: string): string | undefined {
  try {
    const mail = (JSON.parse(body) as { data?: { enquiry?: { mail?: unknown } } }).data?.enquiry
      ?.mail;
    return typeof mail === 'string' ? mail : undefined;
  } catch {
    return undefined;
  }
}
