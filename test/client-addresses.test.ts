import { expect } from 'chai';
import type { IncomingMessage } from 'node:http';
import type { App } from '../src/app';
import { loadConfig, ConfigError } from '../src/config/config';
import { ClientAddresses } from '../src/http/client-address';
import { requestAs, type JsonResponse } from './helpers/http';
import type { Data, Refusal } from './helpers/http';
import type { ApiKey, CreatedApiKey, Token } from '../sdk/typescript/src';
import { createTestKeys, keysFor } from './helpers/keys';
import { startTestApp } from './helpers/test-app';

const READS = { limit: 3, windowSeconds: 60 };
const budgets = { reads: READS, search: { limit: 50, windowSeconds: 60 }, ai: { limit: 50, windowSeconds: 60 } };

const read = <T = unknown>(baseUrl: string, headers: Record<string, string>) =>
  requestAs<T>(null, '/v1/companies?limit=1', { headers }, baseUrl);
async function reads(
  baseUrl: string,
  times: number,
  headers: (i: number) => Record<string, string>,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < times; i += 1) statuses.push((await read(baseUrl, headers(i))).status);
  return statuses;
}
const remaining = (response: JsonResponse) => /remaining=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1];

async function makeKey(service: App, role: string, forwardsClients: boolean): Promise<{ key: string; record: ApiKey }> {
  const made = await requestAs<Data<CreatedApiKey>>(
    null,
    '/v1/admin/keys',
    {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': keysFor(service.url).admin },
      body: JSON.stringify({
        name: forwardsClients ? 'web front end' : 'plain robot',
        role,
        forwards_clients: forwardsClients,
      }),
    },
    service.url,
  );
  expect(made.status, JSON.stringify(made.body)).to.equal(201);
  return { key: made.body.data.key, record: made.body.data.api_key };
}

