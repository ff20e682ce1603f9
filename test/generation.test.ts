import { expect } from 'chai';
import { AppError } from '../src/shared/errors';
import { generateText, Slots } from '../src/ai/generation';
import type { Writer, WritingTask } from '../src/ai/writer';

const task = {
  kind: 'chat',
  sheet: { companies: [], passages: [] },
  messages: [{ role: 'user', content: 'hi' }],
} as WritingTask;
const limits = { timeoutMs: 1000, maxConcurrency: 2 };
const open = () => new AbortController().signal;
const openCaller = () => ({ signal: open() });

/** A writer whose attempts follow a script: 'fail' throws at once, 'fail-after' throws after one piece, text succeeds. */
function scripted(attempts: string[]): Writer & { calls: number } {
  const writer = {
    model: 'scripted',
    calls: 0,
    async *write(): AsyncIterable<string> {
      const step = attempts[writer.calls++] ?? 'ok';
      if (step === 'fail') throw new Error('provider said 500');
      yield 'first ';
      if (step === 'fail-after') throw new Error('connection reset');
      yield step;
    },
  };
  return writer;
}

describe('generation limits', () => {
  it('retries a failing provider at most twice, while nothing was produced', async () => {
    const recovers = scripted(['fail', 'fail', 'done']);
    expect(await generateText(recovers, task, limits, new Slots(1), openCaller())).to.equal('first done');
    expect(recovers.calls).to.equal(3);

    const keepsFailing = scripted(['fail', 'fail', 'fail', 'fail']);
    const error = await generateText(keepsFailing, task, limits, new Slots(1), openCaller()).catch((e) => e);
    expect(error).to.be.instanceOf(AppError).and.to.include({ code: 'UPSTREAM_ERROR' });
    expect(keepsFailing.calls).to.equal(3);

    // A stream cannot be taken back: a failure after the first piece is not retried.
    const midway = scripted(['fail-after', 'done']);
    expect(await generateText(midway, task, limits, new Slots(1), openCaller()).catch((e) => e.code)).to.equal(
      'UPSTREAM_ERROR',
    );
    expect(midway.calls).to.equal(1);
  });

  it('ends a silent writer with a 504 at the deadline', async () => {
    const silent: Writer = {
      model: 'silent',
      write: async function* () {
        await new Promise(() => undefined);
        yield '';
      },
    };
    const started = Date.now();
    const error = await generateText(silent, task, { ...limits, timeoutMs: 200 }, new Slots(1), openCaller()).catch(
      (e) => e,
    );
    expect(error.code).to.equal('UPSTREAM_TIMEOUT');
    expect(Date.now() - started).to.be.within(150, 1000);
  });

  it('lets at most `size` generations run; a waiter gets the next free slot or a 503 with Retry-After', async () => {
    const slots = new Slots(1);
    const release = await slots.acquire(1000, open());
    const waiting = slots.acquire(1000, open());
    setTimeout(release, 50);
    (await waiting)();

    const hold = await slots.acquire(1000, open());
    const refused = await slots.acquire(100, open()).catch((e) => e);
    expect(refused).to.be.instanceOf(AppError).and.to.include({ code: 'SERVICE_UNAVAILABLE' });
    expect(refused.headers).to.deep.equal({ 'retry-after': '5' });
    hold();
    (await slots.acquire(100, open()))();
  });
});
