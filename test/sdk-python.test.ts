import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { App } from '../src/app';
import { app } from './helpers/shared-app';
import { keysFor } from './helpers/keys';
import { rateLimitedApp } from './helpers/rate-limited-app';
import { hasPython, runProgram } from './helpers/cli';
import { startStreamBreaker, type StreamBreaker } from './helpers/stream-breaker';
import { TARGET } from './helpers/test-app';

const PYTHON_SDK = path.join(__dirname, '..', '..', 'sdk', 'python');

/** pip as set up on the machine, giving up at once on an index it cannot reach (it then tries the others). */
const PIP_QUICKLY = { PIP_RETRIES: '0', PIP_TIMEOUT: '5' };

// Packaging and type checks need no database: checked once, in the embedded run.
const once = TARGET === 'embedded' ? it : it.skip;

describe('Python SDK (sdk/python): its unittest suite against the service', function () {
  this.timeout(300_000);
  let limited: App | undefined;
  let breaker: StreamBreaker | undefined;
  let scratch: string;

  before(async function () {
    if (!hasPython()) {
      console.log('    python3 is not installed: the Python SDK tests are skipped');
      this.skip();
    }
    limited = await rateLimitedApp();
    breaker = await startStreamBreaker(app().url);
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-python-sdk-'));
  });

  after(async () => {
    await breaker?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('passes `python3 -m unittest` with every test run (none skipped)', async () => {
    const keys = keysFor(app().url);
    const { status, stdout, stderr } = await runProgram('python3', ['-m', 'unittest', '-v'], {
      cwd: PYTHON_SDK,
      env: {
        FIS_BASE_URL: app().url,
        FIS_VIEWER_KEY: keys.viewer,
        FIS_ANALYST_KEY: keys.analyst,
        FIS_ADMIN_KEY: keys.admin,
        FIS_LIMITED_URL: limited!.url,
        FIS_LIMITED_KEY: keysFor(limited!.url).admin,
        FIS_BREAKER_URL: breaker!.origin,
        FIS_API_KEY: '',
        PYTHONDONTWRITEBYTECODE: '1',
      },
    });
    const output = stdout + stderr;
    expect(status, output).to.equal(0);
    expect(output).to.match(/Ran \d+ tests/);
    expect(output, output).to.not.match(/skipped/);
  });

  once(
    'builds a wheel and an sdist with the standard backend (setuptools) that install into a clean venv and work',
    async () => {
      const dist = path.join(scratch, 'dist');
      // What `python -m build` does: the build requirements in a venv of their own, then the backend's PEP 517 hooks.
      const builder = path.join(scratch, 'venv-build');
      expect((await runProgram('python3', ['-m', 'venv', builder])).status).to.equal(0);
      const requirements = await runProgram(
        path.join(builder, 'bin', 'python'),
        ['-m', 'pip', 'install', '--quiet', 'setuptools>=61', 'wheel'],
        { env: PIP_QUICKLY },
      );
      expect(requirements.status, requirements.stderr).to.equal(0);
      // From a copy of the package's sources, as an sdist would hold them: the build writes beside them.
      const source = path.join(scratch, 'source');
      fs.cpSync(PYTHON_SDK, source, {
        recursive: true,
        filter: (file) => !/(__pycache__|\.egg-info|[\\/]build)$/.test(file),
      });
      const build = async (hook: 'build_wheel' | 'build_sdist'): Promise<string> => {
        const run = await runProgram(
          path.join(builder, 'bin', 'python'),
          ['-c', `import setuptools.build_meta as b, sys; print('built', b.${hook}(sys.argv[1]))`, dist],
          { cwd: source },
        );
        expect(run.status, run.stderr).to.equal(0);
        return run.stdout
          .split('\n')
          .find((line) => line.startsWith('built '))!
          .slice('built '.length)
          .trim();
      };
      const wheel = await build('build_wheel');
      const sdist = await build('build_sdist');
      expect(wheel).to.match(/^financial_insights_sdk-.*-py3-none-any\.whl$/);
      expect(sdist).to.match(/^financial[-_]insights[-_]sdk-.*\.tar\.gz$/);
      const check = `from fis_sdk import Client; print(len(Client().statements.ratio_definitions()))`;
      for (const artifact of [wheel, sdist]) {
        const venv = path.join(scratch, `venv-${artifact.endsWith('.whl') ? 'wheel' : 'sdist'}`);
        expect((await runProgram('python3', ['-m', 'venv', venv])).status).to.equal(0);
        const python = path.join(venv, 'bin', 'python');
        // The wheel needs no index (the SDK has no dependency); the sdist fetches its build requirements, as pip does.
        const options = artifact.endsWith('.whl') ? ['--no-index'] : [];
        const installed = await runProgram(
          python,
          ['-m', 'pip', 'install', '--quiet', ...options, path.join(dist, artifact)],
          { env: PIP_QUICKLY },
        );
        expect(installed.status, installed.stderr).to.equal(0);
        const used = await runProgram(python, ['-c', check], {
          cwd: scratch,
          env: { FIS_BASE_URL: app().url, FIS_API_KEY: '' },
        });
        expect(used.status, used.stderr).to.equal(0);
        expect(Number(used.stdout)).to.be.above(0);
      }
    },
  );

  once('passes mypy --strict, which refuses the values the service would refuse', async function () {
    const venv = path.join(scratch, 'venv-mypy');
    await runProgram('python3', ['-m', 'venv', venv]);
    const python = path.join(venv, 'bin', 'python');
    // mypy from the package index pip is set up with; a machine without one skips, saying so.
    const installed = await runProgram(python, ['-m', 'pip', 'install', '--quiet', 'mypy'], { env: PIP_QUICKLY });
    if (installed.status !== 0) {
      console.log(
        `    mypy cannot be installed here: the type check is skipped (${installed.stderr.trim().split('\n').at(-1)})`,
      );
      this.skip();
    }
    const mypy = (...files: string[]) =>
      runProgram(python, ['-m', 'mypy', '--strict', '--no-incremental', ...files], { cwd: PYTHON_SDK });
    const strict = await mypy('fis_sdk', 'typing_checks/uses_sdk.py');
    expect(strict.status, strict.stdout).to.equal(0);
    const misuses = await mypy('typing_checks/misuses_sdk.py');
    const flagged = new Set(
      [...misuses.stdout.matchAll(/misuses_sdk\.py:(\d+): error/g)].map((match) => Number(match[1])),
    );
    const marked = fs
      .readFileSync(path.join(PYTHON_SDK, 'typing_checks', 'misuses_sdk.py'), 'utf8')
      .split('\n')
      .flatMap((line, index) => (line.includes('# refused') ? [index + 1] : []));
    expect(
      [...flagged].sort((a, b) => a - b),
      misuses.stdout,
    ).to.deep.equal(marked);
  });
});