describe('client addresses: forwarding keys and TRUST_PROXY', function () {
  this.timeout(120_000);

  describe('TRUST_PROXY off (the default)', () => {
    let service: App;
    let web: string;
    let plain: string;
    let webToken: string;
    before(async () => {
      service = await startTestApp({ seedDemoData: false, rateLimits: budgets });
      await createTestKeys(service);
      web = (await makeKey(service, 'analyst', true)).key;
      plain = (await makeKey(service, 'analyst', false)).key;
      // The token endpoint spends one read of this address's budget.
      webToken = (
        (await fetch(`${service.url}/v1/auth/token`, { method: 'POST', headers: { 'x-api-key': web } }).then((r) =>
          r.json(),
        )) as Token
      ).access_token;
    });
    after(() => service?.close());

    it('marks and lists a forwarding key', async () => {
      const listed = await requestAs<Data<ApiKey[]>>('admin', '/v1/admin/keys', {}, service.url);
      expect(listed.body.data.map((row) => [row.name, row.forwards_clients])).to.deep.include.members([
        ['web front end', true],
        ['plain robot', false],
      ]);
    });

    it('ignores a spoofed X-Forwarded-For from an anonymous caller: every value spends the socket address budget', async () => {
      const statuses = await reads(service.url, 4, (i) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` }));
      expect(statuses).to.deep.equal([200, 200, 429, 429]);
    });

    it('ignores X-Forwarded-For from a key that does not forward: it spends its own budget', async () => {
      const statuses = await reads(service.url, 4, (i) => ({
        'x-api-key': plain,
        'x-forwarded-for': `198.51.100.${i + 10}`,
      }));
      expect(statuses).to.deep.equal([200, 200, 200, 429]);
      // Malformed, but not read at all.
      expect(
        (await read(service.url, { 'x-api-key': keysFor(service.url).viewer, 'x-forwarded-for': 'not an address' }))
          .status,
      ).to.equal(200);
    });

    it('limits each visitor a forwarding key names on their own, with the budget they have when calling directly', async () => {
      const visitor = (address: string) => ({ 'x-api-key': web, 'x-forwarded-for': address });
      expect(await reads(service.url, 4, () => visitor('203.0.113.7'))).to.deep.equal([200, 200, 200, 429]);
      expect(await reads(service.url, 2, () => visitor('203.0.113.8'))).to.deep.equal([200, 200]);
      // An IPv4-mapped spelling is the same visitor.
      expect((await read(service.url, visitor('::ffff:203.0.113.7'))).status).to.equal(429);
      // The loopback address spent its anonymous budget above: a visitor at that address has nothing left either.
      expect((await read(service.url, visitor('127.0.0.1'))).status).to.equal(429);
      // Without the header the request is the key's own, on the key's budget.
      const own = await read(service.url, { 'x-api-key': web });
      expect(own.status).to.equal(200);
      expect(remaining(own)).to.equal('2');
    });

    it("keeps the key's role for access while limiting as the visitor", async () => {
      const search = (headers: Record<string, string>) =>
        requestAs(
          null,
          '/v1/search',
          {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ query: 'revenue', top_k: 1 }),
          },
          service.url,
        );
      expect((await search({ 'x-forwarded-for': '203.0.113.30' })).status).to.equal(401);
      const forwarded = await search({ 'x-api-key': web, 'x-forwarded-for': '203.0.113.30' });
      expect(forwarded.status).to.equal(200);
      expect(forwarded.headers.get('ratelimit-policy')).to.equal('50;w=60');
    });

    it('forwards with a bearer token of the key too', async () => {
      const headers = { authorization: `Bearer ${webToken}`, 'x-forwarded-for': '203.0.113.40' };
      expect(await reads(service.url, 4, () => headers)).to.deep.equal([200, 200, 200, 429]);
    });

    it('answers a malformed X-Forwarded-For of a forwarding key with 400 naming the header, on REST and GraphQL', async () => {
      for (const bad of ['not-an-ip', '203.0.113.7:8080', '203.0.113.07', '[::1]']) {
        const refused = await read<Refusal>(service.url, { 'x-api-key': web, 'x-forwarded-for': bad });
        expect(refused.status, bad).to.equal(400);
        expect(refused.body.error.code).to.equal('BAD_REQUEST');
        expect(refused.body.error.message).to.include('X-Forwarded-For');
      }
      const graphql = await requestAs(
        null,
        '/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': web, 'x-forwarded-for': 'garbage' },
          body: JSON.stringify({ query: '{ companies(limit: 1) { items { id } } }' }),
        },
        service.url,
      );
      expect(graphql.status).to.equal(400);
      expect(JSON.stringify(graphql.body)).to.include('X-Forwarded-For');
    });
  });

  describe('TRUST_PROXY on (loopback is the proxy)', () => {
    let service: App;
    let web: string;
    before(async () => {
      service = await startTestApp({ seedDemoData: false, rateLimits: budgets, trustProxy: { ranges: ['loopback'] } });
      await createTestKeys(service);
      web = (await makeKey(service, 'viewer', true)).key;
    });
    after(() => service?.close());

    it('counts anonymous callers by the address the proxy put in X-Forwarded-For, one budget per client', async () => {
      expect(await reads(service.url, 4, () => ({ 'x-forwarded-for': '198.51.100.1' }))).to.deep.equal([
        200, 200, 200, 429,
      ]);
      expect(await reads(service.url, 1, () => ({ 'x-forwarded-for': '198.51.100.2' }))).to.deep.equal([200]);
      // A client's own entry before the proxy's is not believed: the proxy's (rightmost untrusted) entry counts.
      expect(await reads(service.url, 1, () => ({ 'x-forwarded-for': '192.0.2.99, 198.51.100.1' }))).to.deep.equal([
        429,
      ]);
      // No header: the proxy itself is the client.
      expect(await reads(service.url, 1, () => ({}))).to.deep.equal([200]);
      // A malformed address where the client's should be is a 400 naming the header.
      const refused = await read<Refusal>(service.url, { 'x-forwarded-for': 'unknown' });
      expect(refused.status).to.equal(400);
      expect(refused.body.error.message).to.include('X-Forwarded-For');
    });

    it('lets a forwarding key behind the proxy name its visitor one hop further', async () => {
      // The front end (198.51.100.50) adds its visitor; the proxy adds the front end.
      const visitor = { 'x-api-key': web, 'x-forwarded-for': '203.0.113.9, 198.51.100.50' };
      expect(await reads(service.url, 4, () => visitor)).to.deep.equal([200, 200, 200, 429]);
      // The same visitor reaching the proxy directly has the same (spent) budget.
      expect(await reads(service.url, 1, () => ({ 'x-forwarded-for': '203.0.113.9' }))).to.deep.equal([429]);
      // The front end's request without a visitor is the key's own.
      expect(
        await reads(service.url, 1, () => ({ 'x-api-key': web, 'x-forwarded-for': '198.51.100.50' })),
      ).to.deep.equal([200]);
    });
  });

  describe('TRUST_PROXY setting and address walk (units)', () => {
    const fakeRequest = (socket: string, forwardedFor?: string) =>
      ({
        socket: { remoteAddress: socket },
        connection: { remoteAddress: socket },
        headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
      }) as unknown as IncomingMessage;

    it('reads TRUST_PROXY as off, a hop count or a list of ranges, and refuses anything else', () => {
      expect(loadConfig({}).trustProxy).to.equal(null);
      expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).to.equal(null);
      expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).to.equal(null);
      expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).to.deep.equal({ hops: 2 });
      expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.4, loopback' }).trustProxy).to.deep.equal({
        ranges: ['10.0.0.0/8', '192.168.1.4', 'loopback'],
      });
      for (const bad of ['10.0.0.0/33', 'proxy.example', '10.0.0.1,,10.0.0.2', '-1', '99']) {
        expect(() => loadConfig({ TRUST_PROXY: bad }), bad).to.throw(ConfigError, /TRUST_PROXY/);
      }
    });

    it('walks X-Forwarded-For from the socket back through the trusted hops only', () => {
      const off = new ClientAddresses(null);
      const oneHop = new ClientAddresses({ hops: 1 });
      const ranges = new ClientAddresses({ ranges: ['10.0.0.0/8'] });
      expect(off.client(fakeRequest('10.0.0.1', '1.1.1.1'))).to.equal('10.0.0.1');
      expect(oneHop.client(fakeRequest('10.0.0.1', '2.2.2.2, 1.1.1.1'))).to.equal('1.1.1.1');
      expect(oneHop.client(fakeRequest('10.0.0.1'))).to.equal('10.0.0.1');
      expect(ranges.client(fakeRequest('10.0.0.1', '2.2.2.2, 10.0.0.2'))).to.equal('2.2.2.2');
      expect(ranges.client(fakeRequest('172.16.0.1', '2.2.2.2'))).to.equal('172.16.0.1');
      expect(off.client(fakeRequest('::ffff:10.0.0.1'))).to.equal('10.0.0.1');
      expect(oneHop.client(fakeRequest('10.0.0.1', '2001:DB8:0:0::1'))).to.equal('2001:db8::1');
      expect(() => oneHop.client(fakeRequest('10.0.0.1', '1.1.1.1:443'))).to.throw(/X-Forwarded-For/);
    });

    it("finds a forwarding key's visitor one hop past the caller", () => {
      expect(new ClientAddresses(null).forwardedClient(fakeRequest('10.0.0.1', '9.9.9.9, 1.1.1.1'))).to.equal(
        '1.1.1.1',
      );
      expect(new ClientAddresses(null).forwardedClient(fakeRequest('10.0.0.1'))).to.equal(null);
      expect(new ClientAddresses({ hops: 1 }).forwardedClient(fakeRequest('10.0.0.1', '9.9.9.9, 1.1.1.1'))).to.equal(
        '9.9.9.9',
      );
      expect(new ClientAddresses({ hops: 1 }).forwardedClient(fakeRequest('10.0.0.1', '1.1.1.1'))).to.equal(null);
      expect(() => new ClientAddresses(null).forwardedClient(fakeRequest('10.0.0.1', 'x'))).to.throw(/X-Forwarded-For/);
    });
  });
});
