import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { startApp, type App } from '../src/app';
import { createApiKey } from '../src/auth/api-keys';
import { createLogger } from '../src/shared/logger';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy';
import { testConfig } from './helpers/test-app';

const REDIS_URL = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const AI_BUDGET = 3;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Instance {
  app: App;
  /** A forwarding analyst key: each test names its own visitor, so its counters start at zero in Redis too. */
  key: string;
  warnings: string[];
}

/** One AI request (a summary of a company that does not exist: charged, then a quick 404) as the visitor. */
async function summarize(instance: Instance, visitor: string): Promise<number> {
  const response = await fetch(`${instance.app.url}/v1/ai/summarize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': instance.key, 'x-forwarded-for': visitor },
    body: JSON.stringify({ company_id: 987654 }),
  });
  await response.arrayBuffer();
  return response.status;
}

const visitorAddress = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
const said = (instance: Instance, text: string) => instance.warnings.filter((line) => line.includes(text)).length;

describe('rate limits through a Redis outage', function () {
  this.timeout(180_000);
  let proxy: TcpProxy;
  const instances: Instance[] = [];

  before(async function () {
    const probe = new Redis(REDIS_URL.toString(), {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
    });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
    } catch {
      this.skip(); // no Redis here; CI machines have one
    } finally {
      probe.disconnect();
    }
    proxy = await startTcpProxy(REDIS_URL.hostname, Number(REDIS_URL.port || 6379));
    const budget = { limit: AI_BUDGET, windowSeconds: 60 };
    for (let i = 0; i < 2; i += 1) {
      const warnings: string[] = [];
      const config = testConfig({
        seedDemoData: false,
        redisUrl: `redis://127.0.0.1:${proxy.port}`,
        rateLimits: { reads: { limit: 10_000, windowSeconds: 60 }, search: budget, ai: budget },
      });
      const app = await startApp(
        config,
        createLogger('warn', (line) => warnings.push(line)),
      );
      const { key } = await createApiKey(app.database.dataSource, `web ${i}`, 'analyst', true);
      instances.push({ app, key, warnings });
    }
  });

  after(async () => {
    for (const { app } of instances) await app.close();
    await proxy?.close();
  });

  it('shares one AI budget, falls back to a budget per instance while Redis is cut, and shares again when it is back', async () => {
    const [a, b] = instances;
    // Healthy: the two instances count against one budget.
    const shared = visitorAddress();
    const before = [
      await summarize(a, shared),
      await summarize(b, shared),
      await summarize(a, shared),
      await summarize(b, shared),
    ];
    expect(before).to.deep.equal([404, 404, 404, 429]);

    await proxy.cut();
    // Under load: 12 concurrent AI requests per instance, twice over, for one visitor.
    const cutVisitor = visitorAddress();
    for (let round = 0; round < 2; round += 1) {
      const [onA, onB] = await Promise.all(
        [a, b].map((instance) => Promise.all(Array.from({ length: 12 }, () => summarize(instance, cutVisitor)))),
      );
      for (const statuses of [onA, onB]) {
        expect(
          statuses.filter((s) => s >= 500),
          'no 5xx',
        ).to.deep.equal([]);
        // Each instance grants its own budget once, from zero at the start of the outage; never more.
        expect(count(statuses, 404)).to.equal(round === 0 ? AI_BUDGET : 0);
        expect(count(statuses, 429)).to.equal(round === 0 ? 12 - AI_BUDGET : 12);
      }
    }
    // One warning per instance for the change of mode, not one per request.
    for (const instance of [a, b]) expect(said(instance, 'Redis is unreachable')).to.equal(1);

    await proxy.restore();
    // The client reconnects on its own (within a few seconds); the first counted request says so once.
    for (const instance of [a, b]) {
      const started = Date.now();
      while (said(instance, 'rate limits are shared again') === 0) {
        expect(Date.now() - started, 'back to Redis within 15 s').to.be.below(15_000);
        await summarize(instance, visitorAddress());
        await sleep(250);
      }
      expect(said(instance, 'rate limits are shared again')).to.equal(1);
      expect(said(instance, 'Redis is unreachable')).to.equal(1);
    }
    const again = visitorAddress();
    expect([
      await summarize(a, again),
      await summarize(b, again),
      await summarize(b, again),
      await summarize(a, again),
    ]).to.deep.equal([404, 404, 404, 429]);
  });

  it('warns at start-up when REDIS_URL cannot be reached, and still limits', async () => {
    await proxy.cut();
    const warnings: string[] = [];
    const budget = { limit: AI_BUDGET, windowSeconds: 60 };
    const config = testConfig({
      seedDemoData: false,
      redisUrl: `redis://127.0.0.1:${proxy.port}`,
      rateLimits: { reads: { limit: 10_000, windowSeconds: 60 }, search: budget, ai: budget },
    });
    const app = await startApp(
      config,
      createLogger('warn', (line) => warnings.push(line)),
    );
    try {
      const instance = {
        app,
        key: (await createApiKey(app.database.dataSource, 'web', 'analyst', true)).key,
        warnings,
      };
      expect(said(instance, 'Redis is unreachable at start-up')).to.equal(1);
      const visitor = visitorAddress();
      const statuses = await Promise.all(Array.from({ length: 8 }, () => summarize(instance, visitor)));
      expect(count(statuses, 404)).to.equal(AI_BUDGET);
      expect(count(statuses, 429)).to.equal(8 - AI_BUDGET);
      expect(said(instance, 'Redis is unreachable')).to.equal(1);
    } finally {
      await app.close();
      await proxy.restore();
    }
  });
});
