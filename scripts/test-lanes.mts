// Runs npm scripts in lanes: the scripts of a lane one after another, the lanes of a stage side by side,
// the stages (separated by `then`) one after another; each line of output tagged with its script. `npm test`
// is the tools, typecheck, Jest and Playwright, one after another (Jest's tests time out when the machine
// is shared: seen at 3x); then three lanes at once: the stand-in; lint, isolation, quality and load, none
// of which reads a clock against a budget; chaos, which mostly waits (outages, restarts). A lane stops at
// its first failure, and no stage starts after a failed one. It ends with one line per lane: its scripts'
// times and its result. Each lane says at its start which Node its scripts run on, and refuses one older than
// package.json's `engines` (scripts/with-node.sh puts that Node first on PATH): a pass there would prove nothing
// about the Node the site is deployed on.
//   tsx scripts/test-lanes.mts "test:tools lint test:unit" then "test:stand-in test:load" "test:chaos"
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const stages = process.argv
  .slice(2)
  .join('\n')
  .split(/\nthen\n/)
  .map((stage) =>
    stage
      .split('\n')
      .map((lane) => lane.split(' ').filter(Boolean))
      .filter((lane) => lane.length),
  );
if (stages.flat().length === 0)
  throw new Error(
    'usage: tsx scripts/test-lanes.mts "script script…" "script…" [then "script…" …]',
  );

type Ran = { script: string; seconds: number; code: number };
type Lane = { scripts: string[]; ran: Ran[]; node?: string; refused?: boolean };

const engines = (JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } })
  .engines.node;
// The oldest major of `engines` ("24.x", "24.x || 26.x"): the floor.
const floor = Math.min(...engines.split('||').map((range) => Number(/\d+/.exec(range)?.[0])));

/** The Node a lane's scripts get: `node` as their PATH finds it (npm only puts node_modules/.bin before it). */
function laneNode(tag: string): { version: string; ok: boolean } {
  const found = spawnSync('node', ['-v'], { encoding: 'utf8' });
  const version = found.stdout?.trim() || 'none';
  const ok = Number(/^v(\d+)\./.exec(version)?.[1]) >= floor;
  console.log(`${tag} node ${version}`);
  if (!ok)
    console.log(
      `${tag} needs Node ${engines} (package.json's engines): run it as scripts/with-node.sh npm test`,
    );
  return { version, ok };
}

function run(script: string): Promise<Ran> {
  const tag = `[${script.replace(/^test:/, '')}]`;
  const began = Date.now();
  console.log(`${tag} npm run ${script}`);
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (line) => console.log(`${tag} ${line}`));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const seconds = Math.round((Date.now() - began) / 1000);
      console.log(`${tag} ended in ${seconds} s (exit ${code ?? 'by signal'})`);
      resolve({ script, seconds, code: code ?? 1 });
    }),
  );
}

const began = Date.now();
const lanes: Lane[] = stages.flatMap((stage) => stage.map((scripts) => ({ scripts, ran: [] })));
let failed = false;
for (const stage of stages) {
  if (failed) break;
  const ofStage = lanes.filter((lane) => stage.includes(lane.scripts));
  await Promise.all(
    ofStage.map(async (lane) => {
      const node = laneNode(`[${lane.scripts[0]?.replace(/^test:/, '')}]`);
      lane.node = node.version;
      lane.refused = !node.ok;
      if (lane.refused) return void (failed = true);
      for (const script of lane.scripts) {
        const ran = await run(script);
        lane.ran.push(ran);
        if (ran.code !== 0) return void (failed = true);
      }
    }),
  );
}

console.log('\nLanes:');
for (const { scripts, ran, node, refused } of lanes) {
  const times = scripts.map((script) => {
    const done = ran.find((r) => r.script === script);
    return done ? `${script} ${done.seconds} s` : `${script} not run`;
  });
  const broke = ran.find((r) => r.code !== 0);
  const result = refused
    ? `FAILED (node ${node})`
    : broke
      ? `FAILED (${broke.script})`
      : ran.length === scripts.length
        ? 'passed'
        : 'not run';
  console.log(
    `  ${result.padEnd(24)} ${String(ran.reduce((sum, r) => sum + r.seconds, 0)).padStart(4)} s  ${times.join(', ')}` +
      (node ? `  (node ${node})` : ''),
  );
}
console.log(
  `  ${'total'.padEnd(24)} ${String(Math.round((Date.now() - began) / 1000)).padStart(4)} s`,
);
process.exit(failed ? 1 : 0);
