/**
 * @jest-environment node
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const API = { CONTACT_API_BASE_URL: 'http://127.0.0.1:9/api/', CONTACT_SITE_KEY: 'k' };
const ALERTS = {
  ALERT_SMTP_URL: 'smtp://u:p@127.0.0.1:9',
  ALERT_EMAIL_TO: 'ventas@agencia.mx',
  ALERT_EMAIL_FROM: 'avisos@agencia.mx',
};
const SERVER_VARIABLES = [
  'CONTACT_API_BASE_URL',
  'CONTACT_SITE_KEY',
  'CONTACT_INBOX_DIR',
  'VERCEL',
  'CONTACT_RATE_LIMIT_MAX',
  'CONTACT_RATE_LIMIT_WINDOW_SECONDS',
  'REDIS_URL',
  'TRUST_PROXY_HEADERS',
  'CONTACT_OUTBOX_BACKOFF_SECONDS',
  'CONTACT_FORM_SECRET',
  'WORKFLOW_TARGET_WORLD',
  'WORKFLOW_LOCAL_DATA_DIR',
  'WORKFLOW_POSTGRES_URL',
  'STAFF_EMAILS',
  'STAFF_SESSION_SECRET',
  ...Object.keys(ALERTS),
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
  Object.assign(
    process.env,
    { CONTACT_INBOX_DIR: mkdtempSync(path.join(tmpdir(), 'startup-')) },
    env,
  );
  const lines: Line[] = [];
  for (const level of ['info', 'warn', 'error'] as const) {
    jest
      .spyOn(console, level)
      .mockImplementation((...args: unknown[]) => void lines.push({ level, text: args.join(' ') }));
  }
  jest.isolateModules(() => {
    const { describeContactConfig } = jest.requireActual(
      './startup-report',
    ) as typeof import('./startup-report');
    describeContactConfig();
  });
  return lines;
}

const errors = (lines: Line[]) =>
  lines.filter((line) => line.level === 'error').map((line) => line.text);

describe('the start-up report', () => {
  it('names each malformed optional variable as an ERROR, with what was turned off, and goes on', () => {
    const lines = report({
      ...API,
      ...ALERTS,
      ALERT_SMTP_URL: 'foo',
      CONTACT_OUTBOX_BACKOFF_SECONDS: 'abc',
    });
    expect(errors(lines)).toEqual([
      expect.stringMatching(
        /^\[contacto\] ERROR DE CONFIGURACIÓN: CONTACT_OUTBOX_BACKOFF_SECONDS .*esperas por omisión \(60, 300, 900, 3600, 10800 s\)/,
      ),
      expect.stringMatching(
        /^\[contacto\] ERROR DE CONFIGURACIÓN: ALERT_SMTP_URL debe ser una URL smtp:\/\/ o smtps:\/\/; avisos por correo desactivados/,
      ),
    ]);
    // The engine is still there, with the default waits.
    expect(lines.map((line) => line.text).join('\n')).toMatch(
      /motor de entregas \(Workflow SDK, archivos locales en .*\): esperas de 60, 300, 900, 3600, 10800 s/,
    );
  });

  it('a bad REDIS_URL: named once, and the limit in memory', () => {
    const lines = report({ ...API, REDIS_URL: 'localhost:6379' });
    expect(errors(lines)).toEqual([
      expect.stringMatching(/ERROR DE CONFIGURACIÓN: REDIS_URL .*límite de solicitudes en memoria/),
    ]);
  });

  it('names the world that holds undelivered leads: the local files, or PostgreSQL', () => {
    const engine = (env: Record<string, string>) =>
      report(env)
        .map((line) => line.text)
        .find((text) => text.includes('motor de entregas'));
    expect(
      engine({ ...API, WORKFLOW_TARGET_WORLD: 'local', WORKFLOW_LOCAL_DATA_DIR: '/datos/flujos' }),
    ).toMatch(/archivos locales en \/datos\/flujos/);
    expect(engine({ ...API, WORKFLOW_TARGET_WORLD: '@workflow/world-postgres' })).toMatch(
      /Workflow SDK, PostgreSQL\)/,
    );
  });

  it('a broken contact API: an ERROR saying every visitor will see a failure', () => {
    expect(errors(report({ CONTACT_API_BASE_URL: 'https://api.example.mx/api/' }))).toEqual([
      expect.stringMatching(
        /CONTACT_SITE_KEY está vacía.*El formulario mostrará un error a cada visitante/,
      ),
    ]);
  });

  it('warns once, in every mode, that a self-hosted server without a trusted proxy lets clients pick the address the abuse limit counts', () => {
    const CLIENT_PICKS =
      /^\[contacto\] AVISO: .*X-Forwarded-For.*TRUST_PROXY_HEADERS con el número de proxies/;
    const pickWarnings = (lines: Line[]) =>
      lines.filter((line) => line.level === 'warn' && CLIENT_PICKS.test(line.text));
    // The local inbox, the contact API, a broken contact API, and a malformed count (which falls back to 0).
    const modes: Record<string, string>[] = [
      {},
      API,
      { ...API, ...ALERTS },
      { CONTACT_API_BASE_URL: 'https://api.example.mx/api/' },
      { TRUST_PROXY_HEADERS: 'dos' },
    ];
    for (const env of modes) {
      expect(pickWarnings(report(env))).toHaveLength(1);
    }
  });

  it('says nothing of it behind a trusted proxy (TRUST_PROXY_HEADERS=1) or on Vercel', () => {
    const trusted: Record<string, string>[] = [
      { TRUST_PROXY_HEADERS: '1' },
      { ...API, TRUST_PROXY_HEADERS: '2', ...ALERTS },
      { ...API, VERCEL: '1' },
    ];
    for (const env of trusted) {
      expect(
        report(env)
          .map((line) => line.text)
          .join('\n'),
      ).not.toMatch(/X-Forwarded-For/);
    }
  });

  it('says where suspected spam goes, and which key signs the form: never one derived from the site key', () => {
    const spamLine = (env: Record<string, string>) =>
      report(env)
        .map((line) => line.text)
        .find((text) => text.includes('El formulario se firma'));
    expect(
      report(API)
        .map((line) => line.text)
        .join('\n'),
    ).toMatch(/se aparta 30 días \(npm run leads -- spam/);
    expect(spamLine(API)).toMatch(/clave aleatoria de este proceso: al reiniciar/);
    expect(spamLine({ ...API, REDIS_URL: 'redis://127.0.0.1:9' })).toMatch(
      /clave aleatoria guardada en Redis, la misma en cada instancia/,
    );
    const postgres = {
      WORKFLOW_TARGET_WORLD: '@workflow/world-postgres',
      WORKFLOW_POSTGRES_URL: 'postgres://u:p@127.0.0.1:9/db',
    };
    expect(spamLine({ ...API, ...postgres })).toMatch(/clave aleatoria guardada en PostgreSQL/);
    expect(spamLine({ ...API, CONTACT_FORM_SECRET: 'x'.repeat(32) })).toMatch(
      /se firma con CONTACT_FORM_SECRET/,
    );
    expect(
      report(API)
        .map((line) => line.text)
        .join('\n'),
    ).not.toMatch(/CONTACT_SITE_KEY/);
  });

  it('on Vercel without REDIS_URL, says the experiments and the staff totals are not counted; elsewhere, nothing', () => {
    const countsOff = (env: Record<string, string>) =>
      report(env).filter((line) => line.text.startsWith('[experimentos]'));
    expect(countsOff({ ...API, VERCEL: '1' })).toEqual([
      {
        level: 'warn',
        text: expect.stringMatching(
          /^\[experimentos\] AVISO: cuentas desactivadas\. En Vercel sin REDIS_URL .*REDIS_URL/,
        ),
      },
    ]);
    expect(countsOff({ ...API, VERCEL: '1', REDIS_URL: 'redis://127.0.0.1:9' })).toEqual([]);
    expect(countsOff(API)).toEqual([]);
    expect(countsOff({ ...API, WORKFLOW_TARGET_WORLD: '@workflow/world-postgres' })).toEqual([]);
  });

  it('a CONTACT_FORM_SECRET too short to sign with is named, and a random key used instead', () => {
    const lines = report({ ...API, CONTACT_FORM_SECRET: 'corta' });
    expect(errors(lines)).toEqual([
      expect.stringMatching(/CONTACT_FORM_SECRET debe tener al menos 32 caracteres/),
    ]);
    expect(lines.map((line) => line.text).join('\n')).toMatch(/clave aleatoria de este proceso/);
  });

  it('opens the staff area only where its spent links and ended sessions are shared, and says where, or why not', () => {
    const STAFF = {
      STAFF_EMAILS: 'ventas@agencia.mx',
      STAFF_SESSION_SECRET: 'x'.repeat(32),
      ...ALERTS,
    };
    const staffLine = (env: Record<string, string>) =>
      report({ ...API, ...STAFF, ...env })
        .map((line) => line.text)
        .find((text) => text.startsWith('[equipo]'));
    expect(staffLine({ VERCEL: '1' })).toMatch(
      /^\[equipo\] Área del equipo desactivada \(\/equipo responde 404\):.*REDIS_URL/,
    );
    expect(staffLine({ VERCEL: '1', REDIS_URL: 'redis://127.0.0.1:9' })).toMatch(
      /Área del equipo en \/equipo.*Redis/,
    );
    expect(staffLine({})).toMatch(/Área del equipo en \/equipo.*archivos/);
    expect(staffLine({ WORKFLOW_TARGET_WORLD: 'otro-mundo' })).toMatch(/desactivada.*REDIS_URL/);
  });
});
