// Runs npm scripts in lanes: the scripts of a lane one after another, the lanes side by side, each line of
// output tagged with its script. `npm test` runs the isolation and chaos runs beside the stand-in, quality and
// load runs: those two mostly wait (on a delivery, on outages and restarts), the others leave about 30% of the
// machine idle. Exits 1 if any script failed; a lane stops at its first failure.
//   tsx scripts/test-lanes.mts "test:stand-in test:quality test:load" "test:isolation test:chaos"
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const lanes = process.argv.slice(2).map((lane) => lane.split(' ').filter(Boolean));
if (lanes.length === 0) throw new Error('usage: tsx scripts/test-lanes.mts "script script…" "script…"');

function run(script: string): Promise<number> {
  const tag = `[${script.replace(/^test:/, '')}]`;
  const began = Date.now();
  console.log(`${tag} npm run ${script}`);
  const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => console.log(`${tag} ${line}`));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      console.log(`${tag} ended in ${Math.round((Date.now() - began) / 1000)} s (exit ${code ?? 'by signal'})`);
      resolve(code ?? 1);
    }),
  );
}

const failed: string[] = [];
await Promise.all(
  lanes.map(async (lane) => {
    for (const script of lane) {
      if ((await run(script)) === 0) continue;
      failed.push(script);
      return;
    }
  }),
);
if (failed.length) console.log(`\nFailed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
