/** @jest-environment node */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ISOLATED_KEYS, LEFT_UNSET, isolatedEnv, isolatedProcessEnv } from './isolated-env';

// The variables lib/env/ reads: the keys of its zod schemas and `source.X`.
function variablesTheSiteReads(): string[] {
  const names = new Set<string>();
  const dir = path.join(__dirname, '..', 'lib', 'env');
  for (const file of readdirSync(dir).filter(
    (name) => name.endsWith('.ts') && !name.includes('.test.'),
  )) {
    const source = readFileSync(path.join(dir, file), 'utf8');
    for (const [, name] of source.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) names.add(name!);
    for (const [, name] of source.matchAll(/source\.([A-Z][A-Z0-9_]+)/g)) names.add(name!);
  }
  return [...names].sort();
}

describe('the test servers’ isolated environment', () => {
  it('names every variable the site reads, so none can come from a .env file', () => {
    const read = variablesTheSiteReads();
    expect(read).toEqual(
      expect.arrayContaining(['REDIS_URL', 'CONTACT_API_BASE_URL', 'NEXT_PUBLIC_SITE_URL']),
    );
    expect(
      read.filter((name) => !ISOLATED_KEYS.includes(name) && !LEFT_UNSET.includes(name)),
    ).toEqual([]);
  });

  it("keeps the stores, the engine's world, the contact API and the mail server empty unless a launcher sets them", () => {
    const env = isolatedEnv({ CONTACT_API_BASE_URL: 'http://127.0.0.1:3199/api/' });
    expect(env).toMatchObject({
      REDIS_URL: '',
      WORKFLOW_TARGET_WORLD: '',
      WORKFLOW_POSTGRES_URL: '',
      ALERT_SMTP_URL: '',
      VERCEL: '',
      CONTACT_API_BASE_URL: 'http://127.0.0.1:3199/api/',
    });
  });

  it('refuses a misspelt variable rather than leaving the real one to a .env file', () => {
    expect(() => isolatedEnv({ REDIS_ULR: 'redis://127.0.0.1:1' })).toThrow(/REDIS_ULR/);
  });

  it('hands spawned servers the shell’s system variables and nothing else of it', () => {
    process.env.SOME_CLOUD_TOKEN = 'secreto';
    try {
      const env = isolatedProcessEnv();
      expect(env.PATH).toBe(process.env.PATH);
      expect(env).not.toHaveProperty('SOME_CLOUD_TOKEN');
    } finally {
      delete process.env.SOME_CLOUD_TOKEN;
    }
  });
});
