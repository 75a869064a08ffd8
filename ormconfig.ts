import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source-options';
import { embeddedUrlFile, readEmbeddedUrl } from './src/database/embedded-postgres';

/**
 * Data source for the TypeORM CLI (`npm run migration:generate|run|revert`). It needs a running
 * server: DATABASE_URL, or else the embedded one of a running `npm start` (through its URL file).
 */
function resolveUrl(): string {
  const explicit = process.env.DATABASE_URL?.trim();
  if (explicit) return explicit;
  const dataDir = AppConfig.fromEnv().embeddedPgDataDir;
  const url = readEmbeddedUrl(dataDir);
  if (!url) throw new Error(`Set DATABASE_URL, or start the service (npm start) so that ${embeddedUrlFile(dataDir)} exists`);
  return url;
}

export default new DataSource(buildDataSourceOptions(resolveUrl()));
