import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { buildDataSourceOptions } from './src/database/data-source-options';

/**
 * Data source for the TypeORM CLI (`npm run migration:generate|run|revert`). It needs a running
 * server: set DATABASE_URL, or start the app once (`npm start`) and use the embedded one it prints.
 */
const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to run the TypeORM CLI');

export default new DataSource(buildDataSourceOptions(url));
