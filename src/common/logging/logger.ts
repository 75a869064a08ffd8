import { LoggerService } from '@nestjs/common';
import pino, { Logger } from 'pino';

export interface RootLoggerOptions {
  /** 1 (stdout) for the server; the CLI logs to 2 (stderr), keeping stdout for its result. */
  fd?: 1 | 2;
  /**
   * Production's choice: 4 KB buffered and written asynchronously, because a synchronous write per
   * access-log line costs a fast request a large share of its time; call flushLogs() before exiting
   * so the tail is not lost. Off (the default), every line is written as it is logged: outside
   * production a developer reads a sign-in code in the terminal the moment it is sent.
   */
  buffered?: boolean;
}

export function createRootLogger(level: string, { fd = 1, buffered = false }: RootLoggerOptions = {}): Logger {
  const destination = buffered ? pino.destination({ dest: fd, sync: false, minLength: 4096 }) : pino.destination({ dest: fd, sync: true });
  return pino(
    {
      level,
      base: { service: 'ride-hailing' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'refresh_token', 'access_token'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

export function flushLogs(logger: Logger): void {
  try {
    logger.flush();
  } catch {
    // nothing left to flush
  }
}

/**
 * Nest's start-up lines, one per module, controller and route, at debug: at info they bury the lines
 * that matter, and the controller lines name prefixed paths the probes are excluded from (Nest writes
 * `HealthController {/api/v1/health}` for routes served at /health/*). main.ts logs the real addresses.
 */
const BOOT_CHATTER = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'WebSocketsController', 'NestApplication']);

/**
 * Nest's logger interface on top of Fastify's pino. Deliberately no per-request context
 * (AsyncLocalStorage): on Node 20 it installs promise hooks that tax every promise of every request
 * (about 50 µs of CPU per request on the simplest endpoints). Lines about a request carry its id
 * explicitly instead: the access log (Fastify's request logger) and the exception filter.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write(BOOT_CHATTER.has(rest[rest.length - 1] as string) ? 'debug' : 'info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    const logger = this.root;
    if (!logger.isLevelEnabled(level)) return;
    // Nest passes the context (class name) last; an error's stack may come before it.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    if (message instanceof Error) {
      logger[level]({ context, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      const { msg, ...fields } = message as Record<string, unknown>;
      logger[level]({ context, ...fields }, typeof msg === 'string' ? msg : undefined);
    } else {
      logger[level]({ context, stack }, String(message));
    }
  }
}
