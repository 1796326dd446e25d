import nextJest from 'next/jest.js';

const createJestConfig = nextJest({ dir: './' });

/** @type {import('jest').Config} */
const config = {
  testEnvironment: 'jsdom',
  // Most of the suite's time is waiting (timers, a real Redis, retries), not CPU: four at a time on two cores.
  maxWorkers: 4,
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  // .cache/test-apps/ holds the harness's copies of the project (test-support/harness.ts).
  testPathIgnorePatterns: ['<rootDir>/node_modules/', '<rootDir>/.next/', '<rootDir>/.cache/', '<rootDir>/e2e/'],
  modulePathIgnorePatterns: ['<rootDir>/.cache/'],
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/$1',
    // server-only throws outside React Server Components; unit tests import those modules directly.
    '^server-only$': '<rootDir>/jest.server-only.ts',
  },
};

export default createJestConfig(config);
