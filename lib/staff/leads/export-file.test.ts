/**
 * @jest-environment node
 */
import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultExportFile, exportRefusal, writePrivateFile } from './export-file';

/*
 * `npm run leads -- export` writes names, e-mails and phones: never where a
 * commit could carry them. Each test has a repository of its own, in a
 * temporary folder, that ignores private/ as this one ignores .inbox/.
 */

let root: string;
let repo: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'leads-export-')));
  repo = path.join(root, 'proyecto');
  mkdirSync(path.join(repo, 'private'), { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  writeFileSync(path.join(repo, '.gitignore'), 'private/\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('where the dead letters may be exported', () => {
  it('refuses a file inside the repository that git does not ignore, in words the agency reads', () => {
    expect(exportRefusal('no-entregadas.csv', repo)).toMatch(
      /está dentro del repositorio y git no lo ignora/,
    );
    expect(exportRefusal(path.join(repo, 'docs', 'no-entregadas.csv'), repo)).toMatch(
      /dentro del repositorio/,
    );
  });

  it('refuses one reached through a link into the repository', () => {
    symlinkSync(repo, path.join(root, 'atajo'));
    expect(exportRefusal(path.join(root, 'atajo', 'no-entregadas.csv'), repo)).toMatch(
      /dentro del repositorio/,
    );
  });

  it('takes a git-ignored folder inside the repository, and anywhere outside it', () => {
    expect(exportRefusal('private/no-entregadas.csv', repo)).toBeNull();
    expect(exportRefusal(path.join(root, 'no-entregadas.csv'), repo)).toBeNull();
    expect(exportRefusal(defaultExportFile(), repo)).toBeNull();
  });

  it('refuses anything inside a project with no git to ask', () => {
    const copy = path.join(root, 'copia');
    mkdirSync(copy);
    expect(exportRefusal('no-entregadas.csv', copy)).toMatch(/no se pudo consultar git/);
  });
});

describe('the exported file', () => {
  it('is its owner’s alone, and never written over an existing file', () => {
    const file = path.join(root, 'no-entregadas.csv');
    writePrivateFile(file, 'Clave\r\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(() => writePrivateFile(file, 'otra')).toThrow(
      expect.objectContaining({ code: 'EEXIST' }),
    );
    expect(readFileSync(file, 'utf8')).toBe('Clave\r\n');
  });
});
