import type { LogLevel } from '../../src/shared/logger';

/** A line the service's logger wrote (src/shared/logger.ts): these fields, then those of its event. */
export interface LogLine {
  time: string;
  level: Exclude<LogLevel, 'silent'>;
  message: string;
  /** The request the line was written for, if any. */
  requestId?: string;
  [field: string]: unknown;
}

/** A logged JSON line, parsed. */
export const parseLogLine = (line: string): LogLine => JSON.parse(line) as LogLine;
