/**
 * @jest-environment node
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const API = { CONTACT_API_BASE_URL: 'http://127.0.0.1:9/api/', CONTACT_SITE_KEY: 'k' };
const ALERTS = { ALERT_SMTP_URL: 'smtp://u:p@127.0.0.1:9', ALERT_EMAIL_TO: 'ventas@agencia.mx', ALERT_EMAIL_FROM: 'avisos@agencia.mx' };
const SERVER_VARIABLES = [
  'CONTACT_API_BASE_URL', 'CONTACT_SITE_KEY', 'CONTACT_INBOX_DIR', 'VERCEL', 'CONTACT_RATE_LIMIT_MAX', 'CONTACT_RATE_LIMIT_WINDOW_SECONDS',
  'REDIS_URL', 'TRUST_PROXY_HEADERS', 'CONTACT_OUTBOX', 'CONTACT_OUTBOX_BACKOFF_SECONDS', 'CRON_SECRET', ...Object.keys(ALERTS),
];

type Line = { level: 'info' | 'warn' | 'error'; text: string };
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  jest.restoreAllMocks();
});

/** The start-up report of a server started with `env`, line by line. */
function report(env: Record<string, string>): Line[] {
  for (const key of SERVER_VARIABLES) delete process.env[key];
  Object.assign(process.env, { CONTACT_INBOX_DIR: mkdtempSync(path.join(tmpdir(), 'startup-')) }, env);
  const lines: Line[] = [];
  for (const level of ['info', 'warn', 'error'] as const) {
    jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push({ level, text: args.join(' ') }));
  }
  jest.isolateModules(() => {
    const { describeContactConfig } = jest.requireActual('./startup') as typeof import('./startup');
    describeContactConfig();
  });
  return lines;
}

const errors = (lines: Line[]) => lines.filter((line) => line.level === 'error').map((line) => line.text);

describe('the start-up report', () => {
  it('names each malformed optional variable as an ERROR, with what was turned off, and goes on', () => {
    const lines = report({ ...API, ...ALERTS, ALERT_SMTP_URL: 'foo', CONTACT_OUTBOX_BACKOFF_SECONDS: 'abc', CRON_SECRET: 's' });
    expect(errors(lines)).toEqual([
      expect.stringMatching(/^\[contacto\] ERROR DE CONFIGURACIÓN: CONTACT_OUTBOX_BACKOFF_SECONDS .*esperas por omisión \(60, 300, 900, 3600, 10800 s\)/),
      expect.stringMatching(/^\[contacto\] ERROR DE CONFIGURACIÓN: ALERT_SMTP_URL debe ser una URL smtp:\/\/ o smtps:\/\/; avisos por correo desactivados/),
    ]);
    // The outbox itself is on.
    expect(lines.map((line) => line.text).join('\n')).toMatch(/Bandeja de salida en archivos/);
  });

  it('a bad REDIS_URL: named once, and the outbox in files', () => {
    const lines = report({ ...API, REDIS_URL: 'localhost:6379', CRON_SECRET: 's' });
    expect(errors(lines)).toEqual([expect.stringMatching(/ERROR DE CONFIGURACIÓN: REDIS_URL .*límite de solicitudes en memoria/)]);
    expect(lines.map((line) => line.text).join('\n')).toMatch(/Bandeja de salida en archivos/);
  });

  it('a broken contact API: an ERROR saying every visitor will see a failure', () => {
    expect(errors(report({ CONTACT_API_BASE_URL: 'https://api.example.mx/api/' }))).toEqual([
      expect.stringMatching(/CONTACT_SITE_KEY está vacía.*El formulario mostrará un error a cada visitante/),
    ]);
  });
});
