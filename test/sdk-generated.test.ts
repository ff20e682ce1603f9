import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import { generatedFiles, REPO_ROOT } from '../sdk/generate/generated-files';
import { requestAs } from './helpers/http';
import { TARGET } from './helpers/test-app';

// Files and a compiler, no database: checked once, in the embedded run.
const once = TARGET === 'embedded' ? it : it.skip;

describe('SDK generated files (npm run sdk:generate)', function () {
  this.timeout(120_000);

  once(
    'are what the code generates now: the OpenAPI document, the TypeScript types and the Python dataclasses',
    async () => {
      for (const [file, content] of Object.entries(await generatedFiles())) {
        const committed = fs.existsSync(path.join(REPO_ROOT, file))
          ? fs.readFileSync(path.join(REPO_ROOT, file), 'utf8')
          : '(missing)';
        expect(committed === content, `${file} is stale: run \`npm run sdk:generate\` and commit it`).to.equal(true);
      }
    },
  );

  it('committed sdk/openapi.json is the document the service serves (its paths and schemas)', async () => {
    const served = (
      await requestAs<{ paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } }>(
        null,
        '/v1/openapi.json',
      )
    ).body;
    const committed = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'sdk', 'openapi.json'), 'utf8'));
    expect(served.components.schemas).to.deep.equal(committed.components.schemas);
    expect(Object.keys(served.paths)).to.deep.equal(Object.keys(committed.paths));
  });

  once('sdk/typescript compiles on its own for browsers and Node (its tsconfig: DOM, no Node types)', () => {
    const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = spawnSync(
      process.execPath,
      [tsc, '-p', path.join(REPO_ROOT, 'sdk', 'typescript', 'tsconfig.json'), '--noEmit'],
      { encoding: 'utf8' },
    );
    expect(result.status, result.stdout + result.stderr).to.equal(0);
  });
});
