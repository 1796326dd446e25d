/**
 * @jest-environment node
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * One Node line everywhere a person or a machine reads it: package.json's engines (what Vercel deploys on), the exact
 * Node in .nvmrc (what scripts/with-node.sh fetches, so what CI and the README's commands run on), the README, and
 * .ci/run, which is the README's test command. Then scripts/with-node.sh itself, on a machine of each kind, with
 * stand-in Nodes: no download.
 */
const ROOT = path.join(__dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const pinned = read('.nvmrc').trim();
const major = pinned.split('.')[0];
const readme = read('README.md');
const codeBlockAfter = (heading: string) =>
  new RegExp(`^## ${heading}\\n+\`\`\`bash\\n(.+)\\n\`\`\``, 'm').exec(readme)?.[1] ??
  `(no code block under ${heading})`;

describe('the Node line', () => {
  it('is one major in engines, pinned exactly in .nvmrc', () => {
    expect(engines).toMatch(/^\d+\.x( \|\| \d+\.x)*$/);
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
    // The pin is the oldest line engines allows: the floor is the line the suite proves.
    expect(engines.split(' || ')[0]).toBe(`${major}.x`);
  });

  it("is the one the README names, and the README's commands run on it", () => {
    expect(readme).toContain(`\`engines\`: \`${engines}\``);
    const named = [...readme.matchAll(/\bNode(?:\.js)? (\d+)/g)].map(([, line]) => line);
    expect(new Set(named)).toEqual(new Set([major]));
    for (const heading of ['Run it', 'Test it'])
      for (const command of codeBlockAfter(heading).split('&&'))
        expect(command.trim()).toMatch(/^scripts\/with-node\.sh npm /);
  });

  it("is the one CI runs on: .ci/run is the README's test command", () => {
    const lines = read('.ci/run')
      .split('\n')
      .filter((line) => line && !line.startsWith('#') && !/^(set|cd) /.test(line));
    expect(lines).toEqual([codeBlockAfter('Test it')]);
  });
});

describe('scripts/with-node.sh', () => {
  const platformPackage = `node-${process.platform}-${process.arch}`;
  let root: string;
  let machine: string;

  /** A `node` that answers `-v` with `version` and `-p …` with its major, as the real one does to the script. */
  function standInNode(dir: string, version: string) {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'node');
    const [majorOf] = version.replace(/^v/, '').split('.');
    writeFileSync(
      file,
      `#!/bin/sh\ncase "$1" in -p) echo ${majorOf};; *) echo ${version};; esac\n`,
    );
    chmodSync(file, 0o755);
  }

  /** Runs `with-node.sh node -v` on a machine whose only Node is `machineNode`. */
  function run(machineNode: string, env: Record<string, string> = {}) {
    standInNode(machine, machineNode);
    const result = spawnSync('bash', [path.join(root, 'scripts', 'with-node.sh'), 'node', '-v'], {
      encoding: 'utf8',
      env: { NODE_ENV: 'test', PATH: `${machine}:/usr/bin:/bin`, ...env },
    });
    return { code: result.status, out: result.stdout.trim(), err: result.stderr };
  }

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'with-node-'));
    machine = path.join(root, 'machine-bin');
    mkdirSync(path.join(root, 'scripts'));
    copyFileSync(
      path.join(ROOT, 'scripts', 'with-node.sh'),
      path.join(root, 'scripts', 'with-node.sh'),
    );
    writeFileSync(path.join(root, '.nvmrc'), `${pinned}\n`);
    // The pinned Node as the script leaves it after its one install from the registry.
    standInNode(
      path.join(root, '.cache', 'node', pinned, 'node_modules', platformPackage, 'bin'),
      `v${pinned}`,
    );
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("runs the command on .nvmrc's Node where the machine's is older", () => {
    expect(run('v20.20.2')).toMatchObject({ code: 0, out: `v${pinned}` });
  });

  it('leaves a machine whose Node is the pinned line or newer on its own: the next line is tried there', () => {
    expect(run(`v${major}.0.0`)).toMatchObject({ code: 0, out: `v${major}.0.0` });
    expect(run(`v${Number(major) + 2}.1.0`)).toMatchObject({
      code: 0,
      out: `v${Number(major) + 2}.1.0`,
    });
  });

  it('runs on USE_NODE whatever the machine has, to try another line', () => {
    const next = `${Number(major) + 2}.0.0`;
    standInNode(
      path.join(root, '.cache', 'node', next, 'node_modules', platformPackage, 'bin'),
      `v${next}`,
    );
    expect(run(`v${major}.5.0`, { USE_NODE: next })).toMatchObject({ code: 0, out: `v${next}` });
  });

  it('says what to do when the registry has no such Node, and runs nothing', () => {
    // An npm that finds nothing, as the registry answers a version it lacks.
    mkdirSync(machine, { recursive: true });
    writeFileSync(path.join(machine, 'npm'), '#!/bin/sh\necho "npm error notarget" >&2\nexit 1\n');
    chmodSync(path.join(machine, 'npm'), 0o755);
    const missing = run('v20.20.2', { USE_NODE: '99.0.0' });
    expect(missing.code).toBe(1);
    expect(missing.out).toBe('');
    expect(missing.err).toContain(`install Node ${major} or later`);
  });
});
