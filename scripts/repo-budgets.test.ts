/**
 * @jest-environment node
 */
// The size budgets issues 32 and 35 set: the contact path stays small enough to read, the docs short enough to
// read in ten minutes, and the code map names every file of lib/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const filesUnder = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
const isSource = (file: string) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file);

describe('the repository stays within its size budgets', () => {
  it('keeps lib/contact, tests aside, within 2,000 lines', () => {
    const lines = filesUnder('lib/contact')
      .filter(isSource)
      .reduce((sum, file) => sum + readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1, 0);
    expect(lines).toBeLessThanOrEqual(2000);
  });

  it('keeps docs/ within 45,000 bytes and the README within 5,000', () => {
    const docs = filesUnder('docs').reduce((sum, file) => sum + statSync(path.join(ROOT, file)).size, 0);
    expect(docs).toBeLessThanOrEqual(45_000);
    expect(statSync(path.join(ROOT, 'README.md')).size).toBeLessThanOrEqual(5_000);
  });

  it('names every file of lib/ in docs/architecture.md', () => {
    const map = readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    // The map names a file by its path under lib/ (`contact/lead/rescue.ts`), or by its name alone where that is unique.
    const unnamed = filesUnder('lib')
      .filter(isSource)
      .map((file) => path.relative('lib', file))
      .filter((file) => !map.includes(`\`${file}\``) && !map.includes(`\`${path.basename(file)}\``));
    expect(unnamed).toEqual([]);
  });
});
