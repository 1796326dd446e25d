// Benchmark, not a test: the proxy's own cost per page view of `/` (issue 50), as the median time of many
// plain GETs to `next start`, three builds side by side:
//   - without the proxy on page views of `/` (proxy.ts's matcher without its '/' entry: the site before issue 50);
//   - with it and no experiment running (the project as it ships): it must add next to nothing;
//   - with an experiment running (e2e/support/experiments-app.ts): the cookie, the choice, the rewrite.
// Rounds alternate between the servers so that a busy machine weighs on all three alike. Requests are sequential:
// latency, not throughput. Builds come from the test harness (made once per source state).
//
//   npx tsx scripts/proxy-cost.ts            PROXY_COST_REQUESTS (default 2000) per server and case
//
// On the 2-core test machine, busy with other builds (2026-11), two runs, medians in ms: no proxy on / 7.6 and 6.7;
// proxy, none running 9.3 and 9.3; experiment, first visits 9.3 and 8.9; returning visitors 8.7 and 7.6. So about
// 1-2.5 ms per view of /, which is Next invoking a proxy at all: the proxy's own code, timed alone, is ~15 µs with
// no experiment, ~75 µs for a returning visitor and ~185 µs for a first visit (random id, crawler check, cookie).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXPERIMENTS_APP, EXPERIMENTS_ENV } from '../e2e/support/experiments-app';
import { E2E_BUILD_ENV, MAIN_APP } from '../e2e/support/test-env';
import { buildApp, startNext, stopAll, type AppSpec, type Server } from '../test-support/harness';

const REQUESTS = Math.max(100, Number(process.env.PROXY_COST_REQUESTS ?? 2000));
const ROUNDS = 10;
const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** The site before issue 50: the proxy never sees a plain page view of `/`. */
const BASELINE_APP: AppSpec = {
  name: 'proxy-baseline',
  publicEnv: MAIN_APP.publicEnv,
  prepare: {
    id: "without the '/' matcher entry",
    run: (dir) => {
      const file = path.join(dir, 'proxy.ts');
      const source = readFileSync(file, 'utf8');
      const without = source.replace(/^\s*'\/',\n/m, '');
      if (without === source) throw new Error("proxy.ts has no '/' matcher entry to take out");
      writeFileSync(file, without);
    },
  },
};

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

/** One GET of `/`, read whole; its time in ms and the cookie it set, if any. */
async function get(
  url: string,
  cookie?: string,
): Promise<{ ms: number; setCookie: string | undefined }> {
  const started = performance.now();
  const response = await fetch(`${url}/`, {
    headers: { 'user-agent': CHROME, ...(cookie ? { cookie } : {}) },
    signal: AbortSignal.timeout(15_000),
  });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`${url}/ answered ${response.status}`);
  return {
    ms: performance.now() - started,
    setCookie: response.headers.getSetCookie()[0]?.split(';')[0],
  };
}

type Case = { name: string; url: string; returning: boolean; samples: number[]; cookie?: string };

async function main() {
  const servers: Server[] = [];
  try {
    const [baseline, shipped, experiment] = [
      await buildApp(BASELINE_APP),
      await buildApp(MAIN_APP),
      await buildApp(EXPERIMENTS_APP),
    ];
    // Each its own folder for the engine's files: two servers must not share a local world.
    const start = (dir: string, port: number, env: Record<string, string>) =>
      startNext(dir, { port, env: { ...env, CONTACT_INBOX_DIR: `.cache/proxy-cost/${port}` } });
    servers.push(await start(baseline, 3130 + OFFSET, E2E_BUILD_ENV));
    servers.push(await start(shipped, 3131 + OFFSET, E2E_BUILD_ENV));
    servers.push(await start(experiment, 3132 + OFFSET, EXPERIMENTS_ENV));
    const [before, none, running] = servers as [Server, Server, Server];
    const cases: Case[] = [
      { name: 'no proxy on / (before issue 50)', url: before.url, returning: false, samples: [] },
      { name: 'proxy, no experiment running', url: none.url, returning: false, samples: [] },
      { name: 'proxy, experiment, first visits', url: running.url, returning: false, samples: [] },
      {
        name: 'proxy, experiment, returning visitor',
        url: running.url,
        returning: true,
        samples: [],
      },
    ];
    // Warm every route and the proxy's code caches first.
    for (const one of cases) for (let i = 0; i < 100; i++) await get(one.url, one.cookie);
    const returning = cases[3] as Case;
    returning.cookie = (await get(returning.url)).setCookie;
    for (let round = 0; round < ROUNDS; round++)
      for (const one of cases)
        for (let i = 0; i < REQUESTS / ROUNDS; i++) {
          const { ms, setCookie } = await get(one.url, one.cookie);
          if (one.returning && setCookie) throw new Error('a returning visitor was sent a cookie');
          one.samples.push(ms);
        }
    const base = median(cases[0]?.samples ?? []);
    console.log(
      `Median of ${REQUESTS} sequential GET / per case (ms; difference against no proxy on /):`,
    );
    for (const one of cases) {
      const value = median(one.samples);
      console.log(
        `  ${one.name.padEnd(40)} ${value.toFixed(3)}  (${(value - base >= 0 ? '+' : '') + (value - base).toFixed(3)})`,
      );
    }
  } finally {
    await stopAll(servers);
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
