import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { isolatedProcessEnv } from '../../test-support/isolated-env.mjs';

/**
 * A `next start` of the e2e build with its own environment, for a test that
 * must kill it. Detached, so the whole process group can be killed by id.
 * Its environment is the isolated one (test-support/isolated-env.mjs) and
 * the shell's system variables, nothing else.
 */
export async function startServer(port: number, env: Record<string, string>): Promise<{ url: string; kill: () => void }> {
  const child: ChildProcess = spawn(path.join('node_modules', '.bin', 'next'), ['start', '--port', String(port), '--hostname', '127.0.0.1'], {
    env: isolatedProcessEnv(env),
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const kill = () => {
    if (child.pid && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {}
    }
  };
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/`)).ok) return { url, kill };
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  kill();
  throw new Error(`next start on ${port} did not answer`);
}
