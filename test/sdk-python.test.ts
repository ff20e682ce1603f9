import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import type { App } from '../src/app';
import { app } from './helpers/shared-app';
import { createTestKeys, keysFor } from './helpers/keys';
import { startTestApp } from './helpers/test-app';

const PYTHON_SDK = path.join(__dirname, '..', '..', 'sdk', 'python');

/** Runs a command without blocking the event loop (the service under test answers from this process). */
export function run(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

export const hasPython = () => spawnSync('python3', ['--version']).status === 0;

describe('Python SDK (sdk/python): its unittest suite against the service', function () {
  this.timeout(180_000);
  let limited: App | undefined;

  before(async function () {
    if (!hasPython()) {
      console.log('    python3 is not installed: the Python SDK tests are skipped');
      this.skip();
    }
    const budget = { limit: 2, windowSeconds: 2 };
    limited = await startTestApp({ seedDemoData: false, rateLimits: { reads: budget, search: budget, ai: budget } });
    await createTestKeys(limited);
  });
  after(() => limited?.close());

  it('passes `python3 -m unittest` with every test run (none skipped)', async () => {
    const keys = keysFor(app().url);
    const { code, output } = await run('python3', ['-m', 'unittest', '-v'], {
      cwd: PYTHON_SDK,
      env: {
        FIS_BASE_URL: app().url, FIS_VIEWER_KEY: keys.viewer, FIS_ANALYST_KEY: keys.analyst, FIS_ADMIN_KEY: keys.admin,
        FIS_LIMITED_URL: limited!.url, FIS_LIMITED_KEY: keysFor(limited!.url).viewer, PYTHONDONTWRITEBYTECODE: '1',
      },
    });
    expect(code, output).to.equal(0);
    expect(output).to.match(/Ran \d+ tests/);
    expect(output, output).to.not.match(/skipped/);
  });
});
