import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { isolatedProcessEnv } from '../test-support/isolated-env';

/*
 * `next build` itself stops on a picture lib/content.ts names wrongly, before
 * compiling anything, and says which file and what is wrong. Each case is a
 * copy of what next.config.ts reads (lib/, public/, the config), with one
 * mistake in its lib/content.ts.
 */

const ROOT = process.cwd();

function buildWith(edit: (content: string) => string): { status: number | null; output: string } {
  const project = mkdtempSync(path.join(os.tmpdir(), 'content-check-'));
  try {
    for (const entry of ['lib', 'public', 'next.config.ts', 'package.json', 'tsconfig.json'])
      cpSync(path.join(ROOT, entry), path.join(project, entry), { recursive: true });
    // The check runs before Turbopack, so a link to node_modules is enough here.
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'));
    const content = path.join(project, 'lib/content.ts');
    const edited = edit(readFileSync(content, 'utf8'));
    expect(edited).not.toBe(readFileSync(content, 'utf8'));
    writeFileSync(content, edited);
    const result = spawnSync(path.join(ROOT, 'node_modules/.bin/next'), ['build'], {
      cwd: project,
      env: isolatedProcessEnv({ NEXT_PUBLIC_SITE_URL: 'http://127.0.0.1:3000' }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

test('next build stops on a picture that does not exist, naming it', () => {
  const { status, output } = buildWith((content) =>
    content.replace(
      "'@/public/images/clients/cafe-la-esquina.svg'",
      "'@/public/images/clients/cafe-la-esquina.png'",
    ),
  );
  expect(status).not.toBe(0);
  expect(output).toContain('Hay que corregir las imágenes de lib/content.ts');
  expect(output).toMatch(
    /lib\/content\.ts:\d+ public\/images\/clients\/cafe-la-esquina\.png: el archivo no existe/,
  );
  // It stopped before compiling.
  expect(output).not.toContain('Compiled successfully');
});

test('next build stops on a picture without its alt text, naming it', () => {
  const { status, output } = buildWith((content) =>
    content.replace(
      "{ img: dentalSonrisa, alt: 'Clínica Dental Sonrisa' }",
      '{ img: dentalSonrisa }',
    ),
  );
  expect(status).not.toBe(0);
  expect(output).toMatch(
    /lib\/content\.ts:\d+ public\/images\/clients\/dental-sonrisa\.svg: falta su texto alternativo/,
  );
  expect(output).not.toContain('Compiled successfully');
});
