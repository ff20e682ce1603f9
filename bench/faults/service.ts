/** A service under drill: the real `node dist/src/main.js` in its own process, so a crash is seen, not suffered. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateKey } from '../../src/auth/api-keys';
import { Teardown } from '../bench-support';
import { startServiceProcess, type ServiceProcess } from '../../test/helpers/service-process';

/** Rate limits out of the way: a drill measures faults, not the limiter. */
const NO_LIMITS = {
  RATE_LIMIT_READS: '999999999/60',
  RATE_LIMIT_SEARCH: '999999999/60',
  RATE_LIMIT_AI: '999999999/60',
};

export interface DrillService {
  process: ServiceProcess;
  url: string;
  /** An admin API key of the service. */
  key: string;
  /** True once the process has exited. */
  exited(): boolean;
  /**
   * One JSON request with the admin key; resolves with the answer (its body read as the `T` the caller expects, null
   * when it is not JSON), or null when the service did not answer.
   */
  call<T = unknown>(
    method: string,
    route: string,
    body?: unknown,
  ): Promise<{ status: number; headers: Headers; body: T | null } | null>;
  stop(): Promise<void>;
}

export async function startDrillService(env: Record<string, string>): Promise<DrillService> {
  const key = generateKey();
  const service = await startServiceProcess({ LOG_LEVEL: 'warn', ...NO_LIMITS, ...env, ADMIN_API_KEY: key });
  let exited = false;
  void service.exited.then(() => (exited = true));
  return {
    process: service,
    url: service.url,
    key,
    exited: () => exited,
    async call<T>(method: string, route: string, body?: unknown) {
      try {
        const response = await fetch(`${service.url}${route}`, {
          method,
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const answered = (await response.json().catch(() => null)) as T | null;
        return { status: response.status, headers: response.headers, body: answered };
      } catch {
        return null;
      }
    },
    async stop() {
      if (exited) return;
      service.child.kill('SIGTERM');
      await service.exited;
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Milliseconds from `since` until `GET route` answers 200, or null when it has not within `giveUpMs`. */
export async function untilServing(
  service: DrillService,
  route: string,
  since: number,
  giveUpMs = 60_000,
): Promise<number | null> {
  for (;;) {
    if (service.exited()) return null;
    const answer = await service.call('GET', route);
    const elapsed = performance.now() - since;
    if (answer?.status === 200) return elapsed;
    if (elapsed > giveUpMs) return null;
    await sleep(20);
  }
}

/** The environment of a service on its own fresh embedded database, whose folder the teardown removes. */
export function freshEmbeddedDatabase(teardown: Teardown): Record<string, string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-faults-'));
  teardown.add('remove data dir', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  return { DATA_DIR: dataDir, DATABASE_URL: '' };
}

/** Runs a drill's `work` with a teardown that always runs after it; what could not be shut down goes to `notes`. */
export async function withTeardown<T>(notes: string[], work: (teardown: Teardown) => Promise<T>): Promise<T> {
  const teardown = new Teardown();
  try {
    return await work(teardown);
  } finally {
    const failures = await teardown.runAll();
    if (failures.length > 0) notes.push(`teardown: ${failures.join('; ')}`);
  }
}
