import type { App } from '../../src/app';
import { startTestApp } from './test-app';
import { createTestKeys } from './keys';
import { closeRateLimitedApp } from './rate-limited-app';

let shared: App | null = null;

/** The one service instance most test files share, started by the root hooks below on a fresh database. */
export function app(): App {
  if (!shared) throw new Error('the shared test app is not running (root hooks not loaded?)');
  return shared;
}

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(180_000);
    shared = await startTestApp();
    await createTestKeys(shared);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await closeRateLimitedApp();
    await shared?.close();
    shared = null;
  },
};
