import { ROOT, startNext } from '../../test-support/harness';

/**
 * Another `next start` of the end-to-end build (global-setup.ts built it), for
 * a test that needs its own settings or must kill the server. `kill` ends its
 * whole process group at once, as a crash would.
 */
export async function startServer(
  port: number,
  env: Record<string, string>,
  log?: string,
): Promise<{ url: string; kill: () => void }> {
  const server = await startNext(ROOT, { port, env, ...(log ? { log } : {}) });
  return { url: server.url, kill: () => void server.stop('SIGKILL') };
}
