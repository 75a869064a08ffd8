/** Set up once per worker of the tests that run in plain Node (jest-light-runner), after its globals. */
const { addEventHandler } = require('jest-circus');
const { restoringMocksPerFile } = require('./per-file-mocks');

require('./test-timeouts').installTimeouts();
addEventHandler(restoringMocksPerFile(() => globalThis.jest.restoreAllMocks()));
