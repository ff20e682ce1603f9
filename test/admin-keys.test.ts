import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Client } from 'pg';
import { generateKey, isWellFormedKey } from '../src/auth/api-keys';
import type { App } from '../src/app';
import { requestAs } from './helpers/http';
import type { Data, GraphQLAnswer, GraphQLFailure, Refusal } from './helpers/http';
import type { ApiKey, CreatedApiKey, Schema, Token } from '../sdk/typescript/src';
import { keysFor } from './helpers/keys';
import { runCli } from './helpers/cli';
import { app } from './helpers/shared-app';
import { freshDataDir, startTestApp, TARGET } from './helpers/test-app';

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const search = (key: string, baseUrl: string) =>
  requestAs(null, '/v1/search', json({ query: 'revenue', top_k: 1 }, { 'x-api-key': key }), baseUrl);
const bearer = (token: string, baseUrl: string) =>
  requestAs(null, '/v1/search', json({ query: 'revenue', top_k: 1 }, { authorization: `Bearer ${token}` }), baseUrl);
const tokenFor = async (key: string, baseUrl: string): Promise<string> =>
  (
    (await fetch(`${baseUrl}/v1/auth/token`, { method: 'POST', headers: { 'x-api-key': key } }).then((r) =>
      r.json(),
    )) as Token
  ).access_token;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` holds; returns how long it took (or fails after `withinMs`). */
async function within(withinMs: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`not within ${withinMs} ms`);
    await sleep(50);
  }
}

describe('admin keys API', function () {
  this.timeout(120_000);

  it('creates a key shown once, lists keys without secrets, and revokes it: refused within a second', async () => {
    const created = await requestAs<Data<CreatedApiKey>>(
      'admin',
      '/v1/admin/keys',
      json({ name: 'api robot', role: 'analyst' }),
    );
    expect(created.status).to.equal(201);
    const { key, api_key: record } = created.body.data;
    expect(isWellFormedKey(key)).to.equal(true);
    expect(record).to.include({ name: 'api robot', role: 'analyst', forwards_clients: false, revoked_at: null });
    expect(key.startsWith(record.prefix)).to.equal(true);

    const listed = await requestAs<Data<ApiKey[]>>('admin', '/v1/admin/keys');
    expect(listed.status).to.equal(200);
    expect(listed.body.data.find((row) => row.id === record.id)).to.include({
      name: 'api robot',
      role: 'analyst',
    });
    expect(JSON.stringify(listed.body)).not.to.include(key);

    expect((await search(key, app().url)).status).to.equal(200);
    const revoked = await requestAs<Data<ApiKey>>('admin', `/v1/admin/keys/${record.id}`, { method: 'DELETE' });
    expect(revoked.status).to.equal(200);
    expect(revoked.body.data.revoked_at).to.be.a('string');
    await within(1_500, async () => (await search(key, app().url)).status === 401);

    const missing = await requestAs<Refusal>('admin', '/v1/admin/keys/987654', { method: 'DELETE' });
    expect(missing.body.error).to.include({
      code: 'NOT_FOUND',
      message: 'No API key with id 987654',
    });
  });

  it('offers the same as GraphQL operations for admins', async () => {
    const gql = <T>(query: string, as: 'admin' | 'analyst') => requestAs<T>(as, '/graphql', json({ query }));
    const made = await gql<GraphQLAnswer<{ createApiKey: Schema.CreatedApiKey }>>(
      'mutation { createApiKey(input: { name: "gql", role: "viewer", forwardsClients: true }) { key apiKey { id role forwardsClients } } }',
      'admin',
    );
    expect(made.body.data.createApiKey.apiKey.forwardsClients).to.equal(true);
    expect(isWellFormedKey(made.body.data.createApiKey.key)).to.equal(true);
    const id = made.body.data.createApiKey.apiKey.id;
    const listed = await gql<GraphQLAnswer<Pick<Schema.Query, 'apiKeys'>>>(
      '{ apiKeys { id name revokedAt } }',
      'admin',
    );
    expect(listed.body.data.apiKeys.find((row) => row.id === id)).to.deep.equal({
      id,
      name: 'gql',
      revokedAt: null,
    });
    const revoked = await gql<GraphQLAnswer<{ revokeApiKey: Schema.ApiKey }>>(
      `mutation { revokeApiKey(id: ${id}) { revokedAt } }`,
      'admin',
    );
    expect(revoked.body.data.revokeApiKey.revokedAt).to.be.a('string');
    expect((await gql<GraphQLFailure>('{ apiKeys { id } }', 'analyst')).body.errors[0].extensions.code).to.equal(
      'FORBIDDEN',
    );
  });

  it('decides the role before reading the body: 401 / 403, never a 400 about the body', async () => {
    const malformed: RequestInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    };
    const asAnalyst = await requestAs('analyst', '/v1/admin/keys', malformed);
    expect(asAnalyst.status).to.equal(403);
    expect((await requestAs(null, '/v1/admin/keys', malformed)).status).to.equal(401);
    expect(
      (await requestAs('analyst', '/v1/documents', { ...malformed, headers: { 'content-type': 'text/plain' } })).status,
    ).to.equal(403);
    // An admin gets the body judged, in REST's words.
    const bad = await requestAs<Refusal>('admin', '/v1/admin/keys', json({ name: 'x', role: 'root' }));
    expect(bad.status).to.equal(400);
    expect(bad.body.error).to.deep.include({
      message: 'role must be one of viewer, analyst, admin, got "root"',
      details: { field: 'role', accepted: ['viewer', 'analyst', 'admin'] },
    });
  });

  it('`npm run keys` manages the keys of a running service through its API', async () => {
    const env = {
      FIS_BASE_URL: app().url,
      FIS_API_KEY: keysFor(app().url).admin,
      DATA_DIR: '/nonexistent-so-the-database-is-never-opened',
    };
    const created = await runCli(
      'keys',
      ['create', '--name', 'cli via api', '--role', 'viewer', '--forwards-clients'],
      env,
    );
    expect(created.status, created.stderr).to.equal(0);
    const key = created.stdout.trim().split('\n').at(-1) as string;
    expect(isWellFormedKey(key)).to.equal(true);
    const id = /Created key (\d+) \(viewer, forwards clients\)/.exec(created.stdout)?.[1];
    const listed = await runCli('keys', ['list'], env);
    expect(listed.stdout)
      .to.match(
        new RegExp(`^\\s*${id}\\s+viewer\\s+fis_live_\\S+…\\s+active.*cli via api  \\(forwards clients\\)$`, 'm'),
      )
      .and.not.to.include(key);
    const revoked = await runCli('keys', ['revoke', id as string], env);
    expect(revoked.stdout).to.include(`Revoked key ${id} "cli via api"`);
    const refused = await runCli('keys', ['list'], { ...env, FIS_API_KEY: keysFor(app().url).analyst });
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.include('This needs the admin role');
  });

  if (TARGET === 'embedded') {
    it('prints a first admin key on an empty database, takes ADMIN_API_KEY, and keeps tokens valid over a restart', async () => {
      const dataDir = freshDataDir();
      const first = await startTestApp({ dataDir, seedDemoData: false, jwtSecret: null });
      let token: string;
      try {
        expect(isWellFormedKey(first.firstAdminKey as string)).to.equal(true);
        expect(
          (
            await requestAs(
              null,
              '/v1/admin/keys',
              { headers: { 'x-api-key': first.firstAdminKey as string } },
              first.url,
            )
          ).status,
        ).to.equal(200);
        token = await tokenFor(first.firstAdminKey as string, first.url);
      } finally {
        await first.close();
      }
      const adminApiKey = generateKey();
      const second = await startTestApp({ dataDir, seedDemoData: false, jwtSecret: null, adminApiKey });
      try {
        expect(second.firstAdminKey).to.equal(null);
        // The secret is the database's, not the process's: the first instance's token still works.
        expect(
          (await requestAs(null, '/v1/admin/keys', { headers: { authorization: `Bearer ${token}` } }, second.url))
            .status,
        ).to.equal(200);
        const listed = await requestAs<Data<ApiKey[]>>(
          null,
          '/v1/admin/keys',
          { headers: { 'x-api-key': adminApiKey } },
          second.url,
        );
        expect(listed.body.data.map((row) => row.name)).to.deep.equal(['first admin', 'ADMIN_API_KEY']);
      } finally {
        await second.close();
      }
    });
  }

  if (TARGET === 'postgres' && process.env.TEST_PG_ADMIN_URL) {
    it('two instances on one database: one secret for tokens, and a revocation on one is refused by the other within a second', async () => {
      const name = `fis_keys_${randomBytes(4).toString('hex')}`;
      const admin = async (sql: string) => {
        const client = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
        await client.connect();
        try {
          await client.query(sql);
        } finally {
          await client.end();
        }
      };
      await admin(`CREATE DATABASE ${name}`);
      const url = new URL(process.env.TEST_PG_ADMIN_URL as string);
      url.pathname = `/${name}`;
      let instances: App[] = [];
      try {
        // Started together: the generated secret and the first admin key must come out one each.
        instances = await Promise.all(
          [0, 1].map(() => startTestApp({ databaseUrl: url.toString(), seedDemoData: false, jwtSecret: null })),
        );
        const [a, b] = instances;
        const firstKeys = instances.map((instance) => instance.firstAdminKey).filter(Boolean) as string[];
        expect(firstKeys).to.have.length(1);
        const made = await requestAs<Data<CreatedApiKey>>(
          null,
          '/v1/admin/keys',
          json({ name: 'shared', role: 'analyst' }, { 'x-api-key': firstKeys[0] }),
          a.url,
        );
        const { key, api_key: record } = made.body.data;
        const token = await tokenFor(key, a.url);
        expect((await bearer(token, b.url)).status).to.equal(200);
        expect((await search(key, a.url)).status).to.equal(200);
        await requestAs(
          null,
          `/v1/admin/keys/${record.id}`,
          { method: 'DELETE', headers: { 'x-api-key': firstKeys[0] } },
          b.url,
        );
        const took = await within(
          1_500,
          async () => (await search(key, a.url)).status === 401 && (await bearer(token, a.url)).status === 401,
        );
        expect(took).to.be.below(1_500);
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }
    });
  }
});
