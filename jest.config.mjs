import nextJest from 'next/jest.js';

const createJestConfig = nextJest({ dir: './' });

/** @type {import('jest').Config} */
const config = {
  testEnvironment: 'jsdom',
  // Most of the suite's time is waiting (timers, a real Redis, retries), not CPU: four at a time on two cores.
  maxWorkers: 4,
  setupFilesAfterEnv: ['<rootDir>/jest.setup.ts'],
  testPathIgnorePatterns: ['<rootDir>/node_modules/', '<rootDir>/.next/', '<rootDir>/e2e/'],
  moduleNameMapper: {
    '^@/(.*)$': '<rootDir>/$1',
    // server-only throws outside React Server Components; unit tests import those modules directly.
    '^server-only$': '<rootDir>/jest.server-only.ts',
  },
};

export default createJestConfig(config);
