import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { keysFor } from './helpers/keys';
import { runProgram } from './helpers/cli';
import { TARGET } from './helpers/test-app';

const REPO_ROOT = path.join(__dirname, '..', '..');
const SDK = path.join(REPO_ROOT, 'sdk', 'typescript');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** A user's program, in TypeScript under `strict`, against the installed package (ESM). */
const PROGRAM = `import { FinancialInsightsClient, NotFoundError, type IncomeStatement } from '@financial-insights/sdk';

const client = new FinancialInsightsClient();
const [company] = (await client.companies.list({ limit: 1 })).data;
const years: IncomeStatement[] = await client.statements.incomeHistory(company.id, { type: 'annual', limit: 2 });
const answer = await client.ai.chat({ company_ids: [company.id], messages: [{ role: 'user', content: 'Revenue?' }] }).finalAnswer();
const missing = await client.companies.get(999_999).catch((error: unknown) => error);
console.log(JSON.stringify({ ticker: company.ticker, years: years.map((s) => s.period), answered: answer.answer.length > 0, notFound: missing instanceof NotFoundError }));
`;

/** The same from CommonJS, untyped, as a plain Node script would require it. */
const COMMONJS = `const { FinancialInsightsClient } = require('@financial-insights/sdk');
new FinancialInsightsClient().statements.ratioDefinitions().then((definitions) => process.stdout.write(String(definitions.length)));
`;

// npm, a compiler and a scratch project: checked once, in the embedded run.
const once = TARGET === 'embedded' ? it : it.skip;

describe('TypeScript SDK package (npm pack in sdk/typescript)', function () {
  this.timeout(300_000);

  once(
    'packs dist, types, README and LICENSE, and a scratch project installs the tarball, type-checks and runs',
    async () => {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-sdk-package-'));
      try {
        const packed = await runProgram(NPM, ['pack', '--json', '--pack-destination', scratch], { cwd: SDK });
        expect(packed.status, packed.stderr).to.equal(0);
        const [{ filename, files }] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('[')));
        const names = (files as Array<{ path: string }>).map((file) => file.path);
        expect(names).to.include.members([
          'README.md',
          'LICENSE',
          'package.json',
          'dist/esm/index.js',
          'dist/esm/index.d.ts',
          'dist/cjs/index.js',
          'dist/cjs/index.d.ts',
        ]);

        fs.writeFileSync(
          path.join(scratch, 'package.json'),
          JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
        );
        const installed = await runProgram(
          NPM,
          ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(scratch, filename)],
          { cwd: scratch },
        );
        expect(installed.status, installed.stderr).to.equal(0);
        fs.writeFileSync(path.join(scratch, 'program.ts'), PROGRAM);
        fs.writeFileSync(path.join(scratch, 'commonjs.cjs'), COMMONJS);
        fs.writeFileSync(
          path.join(scratch, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              strict: true,
              target: 'ES2022',
              module: 'nodenext',
              moduleResolution: 'nodenext',
              lib: ['ES2022', 'DOM'],
              types: [],
              outDir: 'out',
            },
            files: ['program.ts'],
          }),
        );
        const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
        const compiled = await runProgram(process.execPath, [tsc, '-p', scratch]);
        expect(compiled.status, compiled.stdout + compiled.stderr).to.equal(0);

        const env = { FIS_BASE_URL: app().url, FIS_API_KEY: keysFor(app().url).analyst };
        const run = await runProgram(process.execPath, [path.join(scratch, 'out', 'program.js')], {
          cwd: scratch,
          env,
        });
        expect(run.status, run.stderr).to.equal(0);
        const result = JSON.parse(run.stdout);
        expect(result).to.include({ answered: true, notFound: true });
        expect(result.years).to.have.length(2);
        const required = await runProgram(process.execPath, [path.join(scratch, 'commonjs.cjs')], {
          cwd: scratch,
          env,
        });
        expect(required.status, required.stderr).to.equal(0);
        expect(Number(required.stdout)).to.be.above(0);
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
  );
});
