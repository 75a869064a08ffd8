import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { startEmbeddedPostgres } from '../database/embedded-postgres';

export interface ProvisionedDatabase {
  config: AppConfig;
  /** Stops the embedded server; a no-op for an external one. */
  stop(): Promise<void>;
}

/** With DATABASE_URL, use that server; without it, start the embedded PostgreSQL under .data/. */
export async function provisionDatabase(config: AppConfig, logger: Logger): Promise<ProvisionedDatabase> {
  if (config.databaseUrl) return { config, stop: async () => undefined };
  const started = Date.now();
  const embedded = await startEmbeddedPostgres({
    dataDir: config.embeddedPgDataDir,
    port: config.embeddedPgPort,
    log: (line) => logger.debug({ component: 'embedded-postgres' }, line),
  });
  logger.info(
    { port: embedded.port, data_dir: config.embeddedPgDataDir, ms: Date.now() - started },
    `Embedded PostgreSQL started; DATABASE_URL=${embedded.url}`,
  );
  const withUrl = Object.freeze(Object.assign(Object.create(AppConfig.prototype), config, { databaseUrl: embedded.url }));
  return { config: withUrl, stop: () => embedded.stop() };
}
