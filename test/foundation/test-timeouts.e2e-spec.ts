import { join } from 'node:path';
import { getState } from 'jest-circus';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a JavaScript module of the test set-up, without types
const { withTimeout, TEST_TIMEOUT_MS } = require('../support/test-timeouts') as {
  withTimeout: (fn: () => unknown, ms: number) => () => Promise<unknown>;
  TEST_TIMEOUT_MS: number;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { restoringMocksPerFile } = require('../support/per-file-mocks') as {
  restoringMocksPerFile: (restore: () => void) => (event: unknown, state: object) => void;
};
// eslint-disable-next-line @typescript-eslint/no-require-imports -- as above
const { longestDeclaredTimeout } = require('../support/slow-first-sequencer') as { longestDeclaredTimeout: (path: string) => number };

/** The integration tests' runner calls tests without a timeout; test/support/test-timeouts.js gives them Jest's. */
describe('test timeouts (the light runner)', () => {
  it('a test that never settles fails with Jest’s words once its time is up', async () => {
    const started = Date.now();
    await expect(withTimeout(() => new Promise(() => undefined), 50)()).rejects.toThrow('Exceeded timeout of 50 ms for a test or hook.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('a test that settles in time keeps its result or its error', async () => {
    await expect(withTimeout(() => Promise.resolve(42), 1000)()).resolves.toBe(42);
    await expect(withTimeout(() => Promise.reject(new Error('own failure')), 1000)()).rejects.toThrow('own failure');
    await expect(
      withTimeout(() => {
        throw new Error('thrown at once');
      }, 1000)(),
    ).rejects.toThrow('thrown at once');
  });

  it('this file’s own tests run under it: their functions are the wrapped ones', () => {
    expect(TEST_TIMEOUT_MS).toBe(30_000);
    const [block] = getState().rootDescribeBlock.children;
    expect(block!.type === 'describeBlock' && block!.children.map((t) => (t.type === 'test' ? t.fn.name : t.type))).toEqual(['limited', 'limited', 'limited']);
  });
});

describe('the order of a fresh clone (test/support/slow-first-sequencer.js)', () => {
  it('reads the longest timeout a file declares for its tests, 0 when none', () => {
    expect(longestDeclaredTimeout(join(__dirname, '../bids/crossed-accepts.e2e-spec.ts'))).toBe(180_000);
    expect(longestDeclaredTimeout(join(__dirname, '../foundation/outages.e2e-spec.ts'))).toBe(240_000);
    expect(longestDeclaredTimeout(join(__dirname, '../foundation/reference-docs.e2e-spec.ts'))).toBe(0);
  });
});

describe('spies end with their file (test/support/per-file-mocks.js)', () => {
  it('restores every spy when a new file’s state first appears, and only then', () => {
    const restore = jest.fn();
    const handle = restoringMocksPerFile(restore);
    const [first, second] = [{}, {}];
    handle({ name: 'add_test' }, first);
    handle({ name: 'add_hook' }, first);
    expect(restore).toHaveBeenCalledTimes(1);
    handle({ name: 'start_describe_definition' }, second);
    handle({ name: 'add_test' }, second);
    expect(restore).toHaveBeenCalledTimes(2);
  });
});
