import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Unit tests never write into the developer's own data. Without CONTACT_INBOX_DIR the site keeps the local inbox, the
 * local world's runs and the experiments' counts in the project's .inbox/: a test that delivers a lead would add it
 * to the totals /equipo shows on `npm run dev`.
 * - Jest's globalSetup (below) makes one folder for the run, UNIT_DATA_ROOT, and notes what .inbox/ holds;
 * - jest.data.ts gives each test file a CONTACT_INBOX_DIR of its own inside it;
 * - every other temporary folder a test makes goes inside it too (TMPDIR);
 * - the globalTeardown (afterUnitTests) fails the run if .inbox/ changed, and removes the run's folder.
 */
const INBOX = path.join(__dirname, '.inbox');
const BEFORE = Symbol.for('unit-tests.inbox-before');

function listing(): Map<string, string> {
  const files = new Map<string, string>();
  let names: string[] = [];
  try {
    names = readdirSync(INBOX, { recursive: true, encoding: 'utf8' });
  } catch {
    return files; // No .inbox/ yet.
  }
  for (const name of names) {
    const { mtimeMs, size } = statSync(path.join(INBOX, name));
    files.set(name, `${mtimeMs}:${size}`);
  }
  return files;
}

export default function beforeUnitTests(): void {
  (globalThis as Record<symbol, unknown>)[BEFORE] = listing();
  // Set before the workers start: they inherit it.
  const root = mkdtempSync(path.join(tmpdir(), 'unit-data-'));
  process.env.UNIT_DATA_ROOT = root;
  // And every temporary folder a test makes for itself (os.tmpdir() reads TMPDIR), so the run leaves none behind.
  // Others may pass through, not list: the test PostgreSQL runs as the postgres user in a folder of its own here.
  chmodSync(root, 0o711);
  process.env.TMPDIR = root;
}

function failIfWritten(): void {
  const before =
    ((globalThis as Record<symbol, unknown>)[BEFORE] as Map<string, string>) ?? new Map();
  const written = [...listing()]
    .filter(([name, stamp]) => before.get(name) !== stamp)
    .map(([name]) => name);
  if (written.length)
    throw new Error(
      `Unit tests wrote into the project's .inbox/ (the developer's local inbox): ${written.join(', ')}. ` +
        'A test that changes CONTACT_INBOX_DIR must give it a folder of its own (jest.data.ts).',
    );
}

export function afterUnitTests(): void {
  failIfWritten();
  // A write still under way when the last test ends (a count nobody awaited) lands later: checked again at exit.
  process.once('exit', () => {
    rmSync(process.env.UNIT_DATA_ROOT ?? '', { recursive: true, force: true });
    try {
      failIfWritten();
    } catch (error) {
      console.error(String(error));
      process.exitCode = 1;
    }
  });
}
