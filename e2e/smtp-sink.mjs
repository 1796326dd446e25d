#!/usr/bin/env node
// The agency's mail server, for the end-to-end tests: a real SMTP server
// (the smtp-server package) on 127.0.0.1 that keeps every message it receives,
// raw, and shows them over HTTP to the tests (which read them with
// test-support/raw-mail.ts).
//
//   GET /__mails   -> [{"to": ["..."], "raw": "..."}]
//   GET /__health
import http from 'node:http';
import { SMTPServer } from 'smtp-server';

const smtpPort = Number(process.env.SMTP_PORT ?? 3196);
const httpPort = Number(process.env.SMTP_HTTP_PORT ?? 3195);
const user = process.env.SMTP_USER ?? 'avisos';
const pass = process.env.SMTP_PASS ?? 'secreto-e2e';
const mails = [];

const smtp = new SMTPServer({
  disabledCommands: ['STARTTLS'],
  allowInsecureAuth: true,
  logger: false,
  onAuth(auth, _session, callback) {
    if (auth.username === user && auth.password === pass) callback(null, { user });
    else callback(new Error('credenciales inválidas'));
  },
  onData(stream, session, callback) {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.on('end', () => {
      mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
      callback();
    });
  },
});

const control = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  res.setHeader('Content-Type', 'application/json');
  if (url.pathname === '/__health') return res.end('{"ok":true}');
  if (url.pathname === '/__mails') return res.end(JSON.stringify(mails));
  res.statusCode = 404;
  res.end('{}');
});

smtp.listen(smtpPort, '127.0.0.1', () => {
  control.listen(httpPort, '127.0.0.1', () => console.log(`SMTP sink on 127.0.0.1:${smtpPort}, mails at :${httpPort}/__mails`));
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => smtp.close(() => control.close(() => process.exit(0))));
