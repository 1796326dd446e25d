import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { readRawMail, type RawMail } from './raw-mail';

/** A real SMTP server on a random 127.0.0.1 port that keeps what it receives; `delayMs`: each mail's DATA is answered that late. */
export async function startSmtpSink(credentials = { user: 'avisos', pass: 'secreto-de-prueba' }, { delayMs = 0 } = {}) {
  const mails: Array<RawMail & { envelopeTo: string[] }> = [];
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
      if (auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(new Error('credenciales inválidas'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ ...readRawMail(Buffer.concat(chunks).toString('utf8')), envelopeTo: session.envelope.rcptTo.map((r) => r.address) });
        setTimeout(() => callback(), delayMs);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://${credentials.user}:${credentials.pass}@127.0.0.1:${port}`,
    mails,
    /** Connections so far: one per e-mail being sent. */
    sessions: () => sessions,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
