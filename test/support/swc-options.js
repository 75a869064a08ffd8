/**
 * How swc compiles the project's TypeScript for the tests, in one place: Jest's transform (the
 * sandboxed unit specs, the process and browser tests) and the require hook of the tests that run in
 * plain Node (test/support/register-typescript.js) both use it.
 */
const typescript = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    target: 'es2023',
    // As tsc with experimentalDecorators and emitDecoratorMetadata: Nest and TypeORM read the types.
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
  },
  module: { type: 'commonjs' },
};

const esModules = {
  jsc: { parser: { syntax: 'ecmascript' }, target: 'es2023' },
  // A default import of a CommonJS package is its module.exports, as Node does.
  module: { type: 'commonjs', importInterop: 'node' },
};

module.exports = { typescript, esModules };
