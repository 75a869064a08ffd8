import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { provisionDatabase, ProvisionedDatabase } from './bootstrap/provision-database';
import { signInHint } from './bootstrap/sign-in-hint';
import { createRootLogger, flushLogs } from './common/logging/logger';
import { AppConfig, ConfigError } from './config/app-config';
import { loadEnvFile } from './config/load-env-file';

async function main(): Promise<void> {
  let config: AppConfig;
  try {
    loadEnvFile();
    config = AppConfig.fromEnv();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createRootLogger(config.logLevel, { buffered: config.isProduction });
  if (config.jwtSecretGenerated) {
    logger.warn('JWT_SECRET is not set: using a random secret, so tokens do not survive a restart or work across instances');
  }

  let database: ProvisionedDatabase | undefined;
  let app: NestFastifyApplication | undefined;
  let application: ReturnType<typeof loadApplication> | undefined;
  const load = (): ReturnType<typeof loadApplication> => {
    if (!application) {
      application = loadApplication();
      application.catch(() => undefined); // awaited below; a failure is reported there, not as unhandled
    }
    return application;
  };
  const start = async (): Promise<void> => {
    // The application's modules take about as long to load as the embedded PostgreSQL takes to
    // start, in its own process: loaded meanwhile, the first request comes a second or so sooner.
    database = await provisionDatabase(config, logger, { whileStarting: () => void load() });
    const { createApp } = await load();
    app = await createApp(database.config, { logger });
    await app.listen({ port: config.port, host: config.host });
  };

  // Signals are handled from the first moment: one that arrives during start-up waits for it to
  // end, then stops what was started, so an embedded PostgreSQL is never left running.
  let starting: Promise<void> = Promise.resolve();
  let stopping = false;
  let exitCode = 0;
  const shutdown = async (reason: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, 'Shutting down: finishing in-flight requests');
    const deadline = setTimeout(() => {
      logger.error('Shutdown timed out; exiting');
      flushLogs(logger);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    try {
      await starting.catch(() => undefined);
      await app?.close();
      await database?.stop();
      logger.info('Shutdown complete');
      flushLogs(logger);
      process.exit(exitCode);
    } catch (err) {
      logger.error({ err }, 'Shutdown failed');
      flushLogs(logger);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // Last resort for failures no code path caught. A rejected promise nobody awaited loses only the
  // work it belonged to, so the service logs it and keeps serving. After an uncaught exception the
  // process state is unknown (a half-done update, a dead timer): it logs, finishes in-flight
  // requests within SHUTDOWN_TIMEOUT_MS and exits 1 for the supervisor to restart it.
  process.on('unhandledRejection', (reason) => {
    logger.error({ err: reason }, 'Unhandled promise rejection (still serving)');
    flushLogs(logger); // rare, and the buffered line must not wait for 4 kB of later logs
  });
  process.on('uncaughtException', (err) => {
    logger.fatal({ err }, `Uncaught exception: ${err.message}; shutting down`);
    exitCode = 1;
    if (stopping) return; // the shutdown in progress exits, now with code 1
    void shutdown('uncaughtException');
  });

  starting = start();
  try {
    await starting;
  } catch (err) {
    if (stopping) return; // the shutdown in progress cleans up
    logger.fatal({ err }, `Start-up failed: ${err instanceof Error ? err.message : String(err)}`);
    flushLogs(logger);
    await database?.stop().catch(() => undefined);
    process.exit(1);
  }
  if (stopping) return;
  const address = app!.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const { startUpAddresses } = await load();
  logger.info(`Listening on ${config.host}:${port}: ${startUpAddresses(config.host, port)}`);
  const hint = signInHint(config);
  if (hint) logger.info(hint);
  flushLogs(logger); // production's buffer: the line a person waits for must not sit in it
}

/** Everything Nest: imported only once the database is on its way (see start). */
async function loadApplication() {
  const [{ createApp }, { startUpAddresses }] = await Promise.all([import('./bootstrap/create-app'), import('./bootstrap/openapi')]);
  return { createApp, startUpAddresses };
}

void main();
