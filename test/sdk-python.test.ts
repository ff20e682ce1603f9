import path from 'node:path';
import { expect } from 'chai';
import type { App } from '../src/app';
import { app } from './helpers/shared-app';
import { keysFor } from './helpers/keys';
import { rateLimitedApp } from './helpers/rate-limited-app';
import { hasPython, runProgram } from './helpers/cli';

const PYTHON_SDK = path.join(__dirname, '..', '..', 'sdk', 'python');

describe('Python SDK (sdk/python): its unittest suite against the service', function () {
  this.timeout(180_000);
  let limited: App | undefined;

  before(async function () {
    if (!hasPython()) {
      console.log('    python3 is not installed: the Python SDK tests are skipped');
      this.skip();
    }
    limited = await rateLimitedApp();
  });

  it('passes `python3 -m unittest` with every test run (none skipped)', async () => {
    const keys = keysFor(app().url);
    const { status, stdout, stderr } = await runProgram('python3', ['-m', 'unittest', '-v'], {
      cwd: PYTHON_SDK,
      env: {
        FIS_BASE_URL: app().url, FIS_VIEWER_KEY: keys.viewer, FIS_ANALYST_KEY: keys.analyst, FIS_ADMIN_KEY: keys.admin,
        FIS_LIMITED_URL: limited!.url, FIS_LIMITED_KEY: keysFor(limited!.url).admin, PYTHONDONTWRITEBYTECODE: '1',
      },
    });
    const output = stdout + stderr;
    expect(status, output).to.equal(0);
    expect(output).to.match(/Ran \d+ tests/);
    expect(output, output).to.not.match(/skipped/);
  });
});
