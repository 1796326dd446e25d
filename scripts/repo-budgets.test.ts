/**
 * @jest-environment node
 */
// The size budgets issues 32 and 35 set: the docs short enough to read in ten minutes, and naming nothing that is
// gone. Issue 51 withdrew the line counts of lib/contact and lib/env: a reader's time is the measure, not a count.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..');
const filesUnder = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)],
  );
const PRODUCT = ['lib', 'app', 'components'];
const AGENCY_DOCS = ['contenido.md', 'equipo.md'];
const PRODUCT_FILES = ['proxy.ts', 'instrumentation.ts', 'next.config.ts'];
// proxy.ts's matcher: Next reads it at build as one static string, so it cannot be joined from pieces.
const LONG_ALLOWED = /^\s*'\/\(\(\?!_next\//;

describe('the repository stays within its size budgets', () => {
  it('has no product line over 120 characters (tests aside)', () => {
    const long = [
      ...PRODUCT.flatMap(filesUnder).filter((file) => !file.includes('.well-known')),
      ...PRODUCT_FILES,
    ]
      .filter((file) => /\.(tsx?|mts|mjs)$/.test(file) && !/\.test\./.test(file))
      .flatMap((file) =>
        readFileSync(path.join(ROOT, file), 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            line.length > 120 && !LONG_ALLOWED.test(line) ? [`${file}:${index + 1}`] : [],
          ),
      );
    expect(long).toEqual([]);
  });

  // The agency's own docs, in Spanish (what to edit, how to work the leads), are read by other people, one at a time.
  it('keeps the developer docs within 45,000 bytes, each of the agency’s within 8,000, the README within 5,000', () => {
    const size = (file: string) => statSync(path.join(ROOT, file)).size;
    const [agency, developers] = [AGENCY_DOCS.map((name) => `docs/${name}`), filesUnder('docs')];
    expect(
      developers
        .filter((file) => !agency.includes(file))
        .reduce((sum, file) => sum + size(file), 0),
    ).toBeLessThanOrEqual(45_000);
    expect(agency.map(size).filter((bytes) => bytes > 8_000)).toEqual([]);
    expect(size('README.md')).toBeLessThanOrEqual(5_000);
  });

  // Issue 42: the docs describe a design, not a list of files; what they do name must still be there.
  it('names in the docs and the README only files, folders and headings that exist', () => {
    const docs = ['README.md', ...filesUnder('docs')];
    const everyFile = filesUnder('.').filter(
      (file) => !/^(node_modules|\.next|\.git|\.cache|test-results|playwright-report)\//.test(file),
    );
    const headings = (doc: string) =>
      [...readFileSync(path.join(ROOT, doc), 'utf8').matchAll(/^#+ (.+)$/gm)].map(([, title]) =>
        slug(title ?? ''),
      );
    const missing: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(path.join(ROOT, doc), 'utf8');
      // Links to our own files and their headings: [text](other.md#heading).
      for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target) || target.startsWith('../shared/')) continue;
        const [file = '', anchor] = target.split('#');
        const linked = file ? path.normalize(path.join(path.dirname(doc), file)) : doc;
        if (!existsSync(path.join(ROOT, linked))) missing.push(`${doc}: ${target}`);
        else if (anchor && linked.endsWith('.md') && !headings(linked).includes(anchor))
          missing.push(`${doc}: ${target} (no such heading)`);
      }
      // Paths in code spans (`lib/engine/door.ts`, `lead/workflow.ts`, `rate-limit.ts`): some file of the project ends so.
      for (const [, name = ''] of text.matchAll(
        /`([\w.\-/\[\]]+\.(?:ts|tsx|mts|mjs|md|css|json|yml))`/g,
      )) {
        // A path under a variable (`CONTACT_INBOX_DIR/…`) is made at run time; ../shared/ is beside the project.
        if (/^[A-Z_]+\//.test(name) || name.startsWith('../shared/')) continue;
        if (!everyFile.some((file) => file === name || file.endsWith(`/${name}`)))
          missing.push(`${doc}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

/** A heading's anchor as GitHub makes it. */
function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}
