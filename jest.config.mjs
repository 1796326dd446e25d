import nextJest from 'next/jest.js';

const createJestConfig = nextJest({ dir: './' });

/** @type {import('jest').Config} */
const config = {
  testEnvironment: 'jsdom',
  // Most of the suite's time is waiting (timers, a real Redis, retries), not CPU: four at a time on two cores.
  maxWorkers: 4,
  // Each test file's own data folder, and a run that fails if a test wrote into the developer's .inbox/.
  setupFiles: ['<rootDir>/jest.data.ts'],
  globalSetup: '<rootDir>/jest.global-setup.ts',
  globalTeardown: '<rootDir>/jest.global-teardown.ts',
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  // .cache/test-apps/ holds the harness's copies of the project (test-support/harness.ts).
  testPathIgnorePatterns: [
    '<rootDir>/node_modules/',
    '<rootDir>/.next/',
    '<rootDir>/.cache/',
    '<rootDir>/e2e/',
  ],
  modulePathIgnorePatterns: ['<rootDir>/.cache/'],
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/$1',
    // server-only throws outside React Server Components; unit tests import those modules directly.
    '^server-only$': '<rootDir>/jest.server-only.ts',
  },
};

// iron-session 9 and what it imports (cookie 2, iron-webcrypto 2, uint8array-extras) are ES modules only: Node 24
// require()s them, Jest's module system only with --experimental-vm-modules. next/jest compiles no package but those
// its first pattern exempts, so these join them there, and SWC turns them into CommonJS like the project's own files.
const ESM_ONLY = ['iron-session', 'cookie', 'iron-webcrypto', 'uint8array-extras'];
const EXEMPT = '(?!(';

export default async function jestConfig() {
  const resolved = await createJestConfig(config)();
  const [nodeModules, ...others] = resolved.transformIgnorePatterns ?? [];
  if (!nodeModules?.startsWith('/node_modules/') || !nodeModules.includes(EXEMPT))
    throw new Error(
      `jest.config.mjs: next/jest's first transformIgnorePatterns changed: ${nodeModules}`,
    );
  const withEsmOnly = nodeModules.replace(EXEMPT, `${EXEMPT}${ESM_ONLY.join('|')}|`);
  return { ...resolved, transformIgnorePatterns: [withEsmOnly, ...others] };
}
