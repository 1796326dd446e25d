import { rmSync } from 'node:fs';
import {
  buildApp,
  startNext,
  startStubApi,
  stopAll,
  type Server,
} from '../../test-support/harness';
import { startSmtpSink } from '../../test-support/smtp-sink';
import { EXPERIMENTS_APP } from './experiments-app';
import { PICTURES_APP } from './pictures-app';
import {
  DATA_DIR,
  E2E_BUILD_ENV,
  E2E_OFF_ENV,
  E2E_OFF_PORT,
  E2E_PORT,
  MAIN_APP,
  NO_TAGS_APP,
  NO_TAGS_BUILD_ENV,
  NO_TAGS_PORT,
  OFF_SERVER_LOG,
  PICTURES_PORT,
  SERVER_LOG,
  SMTP_HTTP_PORT,
  SMTP_PORT,
  STUB_PORT,
} from './test-env';

/**
 * The servers every local run needs, started once before the first test and
 * stopped after the last (test-support/harness.ts builds each build once):
 * - the stub contact API and the agency's mail server (alerts), 127.0.0.1 only;
 * - the end-to-end build twice: with the local world (files under e2e/.data/main),
 *   and with an engine that cannot hold anything; their output goes to
 *   e2e/.server*.log, which tests read to check what is logged;
 * - the build with every third-party ID empty (conversions.spec.ts);
 * - the build with the agency's large pictures (pictures.spec.ts);
 * - the build with an experiment running, not started (experiments.spec.ts starts its own servers). Built here, before
 *   any test: built by its spec, its `next build` took both cores for 4 to 6 minutes in the middle of the timed flows
 *   (CI run 16: a cold PostgreSQL server of engine-seal.spec.ts then took more than the form's 3.6 s to hold a lead).
 */
export default async function globalSetup(): Promise<(() => Promise<void>) | void> {
  for (const old of [DATA_DIR, SERVER_LOG, OFF_SERVER_LOG])
    rmSync(old, { recursive: true, force: true });
  const servers: Server[] = [];
  const sink = await startSmtpSink(
    { user: 'avisos', pass: 'secreto-e2e' },
    { port: SMTP_PORT, httpPort: SMTP_HTTP_PORT },
  );
  const stop = async () => {
    await stopAll(servers);
    await sink.stop();
  };
  try {
    servers.push(await startStubApi(STUB_PORT));
    const main = await buildApp(MAIN_APP);
    servers.push(await startNext(main, { port: E2E_PORT, env: E2E_BUILD_ENV, log: SERVER_LOG }));
    servers.push(
      await startNext(main, { port: E2E_OFF_PORT, env: E2E_OFF_ENV, log: OFF_SERVER_LOG }),
    );
    servers.push(
      await startNext(await buildApp(NO_TAGS_APP), { port: NO_TAGS_PORT, env: NO_TAGS_BUILD_ENV }),
    );
    servers.push(
      await startNext(await buildApp(PICTURES_APP), {
        port: PICTURES_PORT,
        env: PICTURES_APP.publicEnv,
      }),
    );
    await buildApp(EXPERIMENTS_APP);
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
