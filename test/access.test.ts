import { expect } from 'chai';
import { SignJWT } from 'jose';
import Redis from 'ioredis';
import { createClient } from 'graphql-sse';
import type { App } from '../src/app';
import { createApiKey, hashKey, isWellFormedKey, revokeApiKey } from '../src/auth/api-keys';
import { app } from './helpers/shared-app';
import { requestAs, type JsonResponse } from './helpers/http';
import type { Data, GraphQLFailure, Page, Refusal } from './helpers/http';
import type { Company, components, Schema, Token } from '../sdk/typescript/src';
import { createTestKeys, keysFor } from './helpers/keys';
import { startTestApp, TEST_JWT_SECRET } from './helpers/test-app';
import { ROUTES } from '../rest-facade/routes';

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const graphqlBody = (query: string, variables?: Record<string, unknown>) => json({ query, variables });
const send = <T = unknown>(
  headers: Record<string, string>,
  path: string,
  init: RequestInit = {},
  baseUrl = app().url,
): Promise<JsonResponse<T>> =>
  requestAs<T>(null, path, { ...init, headers: { ...(init.headers as Record<string, string>), ...headers } }, baseUrl);

/** A token signed with the test secret unless told otherwise, valid unless a claim is overridden. */
async function forgeToken(
  keyId: number | string,
  overrides: { secret?: string; issuer?: string; audience?: string; expiresIn?: string | number; role?: string } = {},
) {
  return new SignJWT({ role: overrides.role ?? 'admin' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(String(keyId))
    .setIssuer(overrides.issuer ?? 'financial-insights-service')
    .setAudience(overrides.audience ?? 'fis-api')
    .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
    .setExpirationTime(overrides.expiresIn ?? '10m')
    .sign(new TextEncoder().encode(overrides.secret ?? TEST_JWT_SECRET));
}

describe('access: API keys, tokens, sessions and roles', function () {
  this.timeout(60_000);
  let companyId: number;

  before(async () => {
    companyId = (await send<Page<Company>>({}, '/v1/companies?limit=1')).body.data[0].id;
  });

  describe('API keys', () => {
    it('are random, prefixed and checksummed, and only their hash is stored', async () => {
      const { record, key } = await createApiKey(app().database.dataSource, 'format check', 'viewer');
      expect(key).to.match(/^fis_live_[0-9A-Za-z]{38}$/);
      expect(isWellFormedKey(key)).to.equal(true);
      const flipped = key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
      expect(isWellFormedKey(flipped)).to.equal(false);
      const [row] = await app().database.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [record.id]);
      expect(row.key_hash).to.equal(hashKey(key));
      expect(JSON.stringify(row)).not.to.include(key);
      expect(record).to.include({ name: 'format check', role: 'viewer' });
    });

    it('answers every present but bad key with the same 401, even on public routes', async () => {
      const unknown = (await createApiKey(app().database.dataSource, 'soon gone', 'admin')).key.replace(
        /^(fis_live_)(.)/,
        (_match, prefix: string, first: string) => prefix + (first === 'Z' ? 'Y' : 'Z'),
      );
      const revoked = await createApiKey(app().database.dataSource, 'revoked', 'admin');
      await revokeApiKey(app().database.dataSource, revoked.record.id);
      const bodies = new Set<string>();
      for (const key of [
        'nonsense',
        `${keysFor(app().url).admin}AA`,
        `${keysFor(app().url).admin}, ${keysFor(app().url).admin}`,
        unknown,
        revoked.key,
        keysFor(app().url).admin.toLowerCase(),
        '',
      ]) {
        const response = await send({ 'x-api-key': key }, '/v1/companies');
        expect(response.status, key).to.equal(401);
        expect(response.headers.get('www-authenticate')).to.match(/^Bearer/);
        bodies.add(JSON.stringify(response.body));
      }
      expect(bodies.size).to.equal(1);
      expect(JSON.parse([...bodies][0]).error.code).to.equal('UNAUTHENTICATED');
    });

    it('stops a revoked key within a second, tokens issued to it included', async () => {
      const { record, key } = await createApiKey(app().database.dataSource, 'to revoke', 'analyst');
      const token = (await send<Token>({ 'x-api-key': key }, '/v1/auth/token', { method: 'POST' })).body.access_token;
      expect((await send({ 'x-api-key': key }, '/v1/search', json({ query: 'revenue' }))).status).to.equal(200);
      await revokeApiKey(app().database.dataSource, record.id);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await send({ 'x-api-key': key }, '/v1/search', json({ query: 'revenue' }))).status).to.equal(401);
      expect(
        (await send({ authorization: `Bearer ${token}` }, '/v1/search', json({ query: 'revenue' }))).status,
      ).to.equal(401);
    });
  });

  describe('roles, the same in REST and GraphQL', () => {
    type Who = 'anonymous' | 'viewer' | 'analyst' | 'admin';
    const WHO: Who[] = ['anonymous', 'viewer', 'analyst', 'admin'];
    const as = (who: Who): Record<string, string> =>
      who === 'anonymous' ? {} : { 'x-api-key': keysFor(app().url)[who] };
    const ok = (status: number) => (status === 200 || status === 201 ? 'ok' : String(status));

    // What each caller gets: ok, 401 (no credentials) or 403 (role too low).
    const matrix: Array<{
      name: string;
      call: (headers: Record<string, string>) => Promise<JsonResponse>;
      expected: Record<Who, string>;
    }> = [
      {
        name: 'GET /v1/companies',
        call: (h) => send(h, '/v1/companies?limit=1'),
        expected: { anonymous: 'ok', viewer: 'ok', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'GET /v1/companies/{id}/ratios',
        call: (h) => send(h, `/v1/companies/${companyId}/ratios`),
        expected: { anonymous: 'ok', viewer: 'ok', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'POST /v1/search',
        call: (h) => send(h, '/v1/search', json({ query: 'revenue' })),
        expected: { anonymous: '401', viewer: '403', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'POST /v1/documents',
        call: (h) =>
          send(
            h,
            '/v1/documents',
            json({
              company_id: companyId,
              title: 'Role matrix',
              doc_type: 'note',
              content: 'A note for the role matrix.',
            }),
          ),
        expected: { anonymous: '401', viewer: '403', analyst: '403', admin: 'ok' },
      },
      {
        name: 'POST /v1/ai/summarize',
        call: (h) => send(h, '/v1/ai/summarize', json({ company_id: companyId })),
        expected: { anonymous: '401', viewer: '403', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'POST /v1/ai/compare',
        call: (h) => send(h, '/v1/ai/compare', json({ company_ids: [companyId, companyId + 1] })),
        expected: { anonymous: '401', viewer: '403', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'POST /v1/ai/chat',
        call: (h) =>
          send(h, '/v1/ai/chat', json({ company_ids: [companyId], messages: [{ role: 'user', content: 'Revenue?' }] })),
        expected: { anonymous: '401', viewer: '403', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'query companies',
        call: (h) => send(h, '/graphql', graphqlBody('{ companies(limit: 1) { total } }')),
        expected: { anonymous: 'ok', viewer: 'ok', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'query search',
        call: (h) => send(h, '/graphql', graphqlBody('{ search(query: "revenue") { chunkId } }')),
        expected: { anonymous: '401', viewer: '403', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'mutation ingestDocument',
        call: (h) =>
          send(
            h,
            '/graphql',
            graphqlBody(
              'mutation($c: Int!) { ingestDocument(input: { companyId: $c, title: "Role matrix", docType: "note", content: "A note for the role matrix." }) { created } }',
              { c: companyId },
            ),
          ),
        expected: { anonymous: '401', viewer: '403', analyst: '403', admin: 'ok' },
      },
      {
        name: 'mutation summarize',
        call: (h) =>
          send(
            h,
            '/graphql',
            graphqlBody('mutation($c: Int!) { summarize(input: { companyId: $c }) { model } }', { c: companyId }),
          ),
        expected: { anonymous: '401', viewer: '403', analyst: 'ok', admin: 'ok' },
      },
      {
        name: 'mutation compare',
        call: (h) =>
          send(
            h,
            '/graphql',
            graphqlBody('mutation($c: [Int!]!) { compare(input: { companyIds: $c }) { model } }', {
              c: [companyId, companyId + 1],
            }),
          ),
        expected: { anonymous: '401', viewer: '403', analyst: 'ok', admin: 'ok' },
      },
    ];

    for (const { name, call, expected } of matrix) {
      it(`${name}: ${WHO.map((who) => `${who} ${expected[who]}`).join(', ')}`, async () => {
        for (const who of WHO) {
          const response = await call(as(who));
          expect(ok(response.status), `${name} as ${who}: ${JSON.stringify(response.body).slice(0, 200)}`).to.equal(
            expected[who],
          );
          if (expected[who] !== 'ok') {
            // A refusal over REST (`error`) or GraphQL (`errors`).
            const body = response.body as Partial<Refusal & GraphQLFailure>;
            const code = body.error?.code ?? body.errors?.[0]?.extensions?.code;
            expect(code).to.equal(expected[who] === '401' ? 'UNAUTHENTICATED' : 'FORBIDDEN');
          }
        }
      });
    }

    it('subscription chat at /graphql/stream: anonymous 401, viewer refused, analyst streams', async () => {
      const subscribe = async (headers: Record<string, string>) => {
        const client = createClient({ url: `${app().url}/graphql/stream`, retryAttempts: 0, headers });
        try {
          const types: string[] = [];
          for await (const result of client.iterate<{ chat: { type: Schema.ChatEventType } }>({
            query: `subscription { chat(input: { companyIds: [${companyId}], messages: [{ role: "user", content: "Revenue?" }] }) { type } }`,
          })) {
            if (result.errors) return result.errors[0].extensions?.code as string;
            types.push(result.data!.chat.type);
          }
          return types.at(-1);
        } catch (error) {
          return String((error as Error).message ?? error);
        } finally {
          client.dispose();
        }
      };
      expect(await subscribe({})).to.match(/401|UNAUTHENTICATED/);
      expect(await subscribe(as('viewer'))).to.equal('FORBIDDEN');
      expect(await subscribe(as('analyst'))).to.equal('DONE');
    });
  });

  describe('OAuth 2.0 tokens', () => {
    it('exchanges a key for a short-lived JWT that works wherever a key does', async () => {
      const issued = await send<Token>(
        {},
        '/v1/auth/token',
        json({ grant_type: 'client_credentials', client_secret: keysFor(app().url).analyst }),
      );
      expect(issued.status).to.equal(200);
      expect(issued.body).to.include({ token_type: 'Bearer', expires_in: 900, role: 'analyst' });
      const token = issued.body.access_token;
      expect(
        (await send({ authorization: `Bearer ${token}` }, '/v1/search', json({ query: 'revenue' }))).status,
      ).to.equal(200);
      expect(
        (
          await send(
            { authorization: `Bearer ${token}` },
            '/v1/documents',
            json({ company_id: companyId, title: 't', doc_type: 'note', content: 'x' }),
          )
        ).status,
      ).to.equal(403);
    });

    it('refuses forged, expired, mis-addressed and alg-none tokens with 401', async () => {
      const [{ id: adminId }] = await app().database.dataSource.query(
        `SELECT id FROM api_keys WHERE name = 'test admin' ORDER BY id DESC LIMIT 1`,
      );
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const tokens = {
        valid: await forgeToken(adminId),
        otherSecret: await forgeToken(adminId, { secret: 'another-secret-of-at-least-thirty-two-bytes' }),
        expired: await forgeToken(adminId, { expiresIn: Math.floor(Date.now() / 1000) - 60 }),
        otherIssuer: await forgeToken(adminId, { issuer: 'someone-else' }),
        otherAudience: await forgeToken(adminId, { audience: 'another-api' }),
        unknownKey: await forgeToken(987654),
        // Signed right, but the key id is not written as ids are: it must not name key adminId.
        hexSubject: await forgeToken(`0x${Number(adminId).toString(16)}`),
        spacedSubject: await forgeToken(` ${adminId}`),
        zeroPaddedSubject: await forgeToken(`0${adminId}`),
        fractionSubject: await forgeToken(`${adminId}.0`),
        algNone: `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ sub: String(adminId), role: 'admin', iss: 'financial-insights-service', aud: 'fis-api', exp: 9999999999 })}.`,
        garbage: 'not.a.token',
      };
      expect(
        (await send({ authorization: `Bearer ${tokens.valid}` }, '/v1/search', json({ query: 'revenue' }))).status,
      ).to.equal(200);
      for (const [name, token] of Object.entries(tokens).filter(([name]) => name !== 'valid')) {
        expect((await send({ authorization: `Bearer ${token}` }, '/v1/companies')).status, name).to.equal(401);
      }
      expect(
        (await send({ authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, '/v1/companies')).status,
      ).to.equal(401);
      expect(
        (
          await send(
            { authorization: `Bearer ${tokens.valid}`, 'x-api-key': keysFor(app().url).admin },
            '/v1/companies',
          )
        ).status,
      ).to.equal(401);
    });

    it('refuses a bad token request clearly', async () => {
      expect((await send({}, '/v1/auth/token', json({ grant_type: 'password', client_secret: 'x' }))).status).to.equal(
        400,
      );
      expect((await send({}, '/v1/auth/token', json({}))).status).to.equal(401);
      expect((await send({}, '/v1/auth/token', json({ client_secret: 'fis_live_nope' }))).status).to.equal(401);
      expect((await send({}, '/v1/auth/token', json({ client_secret: 'x', scope: 'all' }))).status).to.equal(400);
      expect((await send({}, '/v1/auth/token')).status).to.equal(405);
    });
  });

  describe('browser sessions', () => {
    it('sets the token in an HttpOnly, Secure, SameSite cookie, demands the CSRF header on writes, and signs out', async () => {
      const response = await fetch(`${app().url}/v1/auth/session`, json({ api_key: keysFor(app().url).analyst }));
      expect(response.status).to.equal(200);
      const cookies = response.headers.getSetCookie();
      const session = cookies.find((c) => c.startsWith('fis_session=')) as string;
      const csrf = cookies.find((c) => c.startsWith('fis_csrf=')) as string;
      expect(session)
        .to.include('HttpOnly')
        .and.to.include('Secure')
        .and.to.include('SameSite=Strict')
        .and.to.include('Path=/');
      expect(csrf).not.to.include('HttpOnly');
      const body = (await response.json()) as Data<components['schemas']['Session']>;
      const cookie = `${session.split(';')[0]}; ${csrf.split(';')[0]}`;
      expect(body.data.csrf_token).to.equal(csrf.split(';')[0].split('=')[1]);

      expect((await send({ cookie }, '/v1/companies?limit=1')).status).to.equal(200);
      const withoutCsrf = await send<Refusal>({ cookie }, '/v1/search', json({ query: 'revenue' }));
      expect(withoutCsrf.status).to.equal(403);
      expect(withoutCsrf.body.error.message).to.include('x-csrf-token');
      expect(
        (await send({ cookie, 'x-csrf-token': 'wrong' }, '/v1/search', json({ query: 'revenue' }))).status,
      ).to.equal(403);
      expect(
        (await send({ cookie, 'x-csrf-token': body.data.csrf_token }, '/v1/search', json({ query: 'revenue' }))).status,
      ).to.equal(200);

      // A stale cookie (here: garbage) does not lock the browser out of signing in again or reading.
      const stale = 'fis_session=eyJhbGciOiJIUzI1NiJ9.e30.stale';
      expect(
        (await send({ cookie: stale }, '/v1/auth/session', json({ api_key: keysFor(app().url).viewer }))).status,
      ).to.equal(200);
      expect((await send({ cookie: stale }, '/v1/companies?limit=1')).status).to.equal(200);

      const out = await fetch(`${app().url}/v1/auth/session`, { method: 'DELETE' });
      expect(out.status).to.equal(200);
      for (const cleared of out.headers.getSetCookie()) expect(cleared).to.include('Max-Age=0');
    });
  });

  describe('with PUBLIC_READS off', () => {
    let closed: App;
    before(async () => {
      closed = await startTestApp({ publicReads: false });
      await createTestKeys(closed);
    });
    after(() => closed?.close());

    it('needs a key for every read route, and a viewer key is enough', async () => {
      for (const route of ROUTES.filter((r) => r.declaration.role === 'viewer')) {
        const path = route.path.replace(':id', '1');
        expect((await send({}, path, {}, closed.url)).status, path).to.equal(401);
        expect((await send({ 'x-api-key': keysFor(closed.url).viewer }, path, {}, closed.url)).status, path).to.equal(
          200,
        );
        expect((await send({}, path)).status, `${path} with PUBLIC_READS on`).to.equal(200);
      }
    });

    it('needs a key for reads too', async () => {
      expect((await send({}, '/v1/companies', {}, closed.url)).status).to.equal(401);
      expect((await send({}, '/graphql', graphqlBody('{ sectors }'), closed.url)).status).to.equal(401);
      expect(
        (await send({ 'x-api-key': keysFor(closed.url).viewer }, '/v1/companies', {}, closed.url)).status,
      ).to.equal(200);
    });
  });
});

describe('rate limits', function () {
  this.timeout(60_000);

  async function hammer(
    baseUrl: string,
    headers: Record<string, string>,
    times: number,
    path = '/v1/companies?limit=1',
  ) {
    const responses: JsonResponse[] = [];
    for (let i = 0; i < times; i += 1) responses.push(await send(headers, path, {}, baseUrl));
    return responses;
  }

  describe('in memory', () => {
    let limited: App;
    before(async () => {
      limited = await startTestApp({
        rateLimits: {
          reads: { limit: 3, windowSeconds: 60 },
          search: { limit: 2, windowSeconds: 60 },
          ai: { limit: 1, windowSeconds: 60 },
        },
      });
      await createTestKeys(limited);
    });
    after(() => limited?.close());

    it('sends RateLimit-Policy and RateLimit on every response, then 429 with Retry-After and the envelope', async () => {
      const responses = await hammer(limited.url, { 'x-api-key': keysFor(limited.url).viewer }, 4);
      expect(responses.map((r) => r.status)).to.deep.equal([200, 200, 200, 429]);
      for (const r of responses) expect(r.headers.get('ratelimit-policy')).to.equal('3;w=60');
      expect(responses.map((r) => r.headers.get('ratelimit')?.replace(/reset=\d+/, 'reset=N'))).to.deep.equal([
        'limit=3, remaining=2, reset=N',
        'limit=3, remaining=1, reset=N',
        'limit=3, remaining=0, reset=N',
        'limit=3, remaining=0, reset=N',
      ]);
      const refused = responses[3] as JsonResponse<Refusal>;
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      expect(refused.body).to.deep.include({ success: false });
      expect(refused.body.error.code).to.equal('RATE_LIMITED');
    });

    it('keeps separate budgets per key, per address when anonymous, and per route class', async () => {
      const analyst = { 'x-api-key': keysFor(limited.url).analyst };
      expect((await hammer(limited.url, analyst, 3)).map((r) => r.status)).to.deep.equal([200, 200, 200]);
      expect((await hammer(limited.url, {}, 4)).map((r) => r.status)).to.deep.equal([200, 200, 200, 429]);
      const searches = [];
      for (let i = 0; i < 3; i += 1)
        searches.push(await send(analyst, '/v1/search', json({ query: 'revenue' }), limited.url));
      expect(searches.map((r) => r.status)).to.deep.equal([200, 200, 429]);
      expect(searches[0].headers.get('ratelimit-policy')).to.equal('2;w=60');
      const graphqlAi = await send(
        analyst,
        '/graphql',
        graphqlBody('mutation { summarize(input: { companyId: 1 }) { model } }'),
        limited.url,
      );
      expect(graphqlAi.headers.get('ratelimit-policy')).to.equal('1;w=60');
    });

    it('counts failed credentials against the address, so guessing keys is throttled', async () => {
      // The address spent its read budget above: a guess now is refused before the key is even looked up.
      const guesses = await hammer(limited.url, { 'x-api-key': 'fis_live_guess' }, 2, '/v1/ratios/definitions');
      expect(guesses.map((r) => r.status)).to.deep.equal([429, 429]);
    });
  });

  describe('in Redis, shared by instances', () => {
    const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    let first: App;
    let second: App;
    let redis: Redis;

    before(async function () {
      redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
      } catch {
        this.skip(); // no Redis here; CI machines have one
      }
      const rateLimits = {
        reads: { limit: 4, windowSeconds: 30 },
        search: { limit: 4, windowSeconds: 30 },
        ai: { limit: 4, windowSeconds: 30 },
      };
      first = await startTestApp({ redisUrl, rateLimits });
      second = await startTestApp({ redisUrl, rateLimits });
    });

    after(async () => {
      await first?.close();
      await second?.close();
      redis?.disconnect();
    });

    it('counts requests to two instances against one budget', async () => {
      // Both instances see the caller as the same address; start from an empty window.
      await redis.del('fis:ratelimit:reads:ip:127.0.0.1', 'fis:ratelimit:reads:ip:::ffff:127.0.0.1');
      const statuses = [];
      for (let i = 0; i < 3; i += 1) {
        statuses.push((await send({}, '/v1/companies?limit=1', {}, first.url)).status);
        statuses.push((await send({}, '/v1/companies?limit=1', {}, second.url)).status);
      }
      expect(statuses).to.deep.equal([200, 200, 200, 200, 429, 429]);
      const last = await send({}, '/v1/companies?limit=1', {}, first.url);
      expect(last.headers.get('ratelimit')).to.match(/^limit=4, remaining=0, reset=\d+$/);
    });
  });
});
