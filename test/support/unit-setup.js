/**
 * Unit specs have no app to take what Nest's Logger writes (the open-requests index logs its
 * resynchronisations): it is switched off for them, once per worker.
 */
require('@nestjs/common').Logger.overrideLogger(false);
