/**
 * Compiles the ES-module-only packages (NestJS 12 and a few others) to CommonJS for Jest with swc.
 * `createRequire(import.meta.url)` becomes the module's own (Jest) require, so packages it loads
 * share Jest's registry with everything else (swc alone would make it Node's require, and those
 * packages would be loaded a second time outside Jest); swc turns any other `import.meta.url` into
 * the module's file URL.
 */
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const swcJest = require('@swc/jest');

// Part of the cache key, so an edit of this file compiles the packages again.
const SELF = createHash('sha1').update(readFileSync(__filename)).digest('hex');

const OWN_REQUIRE = /\b(?:const|let|var)\s+require\s*=\s*createRequire\(\s*import\.meta\.url\s*\)\s*;?/g;
const CREATE_REQUIRE = /\bcreateRequire\(\s*import\.meta\.url\s*\)/g;

function ownRequire(source) {
  if (!source.includes('import.meta')) return source;
  return source.replace(OWN_REQUIRE, '').replace(CREATE_REQUIRE, 'require');
}

module.exports = {
  createTransformer(options) {
    const swc = swcJest.createTransformer(options);
    return {
      canInstrument: swc.canInstrument,
      process: (source, filename, jestOptions) => swc.process(ownRequire(source), filename, jestOptions),
      getCacheKey: (source, filename, jestOptions) =>
        createHash('sha1')
          .update(swc.getCacheKey(source, filename, jestOptions))
          .update(SELF)
          .digest('hex'),
    };
  },
};
