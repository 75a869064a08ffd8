import 'reflect-metadata';
import { Client } from 'pg';
import { createApp } from '../bootstrap/create-app';
import { provisionDatabase, withDatabaseUrl } from '../bootstrap/provision-database';
import { DomainError } from '../common/errors/domain.error';
import { createRootLogger, flushLogs } from '../common/logging/logger';
import { AppConfig, ConfigError } from '../config/app-config';
import { loadEnvFile } from '../config/load-env-file';
import { readEmbeddedUrl } from '../database/embedded-postgres';
import { CliCheckFailed, CliUsageError } from './cli-args';
import { findCommand, helpText } from './commands';

/**
 * `npm run cli -- <command> ...`: operator actions on the service's database. Exit codes: 0 done,
 * 1 refused or failed, 2 bad usage.
 */
async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0])) {
    process.stdout.write(`${helpText()}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const command = findCommand(argv[0]);

  loadEnvFile();
  let config = AppConfig.fromEnv();
  // Quiet unless asked, and on stderr: the command's own line on stdout is the output.
  const logger = createRootLogger(process.env.LOG_LEVEL ? config.logLevel : 'warn', { fd: 2 });
  if (!config.databaseUrl) {
    const running = readEmbeddedUrl(config.embeddedPgDataDir);
    if (running && (await canConnect(running))) config = withDatabaseUrl(config, running);
  }
  const database = await provisionDatabase(config, logger);
  try {
    const app = await createApp(database.config, { logger, openApi: false, operator: true });
    try {
      process.stdout.write(`${await command.run(app, argv.slice(1))}\n`);
      return 0;
    } finally {
      await app.close();
    }
  } finally {
    await database.stop();
    flushLogs(logger);
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof CliUsageError) {
      console.error(`Error: ${err.message}`);
      console.error(err.usage ? `Usage: npm run cli -- ${err.usage}` : `\n${helpText()}`);
      process.exit(2);
    }
    if (err instanceof ConfigError || err instanceof DomainError || err instanceof CliCheckFailed) {
      console.error(`Error: ${err.message}`);
      process.exit(1);
    }
    console.error(err);
    process.exit(1);
  },
);
