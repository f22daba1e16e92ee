// @ts-check
/**
 * One Jest run for the whole workspace, in two projects:
 * - `unit`: the *.spec.ts files, which need no server;
 * - `servers`: the *.integration-spec.ts and *.e2e-spec.ts files, which share a single PostgreSQL
 *   (the given DATABASE_URL, else an embedded one) prepared once in globalSetup. Jest runs a
 *   project's globalSetup only when one of its tests is selected, so `npm run test:unit` starts
 *   no database.
 * SWC (same options as the build) also rewrites the @tcg/* aliases, globalSetup included.
 */
const shared = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', require('./tools/build/swc-options.cjs')],
    // Kysely ships ES modules only: Node requires them as they are, Jest's module loader does not.
    '/node_modules/kysely/.+\\.js$': ['@swc/jest', { module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!kysely/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // The TypeScript client is an ES module package: its relative imports name the emitted `.js`
  // file, which Jest finds as the `.ts` beside it.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

/** @type {import('jest').Config} */
const config = {
  testTimeout: 60_000,
  maxWorkers: 2,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools,clients}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'servers',
      testMatch: ['<rootDir>/{apps,libs,tools,clients}/**/*.{integration-spec,e2e-spec}.ts'],
      globalSetup: '<rootDir>/tools/testing/global-setup.ts',
      globalTeardown: '<rootDir>/tools/testing/global-teardown.ts',
    },
  ],
};

module.exports = config;
