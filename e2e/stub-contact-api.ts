// A stand-in for the agency's contact API, for the end-to-end tests. Listens
// on 127.0.0.1 only. It records every attempt it receives and answers from a
// per-enquiry script set by the test (keyed by the enquiry's e-mail, so tests
// running in parallel never see each other's traffic). It honours
// Idempotency-Key: a key it already stored is answered again, never stored twice.
//
//   POST /__scenarios  {"mail": "...", "steps": [step, ...]}   the last step repeats
//   GET  /__records?mail=...   -> {"attempts": [...], "stored": [...]}
//   GET  /__summary   -> {"attempts": n, "storedByMail": {mail: count}, "storedAtByMail": {mail: ms}}   (for the load test)
//   POST /__outage  {"ms": 20000}   every attempt answers 503 for that long (a full outage)
//   POST /__throttle  {"rate": 0.5, "retryAfterSeconds": 120}   that share of attempts answers 429 with Retry-After (rate 0 stops it)
//   GET  /__health
// STUB_FAIL_RATE=0.3 makes 30% of attempts without a script answer 503 (nothing stored).
// STUB_THROTTLE_RATE=0.5 (and STUB_RETRY_AFTER=120, the default) does the same as /__throttle from the start.
// /__summary also counts `throttled` (429s answered), `earlyRetries` (attempts whose
// Idempotency-Key was answered 429 less than its Retry-After before) and `replayed`
// (attempts with a key already stored, answered "ya recibida").
//
// A step: {"status": 503} | {"success": true, "mes": "..."} | {"success": false, "mes": "..."}
//   | {"status": 400, "mes": "..."} | {"hang": true} | {"delayMs": 500, ...another step}
//   | {"status": 200, "raw": "<html>"} | {"status": 200, "bytes": 10485760} | {"destroy": true}
import http, { type IncomingMessage, type ServerResponse } from 'node:http';

type Step = {
  status?: number;
  success?: boolean;
  mes?: string;
  hang?: boolean;
  delayMs?: number;
  raw?: string;
  bytes?: number;
  destroy?: boolean;
};
type Enquiry = { mail?: string; [field: string]: unknown } | null;
type Attempt = {
  at: number;
  siteKey: string | null;
  idempotencyKey?: string;
  contentType?: string;
  body: Enquiry;
};

const port = Number(process.env.STUB_PORT ?? 3199);
const failRate = Number(process.env.STUB_FAIL_RATE ?? 0);
const scenarios = new Map<string | undefined, Step[]>();
const attempts: Attempt[] = [];
const stored = new Map<string | undefined, Enquiry>(); // Idempotency-Key -> enquiry
const storedAt = new Map<string | undefined, number>(); // Idempotency-Key -> Date.now() when first stored
let outageUntil = 0;
let throttleRate = Number(process.env.STUB_THROTTLE_RATE ?? 0);
let retryAfterSeconds = Number(process.env.STUB_RETRY_AFTER ?? 120);
const throttledUntil = new Map<string, number>(); // Idempotency-Key -> when its last Retry-After runs out
let throttled = 0;
let earlyRetries = 0;
let replayed = 0;

