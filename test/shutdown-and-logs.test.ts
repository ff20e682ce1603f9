import net from 'node:net';
import { expect } from 'chai';
import { createClient } from 'graphql-sse';
import type { App } from '../src/app';
import { startApp } from '../src/app';
import { createLogger } from '../src/shared/logger';
import { createTestKeys, keysFor } from './helpers/keys';
import { testConfig } from './helpers/test-app';
import { FAKE_DIMENSIONS, startFakeOpenAI, type FakeOpenAI } from './helpers/fake-openai';
import { readSseEvents } from './helpers/sse-events';
import type { ChatEventNamed } from './helpers/sse';
import { parseLogLine } from './helpers/log-lines';
import type { ChatEvent } from '../sdk/typescript/src';

/** A chat event of the subscription below (the fields of its kind), or what the client threw instead. */
interface SubscribedChatEvent {
  type: string;
  text?: string;
  code?: string;
  message?: string;
  error?: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Opens the REST chat stream and reads its events; `stopAfter` tokens, the client hangs up. */
async function chatStream(
  url: string,
  requestId: string,
  stopAfter = Infinity,
): Promise<{ events: ChatEvent[]; ended: Promise<void> }> {
  const controller = new AbortController();
  const response = await fetch(`${url}/v1/ai/chat`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'x-request-id': requestId,
      'x-api-key': keysFor(url).analyst,
    },
    body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'How is revenue developing?' }] }),
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).to.match(/^text\/event-stream/);
  const events: ChatEvent[] = [];
  const ended = (async () => {
    try {
      for await (const event of readSseEvents<ChatEvent>(response.body as unknown as AsyncIterable<Uint8Array>)) {
        events.push(event);
        if (events.filter((e) => e.event === 'token').length >= stopAfter) controller.abort();
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error;
    }
  })();
  return { events, ended };
}

/** Sends the first part of a request head; the returned function sends the rest and resolves with the raw answer. */
async function halfSentRequest(url: string): Promise<(rest: string) => Promise<string>> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  let answer = '';
  const closed = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', (error) => resolve(`${answer}[${(error as NodeJS.ErrnoException).code}]`));
    socket.on('close', () => resolve(answer));
  });
  socket.write('GET /healthz HTTP/1.1\r\nhost: localhost\r\n');
  return async (rest) => {
    socket.write(rest);
    return closed;
  };
}

describe('shutdown and the logs of streams', function () {
  this.timeout(180_000);
  let fake: FakeOpenAI;
  let app: App;
  const logged: string[] = [];
  const lines = () => logged.map(parseLogLine);

  before(async () => {
    fake = await startFakeOpenAI();
    fake.chatBehaviour = 'slow';
    const config = testConfig({
      logLevel: 'info',
      shutdownTimeoutMs: 1_500,
      openaiApiKey: 'sk-test-key',
      openaiBaseUrl: fake.url,
      embeddingModel: 'fake-embed',
      embeddingDimensions: FAKE_DIMENSIONS,
      llmModel: 'fake-chat',
    });
    app = await startApp(
      config,
      createLogger(config.logLevel, (line) => void logged.push(line)),
    );
    await createTestKeys(app);
  });
  after(async () => {
    await app?.close();
    await fake?.close();
  });

  it('logs a stream the client aborted, and its cancelled generation, with the request id', async () => {
    const { events, ended } = await chatStream(app.url, 'aborted-stream-1', 3);
    await ended;
    expect(events.filter((e) => e.event === 'token')).to.have.length.of.at.least(3);
    await sleep(500);
    const mine = lines().filter((line) => line.requestId === 'aborted-stream-1');
    expect(mine.map((line) => line.message)).to.include.members(['request', 'generation cancelled']);
    expect(mine.find((line) => line.message === 'request')?.path).to.equal('/v1/ai/chat');
  });

  it('at the deadline ends open streams with an error event SHUTTING_DOWN, and answers a half-sent request instead of resetting it', async () => {
    const rest = await chatStream(app.url, 'open-at-shutdown');
    const sse = createClient({
      url: `${app.url}/graphql/stream`,
      retryAttempts: 0,
      headers: { 'x-api-key': keysFor(app.url).analyst },
    });
    const sseEvents: SubscribedChatEvent[] = [];
    const sseDone = (async () => {
      try {
        const subscription = sse.iterate<{ chat: SubscribedChatEvent }>({
          query:
            'subscription($input: ChatInput!) { chat(input: $input) { type ... on ChatTokenEvent { text } ... on ChatErrorEvent { code message } } }',
          variables: { input: { messages: [{ role: 'user', content: 'How is revenue developing?' }] } },
        });
        for await (const result of subscription) sseEvents.push(result.data!.chat);
      } catch (error) {
        sseEvents.push({ type: 'THROWN', error: String(error) });
      }
    })();
    const finishRequest = await halfSentRequest(app.url);
    // Both streams are under way.
    while (rest.events.length < 2 || sseEvents.length < 2) await sleep(50);

    const closing = app.close();
    await sleep(200);
    const answer = await finishRequest('\r\n');
    expect(answer).to.match(/^HTTP\/1\.1 200/);
    expect(answer).to.match(/connection: close/i);

    await closing;
    await rest.ended;
    await sseDone;
    sse.dispose();
    const last = rest.events.at(-1) as ChatEventNamed<'error'> | undefined;
    expect(last?.event).to.equal('error');
    expect(last?.data.code).to.equal('SHUTTING_DOWN');
    expect(sseEvents.at(-1)?.type).to.equal('ERROR');
    expect(sseEvents.at(-1)?.code).to.equal('SHUTTING_DOWN');
  });
});
