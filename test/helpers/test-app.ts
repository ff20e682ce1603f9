import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type AppConfig } from '../../src/config/config';
import { createLogger } from '../../src/shared/logger';
import { startApp, type App } from '../../src/app';

/** Where the suite's database lives: a fresh embedded one, or TEST_DATABASE_URL (set by run-suites for a real server). */
export const TARGET = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';

export const TEST_JWT_SECRET = 'test-secret-of-at-least-thirty-two-bytes!';

export function freshDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'fis-test-'));
}

/** Configuration for a test instance: loopback, a free port, quiet logs, and the suite's database. */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: freshDataDir(),
      DATABASE_URL: process.env.TEST_DATABASE_URL,
      DB_POOL_SIZE: '4',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
      // The suite sends thousands of requests from one address; the rate-limit tests set their own small budgets.
      RATE_LIMIT_READS: '1000000/60',
      RATE_LIMIT_SEARCH: '1000000/60',
      RATE_LIMIT_AI: '1000000/60',
      // Known to the tests, so they can forge tokens that are wrong in exactly one way.
      JWT_SECRET: TEST_JWT_SECRET,
    }),
    ...overrides,
  };
}

export async function startTestApp(overrides: Partial<AppConfig> = {}): Promise<App> {
  const config = testConfig(overrides);
  return startApp(config, createLogger(config.logLevel));
}
