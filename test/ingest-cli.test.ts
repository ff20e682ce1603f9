import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { freshDataDir, startTestApp, TARGET } from './helpers/test-app';
import { request, type Data } from './helpers/http';
import { runCli } from './helpers/cli';
import { createTestKeys, keysFor } from './helpers/keys';
import type { SearchResult } from '../sdk/typescript/src';

const run = (args: string[], env: Record<string, string | undefined> = {}) => runCli('ingest', args, env);

function writeFiles(marker: string): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-ingest-'));
  fs.writeFileSync(
    path.join(folder, 'call_notes.txt'),
    `Call notes. The ${marker} plant ran at full capacity.\n\nMargins improved.`,
  );
  fs.writeFileSync(path.join(folder, 'outlook.md'), `# Outlook\n\nThe ${marker} expansion continues next year.`);
  fs.mkdirSync(path.join(folder, 'nested'));
  fs.writeFileSync(
    path.join(folder, 'nested', 'release.html'),
    `<html><body><p>Press release about ${marker}.</p><table><tr><td>Sales</td><td>12</td></tr></table></body></html>`,
  );
  fs.writeFileSync(path.join(folder, 'ignored.docx'), 'not read');
  return folder;
}

const post = (baseUrl: string, body: unknown) =>
  request<Data<SearchResult[]>>(
    '/v1/search',
    { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    baseUrl,
  );

describe('npm run ingest', function () {
  this.timeout(120_000);

  it('sends .txt, .md and .html files of a folder to a running service, and reports what it did', async () => {
    const marker = `quorvantis${Date.now()}`;
    const folder = writeFiles(marker);
    const first = await run([
      folder,
      '--company',
      'nwsc',
      '--type',
      'note',
      '--api',
      app().url,
      '--key',
      keysFor(app().url).admin,
    ]);
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stdout).to.match(/\[1\/3\] .*call_notes\.txt: stored as document \d+, \d+ chunks/);
    expect(first.stdout).to.match(/Done: 3 stored \(\d+ chunks\), 0 already present, 0 failed/);
    expect(first.stdout).not.to.include('ignored.docx');
    const again = await run([folder, '--company', 'NWSC', '--api', app().url], {
      FIS_API_KEY: keysFor(app().url).admin,
    });
    expect(again.stdout).to.match(/Done: 0 stored \(0 chunks\), 3 already present, 0 failed/);
    const { body } = await post(app().url, { query: marker, top_k: 3 });
    expect(body.data.map((hit) => hit.title).sort()).to.deep.equal(['call notes', 'outlook', 'release']);
    expect(body.data.every((hit) => hit.ticker === 'NWSC')).to.equal(true);
  });

  it('explains its usage and refuses an unknown company', async () => {
    const usage = await run([]);
    expect(usage.status).to.equal(1);
    expect(usage.stderr).to.match(/usage: npm run ingest -- <files or folders> --company <ticker>/);
    const unknown = await run([writeFiles('x'), '--company', 'NOPE', '--api', app().url]);
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.match(/no company with ticker NOPE/);
  });

  if (TARGET === 'embedded') {
    it('writes straight into a stopped service’s embedded database', async () => {
      const dataDir = freshDataDir();
      await (await startTestApp({ dataDir })).close();
      const marker = `velmoraxis${Date.now()}`;
      const result = await run([writeFiles(marker), '--company', 'NWSC', '--period', 'FY2025'], { DATA_DIR: dataDir });
      expect(result.status, result.stderr).to.equal(0);
      expect(result.stdout).to.match(/Done: 3 stored/);
      const service = await startTestApp({ dataDir });
      try {
        await createTestKeys(service);
        const { body } = await post(service.url, { query: marker, top_k: 3 });
        expect(body.data).to.have.length(3);
        expect(body.data.every((hit) => hit.period === 'FY2025')).to.equal(true);
      } finally {
        await service.close();
      }
    });
  }
});
