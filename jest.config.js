// @ts-check
/**
 * One Jest run for the whole workspace, so that the integration and end-to-end suites share a
 * single PostgreSQL (the given DATABASE_URL, else an embedded one) prepared once in globalSetup.
 * SWC (same options as the build) also rewrites the @tcg/* aliases, globalSetup included.
 */
/** @type {import('jest').Config} */
const config = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['@swc/jest', require('./tools/build/swc-options.cjs')] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.{spec,integration-spec,e2e-spec}.ts'],
  globalSetup: '<rootDir>/tools/testing/global-setup.ts',
  globalTeardown: '<rootDir>/tools/testing/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};

module.exports = config;
