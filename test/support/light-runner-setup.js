/** Set up once per worker of the integration tests (jest-light-runner), after its globals. */
require('./test-timeouts').installTimeouts();
