/**
 * Lets a plain Node process load the project's TypeScript: unit and integration tests run in bare
 * Node (jest-light-runner), where Jest's transform does not apply. A `.ts` file is compiled by swc
 * with the same options as Jest's transform, as CommonJS, like the build; the runner imports a
 * test file with `import()`, so a loader hook tells Node's ES module loader that `.ts` is CommonJS,
 * which hands it to the require hook below.
 */
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const { transformSync } = require('@swc/core');
const { typescript } = require('./swc-options');

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), { ...typescript, filename, sourceMaps: 'inline', swcrc: false, configFile: false });
  module._compile(code, filename);
};
Module.register('./typescript-format.mjs', pathToFileURL(__filename));
// Stack traces of failed tests point into the TypeScript, through the inline source maps.
process.setSourceMapsEnabled(true);
