// @ts-check
/**
 * One Jest run for the whole workspace, so that the integration and end-to-end suites share a
 * single PostgreSQL (the given DATABASE_URL, else an embedded one) prepared once in globalSetup.
 */
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
      // Rewrites @tcg/* to relative paths, also for globalSetup (which ignores moduleNameMapper).
      baseUrl: __dirname,
      paths: require('./tsconfig.base.json').compilerOptions.paths,
    },
    module: { type: 'commonjs' },
  },
];

/** @type {import('jest').Config} */
const config = {
  rootDir: '.',
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/{apps,libs,tools}/**/*.{spec,integration-spec,e2e-spec}.ts'],
  moduleNameMapper: {
    '^@tcg/domain$': '<rootDir>/libs/domain/src/index.ts',
    '^@tcg/pricing-stats$': '<rootDir>/libs/pricing-stats/src/index.ts',
    '^@tcg/persistence$': '<rootDir>/libs/persistence/src/index.ts',
    '^@tcg/persistence/testing$': '<rootDir>/libs/persistence/src/testing/index.ts',
  },
  globalSetup: '<rootDir>/tools/testing/global-setup.ts',
  globalTeardown: '<rootDir>/tools/testing/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};

module.exports = config;
