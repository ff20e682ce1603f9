import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect } from 'chai';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { app } from './helpers/shared-app';
import { requestAs } from './helpers/http';
import { keysFor } from './helpers/keys';
import { TARGET } from './helpers/test-app';
import { runProgram } from './helpers/cli';

const REPO_ROOT = path.join(__dirname, '..', '..');
const TSC = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

/**
 * A program as a user of a generated client writes it: openapi-typescript's types with its default options and
 * openapi-fetch with its default generics. It must type-check with `strict`, and it runs against the service.
 */
const PROGRAM = `import createClient from 'openapi-fetch';
import type { paths } from './schema.js';

const client = createClient<paths>({ baseUrl: process.env.FIS_BASE_URL, headers: { 'x-api-key': process.env.FIS_API_KEY } });

async function main(): Promise<void> {
  const page = await client.GET('/v1/companies', { params: { query: { limit: 2 } } });
  if (!page.data) throw new Error('no companies');
  const tickers: string[] = page.data.data.map((company) => company.ticker);
  const id = page.data.data[0].id;

  const one = await client.GET('/v1/companies/{id}/income-statement', { params: { path: { id }, query: { period: 'latest-fy' } } });
  if (!one.data || Array.isArray(one.data.data)) throw new Error('one period expected');
  const revenue: number | null = one.data.data.revenue;

  const many = await client.GET('/v1/companies/{id}/income-statement', { params: { path: { id }, query: { type: 'annual', limit: 2 } } });
  if (!many.data || !Array.isArray(many.data.data)) throw new Error('several periods expected');
  const periods: string[] = many.data.data.map((statement) => statement.period);

  const hits = await client.POST('/v1/search', { body: { query: 'revenue growth' } });
  const found: number = hits.data ? hits.data.data.length : -1;

  const bad = await client.GET('/v1/companies/{id}/ratios', { params: { path: { id }, query: { period: 'Q9-2024' } } });
  const field: string | undefined = bad.error?.error.details?.field;
  const accepted: string[] | undefined = bad.error?.error.details?.accepted;

  process.stdout.write(JSON.stringify({ tickers, revenue, periods, found, field, accepted }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
`;

// A compiler and a scratch project: checked once, in the embedded run.
const once = TARGET === 'embedded' ? it : it.skip;

describe('OpenAPI document with third-party tools', function () {
  this.timeout(180_000);
  let document: Record<string, unknown>;

  before(async () => {
    document = (await requestAs<Record<string, unknown>>(null, '/v1/openapi.json')).body;
  });

  it('passes swagger-parser\u2019s validation and Redocly\u2019s recommended rules without errors', async () => {
    await SwaggerParser.validate(structuredClone(document) as never);
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: 'openapi.json', config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    expect(errors.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).to.deep.equal([]);
  });

  once(
    'generates a client (openapi-typescript, default options) that type-checks with tsc --strict and works',
    async () => {
      const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-openapi-client-'));
      try {
        const types = astToString(await openapiTS(document as unknown as OpenAPI3));
        // One JSON answer per success: no `string |` from a second media type.
        expect(types).to.not.match(/"text\/csv"/);
        fs.writeFileSync(path.join(scratch, 'schema.ts'), types);
        fs.writeFileSync(path.join(scratch, 'program.ts'), PROGRAM);
        fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ type: 'module', private: true }));
        fs.writeFileSync(
          path.join(scratch, 'tsconfig.json'),
          JSON.stringify({
            compilerOptions: {
              strict: true,
              target: 'ES2022',
              module: 'nodenext',
              moduleResolution: 'nodenext',
              lib: ['ES2022', 'DOM'],
              types: ['node'],
              outDir: 'out',
            },
            include: ['*.ts'],
          }),
        );
        // The scratch project installs nothing: it reads openapi-fetch and the Node types from the repository's packages.
        fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
        const compiled = spawnSync(process.execPath, [TSC, '-p', scratch], { encoding: 'utf8' });
        expect(compiled.status, compiled.stdout + compiled.stderr).to.equal(0);
        const run = await runProgram(process.execPath, [path.join(scratch, 'out', 'program.js')], {
          env: { FIS_BASE_URL: app().url, FIS_API_KEY: keysFor(app().url).analyst },
        });
        expect(run.status, run.stderr).to.equal(0);
        const result = JSON.parse(run.stdout);
        expect(result.tickers).to.have.length(2);
        expect(result.revenue).to.be.a('number');
        expect(result.periods).to.have.length(2);
        expect(result.found).to.be.above(0);
        expect(result.field).to.equal('period');
        expect(result.accepted).to.include('FY<yyyy>');
      } finally {
        fs.rmSync(scratch, { recursive: true, force: true });
      }
    },
  );
});
