'use strict';
/** --name value / --name=value / --flag (boolean) parsing; unknown flags are an error. */
function parseArgs(argv, spec) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m || !(m[1] in spec)) throw new Error(`unknown argument ${argv[i]}`);
    const [, name, inline] = m;
    if (spec[name] === 'boolean') out[name] = true;
    else {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      out[name] = spec[name] === 'number' ? Number(value) : value;
      if (spec[name] === 'number' && !Number.isFinite(out[name])) throw new Error(`--${name} must be a number`);
    }
  }
  return out;
}

module.exports = { parseArgs };
