import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { embeddedUrlFile, startEmbeddedPostgres } from '../database/embedded-postgres';

export interface ProvisionedDatabase {
  config: AppConfig;
  /** Stops the embedded server; a no-op for an external one. */
  stop(): Promise<void>;
}

/** The same configuration with the database URL resolved (AppConfig is frozen). */
export function withDatabaseUrl(config: AppConfig, databaseUrl: string): AppConfig {
  return Object.freeze(Object.assign(Object.create(AppConfig.prototype), config, { databaseUrl })) as AppConfig;
}

/**
 * With DATABASE_URL, use that server; without it, start the embedded PostgreSQL under .data/ and
 * publish its URL in `<data dir>.url` for the operator and TypeORM CLIs while it runs.
 */
export async function provisionDatabase(config: AppConfig, logger: Logger, options: { whileStarting?: () => void } = {}): Promise<ProvisionedDatabase> {
  if (config.databaseUrl) return { config, stop: async () => undefined };
  const started = Date.now();
  const embedded = await startEmbeddedPostgres({
    dataDir: config.embeddedPgDataDir,
    port: config.embeddedPgPort,
    avoidPorts: [config.port],
    log: (line) => logger.debug({ component: 'embedded-postgres' }, line),
    warn: (line) => logger.warn({ component: 'embedded-postgres' }, line),
    whileStarting: options.whileStarting,
  }).catch((err: unknown) => {
    // The Docker image leaves the binaries out (an optional dependency): say what to do instead.
    if (err instanceof Error && /Cannot find (package|module) '@embedded-postgres\//.test(err.message)) {
      throw new Error('DATABASE_URL is not set and this installation has no embedded PostgreSQL (the Docker image carries none): set DATABASE_URL');
    }
    throw err;
  });
  const urlFile = embeddedUrlFile(config.embeddedPgDataDir);
  writeFileSync(urlFile, `${embedded.url}\n`, { mode: 0o600 });
  logger.info(
    { port: embedded.port, data_dir: config.embeddedPgDataDir, url_file: urlFile, ms: Date.now() - started },
    `Embedded PostgreSQL started; DATABASE_URL=${embedded.url}`,
  );
  return {
    config: withDatabaseUrl(config, embedded.url),
    stop: async () => {
      removeUrlFile(urlFile, embedded.url);
      await embedded.stop();
    },
  };
}

/** Only our own URL: a newer server on the same data directory may have replaced the file. */
function removeUrlFile(path: string, url: string): void {
  try {
    if (readFileSync(path, 'utf8').trim() === url) rmSync(path, { force: true });
  } catch {
    // already gone
  }
}
