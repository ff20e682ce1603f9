import type { App } from '../../src/app';
import { createTestKeys } from './keys';
import { startTestApp } from './test-app';

let starting: Promise<App> | null = null;

/**
 * A second instance whose every rate class allows 2 requests per key in 2 seconds (a key's window starts at its first
 * request), so a third request at once is refused with Retry-After. Started on first use and shared by the SDKs'
 * retry tests (starting an instance is the slow part); the root hook closes it.
 */
export function rateLimitedApp(): Promise<App> {
  if (!starting) {
    const budget = { limit: 2, windowSeconds: 2 };
    starting = startTestApp({ seedDemoData: false, rateLimits: { reads: budget, search: budget, ai: budget } }).then(
      async (app) => {
        await createTestKeys(app);
        return app;
      },
    );
  }
  return starting;
}

export async function closeRateLimitedApp(): Promise<void> {
  const app = await starting?.catch(() => null);
  starting = null;
  await app?.close();
}
