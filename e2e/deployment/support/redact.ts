import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';

/**
 * The bypass secret travels in request headers, which Playwright's traces
 * record, and the HTML report keeps its data in a zip inside index.html:
 * every file of a run's output is rewritten without it, zips and the
 * report's embedded data included. `findSecret` is the same walk, reading.
 */
export const REDACTED = '[VERCEL_AUTOMATION_BYPASS_SECRET]';
const EMBEDDED =
  /(<template id="playwrightReportBase64">data:application\/zip;base64,)([A-Za-z0-9+/=]+)(<\/template>)/;

type Visit = (bytes: Buffer) => Buffer | null;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

function replaceAll(bytes: Buffer, secret: Buffer): Buffer | null {
  if (bytes.indexOf(secret) === -1) return null;
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(secret); at !== -1; at = bytes.indexOf(secret, from)) {
    parts.push(bytes.subarray(from, at), Buffer.from(REDACTED));
    from = at + secret.length;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/** Runs `visit` on the file's bytes, on each entry of a zip, and on the zip inside the HTML report; returns the new bytes if any changed. */
function walk(bytes: Buffer, visit: Visit): Buffer | null {
  if (bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) {
    const zip = new AdmZip(bytes);
    let changed = false;
    for (const entry of zip.getEntries()) {
      const next = walk(entry.getData(), visit);
      if (next) {
        zip.updateFile(entry, next);
        changed = true;
      }
    }
    return changed ? zip.toBuffer() : null;
  }
  const text = bytes.toString('latin1');
  const embedded = EMBEDDED.exec(text);
  if (embedded) {
    const inner = walk(Buffer.from(embedded[2] ?? '', 'base64'), visit);
    const outer = visit(bytes);
    if (!inner) return outer;
    return Buffer.from(
      text.replace(
        EMBEDDED,
        (_all, open: string, _data, close: string) => `${open}${inner.toString('base64')}${close}`,
      ),
      'latin1',
    );
  }
  return visit(bytes);
}

/** Rewrites every file under `dirs` that holds the secret; returns how many. */
export function redactSecret(dirs: string[], secret: string): number {
  const needle = Buffer.from(secret);
  let count = 0;
  for (const file of dirs.flatMap(files)) {
    const next = walk(readFileSync(file), (bytes) => replaceAll(bytes, needle));
    if (next) {
      writeFileSync(file, next);
      count += 1;
    }
  }
  return count;
}

/** The files under `dirs` that still hold the secret, reading inside zips. */
export function findSecret(dirs: string[], secret: string): string[] {
  const needle = Buffer.from(secret);
  return dirs.flatMap(files).filter((file) => {
    let found = false;
    walk(readFileSync(file), (bytes) => {
      found ||= bytes.indexOf(needle) !== -1;
      return null;
    });
    return found;
  });
}
