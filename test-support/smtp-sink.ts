import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { readRawMail, type RawMail } from './raw-mail';

type Options = {
  /** Each mail's DATA is answered this late (a slow mail server). */
  delayMs?: number;
  /** 0: any free port. */
  port?: number;
  /** Also shows what it received over HTTP, for tests in other processes: GET /__mails -> [{to, raw}], GET /__health. */
  httpPort?: number;
};

/** A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps what it receives. */
export async function startSmtpSink(
  credentials = { user: 'avisos', pass: 'secreto-de-prueba' },
  { delayMs = 0, port = 0, httpPort }: Options = {},
) {
  const mails: Array<RawMail & { envelopeTo: string[]; raw: string }> = [];
  let sessions = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onConnect(_session, callback) {
      sessions += 1;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === credentials.user && auth.password === credentials.pass)
        callback(null, { user: auth.username });
      else callback(new Error('credenciales inválidas'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          ...readRawMail(raw),
          raw,
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
        });
        setTimeout(() => callback(), delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const control =
    httpPort === undefined
      ? null
      : http.createServer((req, res) => {
          const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
          res.setHeader('Content-Type', 'application/json');
          if (path === '/__health') return res.end('{"ok":true}');
          if (path === '/__mails')
            return res.end(
              JSON.stringify(mails.map((mail) => ({ to: mail.envelopeTo, raw: mail.raw }))),
            );
          res.statusCode = 404;
          res.end('{}');
        });
  if (control) await new Promise<void>((resolve) => control.listen(httpPort, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${bound}`,
    mails,
    /** Connections so far: one per e-mail being sent. */
    sessions: () => sessions,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (control) await new Promise<void>((resolve) => control.close(() => resolve()));
    },
  };
}
