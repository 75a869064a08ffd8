/**
 * Jest's timeouts, for the integration tests: jest-light-runner calls each test and hook without
 * one, so a test that hangs would hang the run. Every test and hook gets its own timeout (the third
 * argument) or the project's, and fails with Jest's words when it runs out.
 */
/** The default for a test or hook that names none (jest.config.js's `testTimeout` too). */
const TEST_TIMEOUT_MS = 30_000;

const timed = new WeakSet();

function withTimeout(fn, ms) {
  const limited = function limited() {
    let timer;
    const expired = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Exceeded timeout of ${ms} ms for a test or hook.`)), ms);
    });
    return Promise.race([Promise.resolve().then(() => fn.call(this)), expired]).finally(() => clearTimeout(timer));
  };
  timed.add(limited);
  return limited;
}

function installTimeouts() {
  require('jest-circus').addEventHandler((event, state) => {
    const block = state.currentDescribeBlock;
    const added = event.name === 'add_test' ? block.children.at(-1) : event.name === 'add_hook' ? block.hooks.at(-1) : undefined;
    if (!added || typeof added.fn !== 'function' || timed.has(added.fn)) return;
    if (added.fn.length > 0) throw new Error('A test or hook takes a `done` callback: return a promise instead');
    added.fn = withTimeout(added.fn, added.timeout ?? TEST_TIMEOUT_MS);
  });
}

module.exports = { TEST_TIMEOUT_MS, installTimeouts, withTimeout };
