import { debugScopeRequestId } from './request-context';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  /** Lines below this level are not written. */
  readonly level: LogLevel;
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * One JSON line per event on stderr, so stdout stays free for the start-up banner and CLI output. A line written
 * for a request carries its `requestId` (the one sent back in X-Request-Id): passed in `fields` by the code that
 * writes it, or, at debug level, taken from the request's debug scope (see request-context).
 */
export function createLogger(
  level: LogLevel,
  sink: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>, message: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    const { requestId = debugScopeRequestId(), ...rest } = fields ?? {};
    sink(`${JSON.stringify({ time: new Date().toISOString(), level: at, message, requestId, ...rest })}\n`);
  };
  return {
    level,
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
  };
}
