/**
 * Lets a plain Node process load the project's TypeScript: unit and integration tests run in bare
 * Node (jest-light-runner), where Jest's transform does not apply. A `.ts` file is compiled by swc
 * with the same options as Jest's transform, as CommonJS, like the build; the runner imports a
 * test file with `import()`, so a loader hook tells Node's ES module loader that `.ts` is CommonJS,
 * which hands it to the require hook below.
 */
const { register } = require('node:module');
const { addHook } = require('pirates');
const { pathToFileURL } = require('node:url');
const { transformSync } = require('@swc/core');
const { typescript } = require('./swc-options');

addHook((code, filename) => transformSync(code, { ...typescript, filename, sourceMaps: 'inline', swcrc: false, configFile: false }).code, {
  exts: ['.ts'],
});
register('./typescript-format.mjs', pathToFileURL(__filename));
// Stack traces of failed tests point into the TypeScript, through the inline source maps.
process.setSourceMapsEnabled(true);
