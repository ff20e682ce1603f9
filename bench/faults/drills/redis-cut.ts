/**
 * Redis cut under AI load: two instances share their rate limits through Redis (behind a TCP proxy the drill cuts).
 * While Redis is away each instance must still hold the AI budget on its own (degraded mode), log one warning for the
 * change, and share the budget again once Redis is back. Counts AI requests let through past the budget.
 */
import { randomBytes } from 'node:crypto';
import { startTcpProxy } from '../../../test/helpers/tcp-proxy';
import { AnswerTally, type DrillResult } from '../drill';
import { freshEmbeddedDatabase, withTeardown, sleep, startDrillService, type DrillService } from '../service';
import type { Data } from '../../../test/helpers/http';
import type { CreatedApiKey } from '../../../sdk/typescript/src';

export const name = 'redis-cut';

const REDIS = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const AI_BUDGET = 5;
const CONCURRENT = 20;
const DOWN = 'Redis is unreachable';
const BACK = 'rate limits are shared again';

interface Instance {
  service: DrillService;
  /** A forwarding key: each phase names a fresh visitor, so its counters start at zero. */
  key: string;
}

const visitor = () => `2001:db8::${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}`;
const said = (instance: Instance, text: string) => instance.service.process.output().split(text).length - 1;

/** CONCURRENT AI requests at once for one visitor; returns how many were let through (not 429). */
async function aiBurst(instance: Instance, address: string, tally: AnswerTally): Promise<number> {
  const statuses = await Promise.all(
    Array.from({ length: CONCURRENT }, async () => {
      try {
        const response = await fetch(`${instance.service.url}/v1/ai/summarize`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': instance.key, 'x-forwarded-for': address },
          body: JSON.stringify({ company_id: 987654 }),
        });
        const body = await response.json().catch(() => null);
        tally.record('POST /v1/ai/summarize', response, body);
        return response.status;
      } catch {
        tally.recordNoAnswer();
        return 0;
      }
    }),
  );
  return statuses.filter((status) => status !== 429 && status !== 0).length;
}

export async function run(): Promise<DrillResult> {
  const tally = new AnswerTally();
  const missed: string[] = [];
  const notes: string[] = [];
  const recoveryMs: number[] = [];
  let crashes = 0;
  await withTeardown(notes, async (teardown) => {
    const proxy = await startTcpProxy(REDIS.hostname, Number(REDIS.port || 6379));
    teardown.add('redis proxy', () => proxy.close());
    const instances: Instance[] = [];
    for (let i = 0; i < 2; i++) {
      const service = await startDrillService({
        ...freshEmbeddedDatabase(teardown),
        REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
        RATE_LIMIT_AI: `${AI_BUDGET}/60`,
      });
      teardown.add(`service ${i}`, () => service.stop());
      const made = await service.call<Data<CreatedApiKey>>('POST', '/v1/admin/keys', {
        name: 'drill front end',
        role: 'analyst',
        forwards_clients: true,
      });
      if (made?.status !== 201)
        throw new Error(`could not make a forwarding key: ${made?.status} ${JSON.stringify(made?.body)}`);
      instances.push({ service, key: made.body!.data.key });
    }
    if (instances.some((instance) => said(instance, DOWN) > 0))
      throw new Error('Redis is not reachable before the cut: is it running?');

    const healthy = visitor();
    const sharedThrough = (await Promise.all(instances.map((instance) => aiBurst(instance, healthy, tally)))).reduce(
      (a, b) => a + b,
      0,
    );
    notes.push(
      `Redis up: ${sharedThrough} of ${2 * CONCURRENT} AI requests let through on two instances (budget ${AI_BUDGET}, shared)`,
    );
    if (sharedThrough > AI_BUDGET)
      missed.push(`shared budget exceeded before the cut: ${sharedThrough} > ${AI_BUDGET}`);

    await proxy.cut();
    const cutVisitor = visitor();
    const perInstance: number[] = [];
    for (const instance of instances) {
      let through = 0;
      for (let round = 0; round < 3; round++) through += await aiBurst(instance, cutVisitor, tally);
      perInstance.push(through);
      if (through > AI_BUDGET)
        missed.push(`AI budget not held with Redis down: ${through} let through on one instance (budget ${AI_BUDGET})`);
    }
    const warnings = instances.map((instance) => said(instance, DOWN));
    notes.push(
      `Redis cut: ${perInstance.join(' and ')} of ${3 * CONCURRENT} AI requests let through per instance (budget ${AI_BUDGET} each); ${warnings.join(' and ')} warning(s) per instance`,
    );
    if (warnings.some((count) => count !== 1))
      missed.push(`expected one "${DOWN}" warning per instance, got ${warnings.join(', ')}`);

    await proxy.restore();
    const restored = performance.now();
    for (const instance of instances) {
      while (said(instance, BACK) === 0) {
        if (performance.now() - restored > 30_000) {
          missed.push('an instance did not use Redis again within 30 s of its return');
          break;
        }
        await aiBurst(instance, visitor(), tally);
        await sleep(100);
      }
      if (said(instance, BACK) > 0) recoveryMs.push(performance.now() - restored);
    }
    const again = visitor();
    const sharedAgain = (await Promise.all(instances.map((instance) => aiBurst(instance, again, tally)))).reduce(
      (a, b) => a + b,
      0,
    );
    notes.push(
      `Redis back: ${sharedAgain} of ${2 * CONCURRENT} let through on two instances (shared budget ${AI_BUDGET})`,
    );
    if (sharedAgain > AI_BUDGET)
      missed.push(`shared budget exceeded after Redis came back: ${sharedAgain} > ${AI_BUDGET}`);
    crashes = instances.filter((instance) => instance.service.exited()).length;
  });
  return { ...tally.counts(), crashes, lostWrites: 0, recoveryMs, notes, missedTargets: missed };
}
