import { spawn, spawnSync } from 'node:child_process';
import Redis from 'ioredis';

/** A real redis-server on a random 127.0.0.1 port, for one test file. */
export async function startRedisServer(
  port = 6390 + Math.floor(Math.random() * 2000),
): Promise<{ url: string; port: number; stop: () => void }> {
  if (spawnSync('redis-server', ['--version']).status !== 0) {
    throw new Error(
      'redis-server is missing: run scripts/ensure-test-tools.ts (apt-get install redis-server)',
    );
  }
  const server = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  for (let i = 0; i < 50; i++) {
    const probe = new Redis({
      host: '127.0.0.1',
      port,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.ping();
      probe.disconnect();
      return { url: `redis://127.0.0.1:${port}`, port, stop: () => server.kill() };
    } catch {
      probe.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  server.kill();
  throw new Error('redis-server did not start');
}
