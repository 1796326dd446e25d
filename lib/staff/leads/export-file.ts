// Where `npm run leads -- export` may write the dead letters: a CSV of names,
// e-mails and phones must never land where `git add` would pick it up.
import { spawnSync } from 'node:child_process';
import { closeSync, fchmodSync, openSync, realpathSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Why `file` may not receive the dead letters (Spanish, for the agency), or
 * null when it may: outside the repository that holds `projectDir`, or inside
 * it only where git ignores it (and no tracked file is there).
 */
export function exportRefusal(file: string, projectDir: string): string | null {
  const target = path.join(
    realDir(path.dirname(path.resolve(projectDir, file))),
    path.basename(file),
  );
  const top = spawnSync('git', ['rev-parse', '--show-toplevel'], {
    cwd: projectDir,
    encoding: 'utf8',
  });
  // Without git (a copy with no .git) nothing says what is safe inside the project: all of it is refused.
  const repo = top.status === 0 ? realDir(top.stdout.trim()) : realDir(projectDir);
  const inside = path.relative(repo, target);
  if (inside.startsWith('..') || path.isAbsolute(inside)) return null;
  if (top.status !== 0)
    return `${target} está dentro del proyecto y no se pudo consultar git: elige un archivo fuera de ${repo}.`;
  // Exit 0: ignored; 1: not ignored (a commit could carry it); anything else: git could not tell.
  const ignored = spawnSync('git', ['check-ignore', '-q', '--', inside], { cwd: repo });
  if (ignored.status === 0) return null;
  return (
    `${target} está dentro del repositorio y git no lo ignora: con nombres, correos y teléfonos, un commit podría ` +
    `llevárselo. Elige un archivo fuera de ${repo} o en una carpeta ignorada (.inbox/, por ejemplo).`
  );
}

/**
 * The file when none is given: in the OS's temporary folder, because npm runs
 * the script at the repository's root, which git does not ignore (the export
 * would be refused there), and the folder is outside every repository.
 */
export function defaultExportFile(now = new Date()): string {
  return path.join(
    tmpdir(),
    `solicitudes-no-entregadas-${now.toISOString().replace(/[:.]/g, '-')}.csv`,
  );
}

/**
 * Writes `text` to a new file only its owner can read (0600 whatever the
 * umask). Never over an existing file or through a link someone left at that
 * name (the temporary folder is shared): EEXIST then.
 */
export function writePrivateFile(file: string, text: string): void {
  const fd = openSync(file, 'wx', 0o600);
  try {
    fchmodSync(fd, 0o600);
    writeSync(fd, text, null, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The folder with its links resolved (a link into the repository is the repository); as written while missing. */
function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}
