import type { App } from '../../src/app';
import { createApiKey } from '../../src/auth/api-keys';
import type { Role } from '../../src/auth/roles';

export type TestKeys = Record<Role, string>;

const byUrl = new Map<string, TestKeys>();

/** Creates one key per role on an app's database and remembers them for requests to that app. */
export async function createTestKeys(app: App): Promise<TestKeys> {
  const keys = {} as TestKeys;
  for (const role of ['viewer', 'analyst', 'admin'] as const)
    keys[role] = (await createApiKey(app.database.dataSource, `test ${role}`, role)).key;
  byUrl.set(app.url, keys);
  return keys;
}

/** The keys made for the app at `url`. */
export function keysFor(url: string): TestKeys {
  const keys = byUrl.get(url);
  if (!keys) throw new Error(`no test keys for ${url}: call createTestKeys(app) first`);
  return keys;
}

/**
 * Headers of a test request: an admin key for the app unless the request brings its own credentials (tests of
 * other features are not about access; the access tests say exactly what they send). `as: null` sends none.
 */
export function withCredentials(url: string, headers: RequestInit['headers'], as: Role | null = 'admin'): Headers {
  const result = new Headers(headers);
  if (as !== null && !result.has('x-api-key') && !result.has('authorization') && !result.has('cookie'))
    result.set('x-api-key', keysFor(url)[as]);
  return result;
}
