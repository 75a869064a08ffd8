import { Writable } from 'node:stream';
import pino, { Logger } from 'pino';

export interface CapturedLog {
  logger: Logger;
  /** Everything written so far, one JSON line per entry. */
  text(): string;
  lines(): Array<Record<string, unknown>>;
}

/**
 * A pino logger at `trace` (every level) writing synchronously into memory, for tests that read
 * what the service logs. Nest's Logger is process-wide, so every app of a test file that reads the
 * log must be started with the same captured logger.
 */
export function captureLog(level = 'trace'): CapturedLog {
  let text = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  const logger = pino({ level }, sink);
  return {
    logger,
    text: () => text,
    lines: () =>
      text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
