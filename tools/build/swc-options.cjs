// The one SWC configuration, shared by the build (tools/build/build.mjs) and Jest (jest.config.js):
// TypeScript with legacy decorators and their metadata (NestJS injection needs it), CommonJS out,
// and the @tcg/* path aliases of tsconfig.base.json rewritten to relative imports.
const { join } = require('node:path');

const root = join(__dirname, '../..');
const { paths } = require(join(root, 'tsconfig.base.json')).compilerOptions;

module.exports = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
    baseUrl: root,
    paths,
  },
  module: { type: 'commonjs' },
};
