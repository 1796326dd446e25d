/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

// lib/engine/ reads the engine's internals (docs/operations.md, "Upgrading the engine"): its packages move only
// when someone upgrades them on purpose, never with an `npm update`.
const ENGINE = [
  'workflow',
  '@workflow/core',
  '@workflow/world-local',
  '@workflow/world-postgres',
  '@workflow/errors',
];
const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as {
    version?: string;
    dependencies?: Record<string, string>;
  };

describe("the engine's packages", () => {
  it.each(ENGINE)('%s is pinned to one exact version, the one installed', (name) => {
    const wanted = read('package.json').dependencies?.[name];
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(read(`node_modules/${name}/package.json`).version).toBe(wanted);
  });

  it('are the versions the SDK itself was built with: one copy of each world', () => {
    const core = read('node_modules/@workflow/core/package.json').dependencies ?? {};
    expect(core['@workflow/world-local']).toBe(
      read('package.json').dependencies?.['@workflow/world-local'],
    );
    expect(read('node_modules/workflow/package.json').dependencies?.['@workflow/errors']).toBe(
      read('package.json').dependencies?.['@workflow/errors'],
    );
    // postgres.ts counts graphile-worker's pools: the version the pinned world names, exactly.
    expect(read('node_modules/graphile-worker/package.json').version).toBe(
      read('node_modules/@workflow/world-postgres/package.json').dependencies?.['graphile-worker'],
    );
  });
});
