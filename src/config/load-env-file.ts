import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * Loads ./.env (see .env.example) into process.env when it exists. Variables already set in the
 * environment keep their value, so a deployment's own environment always wins.
 */
export function loadEnvFile(path = resolve('.env')): void {
  if (!existsSync(path)) return;
  const before = { ...process.env };
  process.loadEnvFile(path);
  for (const [name, value] of Object.entries(before)) process.env[name] = value;
}
