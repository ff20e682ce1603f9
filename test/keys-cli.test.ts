import { expect } from 'chai';
import { isWellFormedKey } from '../src/auth/api-keys';
import { requestAs } from './helpers/http';
import { runCli } from './helpers/cli';
import { freshDataDir, startTestApp } from './helpers/test-app';

const run = (args: string[], env: Record<string, string | undefined>) => runCli('keys', args, env);

describe('npm run keys', function () {
  this.timeout(120_000);

  it('creates a key shown once, lists keys without it, and revokes by id', async () => {
    const env = { DATA_DIR: freshDataDir(), DATABASE_URL: process.env.TEST_DATABASE_URL };
    const created = await run(['create', '--name', 'ci robot', '--role', 'analyst'], env);
    expect(created.status, created.stderr).to.equal(0);
    const key = created.stdout.trim().split('\n').at(-1) as string;
    expect(isWellFormedKey(key)).to.equal(true);
    const id = /Created key (\d+) \(analyst\)/.exec(created.stdout)?.[1];

    const listed = await run(['list'], env);
    expect(listed.stdout).to.match(new RegExp(`^\\s*${id}\\s+analyst\\s+fis_live_\\S+…\\s+active`, 'm'));
    expect(listed.stdout).to.include('ci robot').and.not.to.include(key);

    const service = await startTestApp({ dataDir: env.DATA_DIR });
    try {
      const search = (k: string) =>
        requestAs(
          null,
          '/v1/search',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-api-key': k },
            body: JSON.stringify({ query: 'revenue' }),
          },
          service.url,
        );
      expect((await search(key)).status).to.equal(200);
    } finally {
      await service.close();
    }
    const revoked = await run(['revoke', id as string], env);
    expect(revoked.stdout).to.include(`Revoked key ${id}`);
    expect((await run(['list'], env)).stdout).to.match(/revoked \d{4}-/);
    const bad = await run(['create', '--name', 'x', '--role', 'root'], env);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.include('role must be one of viewer, analyst, admin');
    expect((await run(['revoke', '999'], env)).stderr).to.include('No API key with id 999');
  });
});