const send = (res: ServerResponse, status: number, body: unknown, type = 'application/json') => {
  res.writeHead(status, { 'Content-Type': type });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

async function answer(
  res: ServerResponse,
  step: Step,
  enquiry: Enquiry,
  key: string | undefined,
): Promise<void> {
  if (step.delayMs) await new Promise((resolve) => setTimeout(resolve, step.delayMs));
  if (step.hang) return; // never answers; the socket closes when the client gives up
  if (step.destroy) {
    res.socket?.destroy(); // drops the connection without a word
    return;
  }
  if (step.bytes) {
    res.writeHead(step.status ?? 200, { 'Content-Type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let left = step.bytes;
    const pump = (): void => {
      while (left > 0) {
        const piece = chunk.subarray(0, Math.min(chunk.length, left));
        left -= piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end();
    };
    res.on('error', () => {});
    return pump();
  }
  if (step.raw !== undefined) return send(res, step.status ?? 200, step.raw, 'text/html');
  const status = step.status ?? 200;
  if (status >= 400)
    return send(res, status, step.mes ? { success: false, mes: step.mes } : { error: 'stub' });
  if (step.success === false) return send(res, status, { success: false, mes: step.mes });
  if (!stored.has(key)) {
    stored.set(key, enquiry);
    storedAt.set(key, Date.now());
  }
  return send(res, status, { success: true, mes: step.mes ?? 'Solicitud recibida' });
}

const server = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
  if (req.method === 'GET' && url.pathname === '/__health') return send(res, 200, { ok: true });
  if (req.method === 'POST' && url.pathname === '/__scenarios') {
    const { mail, steps } = JSON.parse(await readBody(req)) as { mail: string; steps: Step[] };
    scenarios.set(mail, steps);
    return send(res, 200, { ok: true });
  }
  if (req.method === 'GET' && url.pathname === '/__records') {
    const mail = url.searchParams.get('mail');
    return send(res, 200, {
      attempts: attempts.filter((a) => a.body?.mail === mail),
      stored: [...stored.entries()]
        .filter(([, e]) => e?.mail === mail)
        .map(([key, enquiry]) => ({ key, enquiry })),
    });
  }
  if (req.method === 'GET' && url.pathname === '/__summary') {
    const storedByMail: Record<string, number> = {};
    const storedAtByMail: Record<string, number | undefined> = {};
    for (const [key, enquiry] of stored) {
      const mail = String(enquiry?.mail);
      storedByMail[mail] = (storedByMail[mail] ?? 0) + 1;
      storedAtByMail[mail] = storedAt.get(key);
    }
    return send(res, 200, {
      attempts: attempts.length,
      storedByMail,
      storedAtByMail,
      throttled,
      earlyRetries,
      replayed,
    });
  }
  if (req.method === 'POST' && url.pathname === '/__outage') {
    const { ms } = JSON.parse(await readBody(req)) as { ms: number };
    outageUntil = Date.now() + Number(ms);
    return send(res, 200, { ok: true });
  }
  if (req.method === 'POST' && url.pathname === '/__throttle') {
    const options = JSON.parse(await readBody(req)) as {
      rate?: number;
      retryAfterSeconds?: number;
    };
    throttleRate = Number(options.rate ?? 0);
    if (options.retryAfterSeconds !== undefined)
      retryAfterSeconds = Number(options.retryAfterSeconds);
    return send(res, 200, { ok: true });
  }
  if (req.method === 'POST' && url.pathname === '/api/contact') {
    const raw = await readBody(req);
    let body: Enquiry = null;
    try {
      body = JSON.parse(raw) as Enquiry;
    } catch {}
    const header = req.headers['idempotency-key'];
    const key = Array.isArray(header) ? header[0] : header;
    const attempt: Attempt = {
      at: Date.now(),
      siteKey: url.searchParams.get('siteKey'),
      idempotencyKey: key,
      contentType: req.headers['content-type'],
      body,
    };
    attempts.push(attempt);
    if (key && Date.now() < (throttledUntil.get(key) ?? 0)) earlyRetries += 1;
    if (Date.now() < outageUntil) return send(res, 503, { error: 'stub: outage' });
    const scripted = scenarios.get(body?.mail);
    if (!scripted && failRate > 0 && Math.random() < failRate)
      return send(res, 503, { error: 'stub: random failure' });
    if (!scripted && throttleRate > 0 && Math.random() < throttleRate) {
      throttled += 1;
      if (key) throttledUntil.set(key, Date.now() + retryAfterSeconds * 1000);
      res.setHeader('Retry-After', String(retryAfterSeconds));
      return send(res, 429, { error: 'stub: too many requests' });
    }
    const steps: Step[] = scripted ?? [{ success: true }];
    const index = attempts.filter((a) => a.body?.mail === body?.mail).length - 1;
    const step = steps[Math.min(index, steps.length - 1)] ?? { success: true };
    if (
      key &&
      stored.has(key) &&
      !step.status &&
      step.success !== false &&
      !step.hang &&
      !step.destroy &&
      step.raw === undefined &&
      !step.bytes
    ) {
      replayed += 1;
      return send(res, 200, { success: true, mes: 'Solicitud ya recibida' });
    }
    return answer(res, step, body, key);
  }
  send(res, 404, { error: 'not found' });
});

server.listen(port, '127.0.0.1', () =>
  console.log(`stub contact API on http://127.0.0.1:${port}/api/`),
);
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => server.close(() => process.exit(0)));
