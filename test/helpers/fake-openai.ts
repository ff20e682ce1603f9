import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { termsOf } from '../../src/search/terms';

/** A message of a chat completion request, as sent: tool results come back with role "tool". */
export interface ChatMessage {
  role: string;
  content: string;
  tool_calls?: unknown[];
}

/** A request's JSON body: a chat completion's (messages, tools, stream) or an embedding's (input). */
export interface ProviderRequestBody {
  model: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string; description?: string; parameters?: unknown } }>;
  input?: string | string[];
  encoding_format?: string;
}

export interface FakeOpenAI {
  url: string;
  /** Requests received, for assertions (`body` null when a request had none). */
  requests: Array<{ path: string; authorization: string | undefined; body: ProviderRequestBody | null }>;
  /** What the next requests get: normal answers, HTTP 500s, or no answer at all. */
  behaviour: 'ok' | 'fail' | 'hang';
  /** What chat completions get: a streamed reply, HTTP 500s, no answer, a broken stream, or a slow endless stream. */
  chatBehaviour: 'ok' | 'fail' | 'hang' | 'malformed' | 'slow';
  /**
   * The reply's pieces, streamed one per chunk, or tool calls (the model asking to run tools); by default it is
   * computed from the request (see `reply`). Messages are as sent: tool results come back with role "tool".
   */
  reply: ((messages: ChatMessage[]) => string[] | { toolCalls: Array<{ name: string; arguments: unknown }> }) | null;
  /** Chat requests whose connection the client closed before the reply ended. */
  abortedChats: number;
  close(): Promise<void>;
}

let completions = 0;

/** A chunk of a streamed chat completion, as the OpenAI API sends it; each completion has its own id, as real ones do. */
function chatChunk(id: string, content: string | null, finish: string | null = null, toolCalls?: unknown[]): string {
  const delta = { role: 'assistant', ...(toolCalls ? { tool_calls: toolCalls } : content === null ? {} : { content }) };
  return `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: 'fake-chat', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** Default reply: the first revenue fact of the prompt, restated, so a grounded answer is easy to check. */
function defaultReply(messages: ChatMessage[]): string[] {
  const fact = /^- (\S+) (\S+) revenue: (.+)$/m.exec(messages[0]?.content ?? '');
  return fact ? ['Revenue ', `of ${fact[1]} `, `was ${fact[3]} `, `in ${fact[2]}.`] : ['No ', 'facts.'];
}

async function serveChat(
  fake: FakeOpenAI,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  body: ProviderRequestBody | null,
): Promise<void> {
  const reply = (fake.reply ?? defaultReply)(body?.messages ?? []);
  const id = `chatcmpl-fake-${(completions += 1)}`;
  let finished = false;
  res.once('close', () => {
    if (!finished) fake.abortedChats += 1;
  });
  if (fake.chatBehaviour === 'hang') return;
  if (fake.chatBehaviour === 'fail') {
    finished = true;
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'fake provider failure', type: 'server_error' } }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  if (fake.chatBehaviour === 'malformed') {
    finished = true;
    res.end('data: {"choices": [ this is not json\n\n');
    return;
  }
  if (fake.chatBehaviour === 'slow') {
    // One piece every 100 ms, for as long as the client listens.
    for (let i = 0; !res.destroyed && i < 600; i += 1) {
      res.write(chatChunk(id, `piece${i} `));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return;
  }
  if (!Array.isArray(reply)) {
    reply.toolCalls.forEach((call, index) => {
      const toolCall = {
        index,
        id: `call_${completions}_${index}`,
        type: 'function',
        function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      };
      res.write(chatChunk(id, null, null, [toolCall]));
    });
    res.write(chatChunk(id, null, 'tool_calls'));
    finished = true;
    res.end('data: [DONE]\n\n');
    return;
  }
  for (const piece of reply) {
    res.write(chatChunk(id, piece));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  res.write(chatChunk(id, null, 'stop'));
  finished = true;
  res.end('data: [DONE]\n\n');
}

export const FAKE_DIMENSIONS = 64;

/** The fake's own deterministic "model": the text's terms hashed into signed buckets, L2-normalized. */
function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(FAKE_DIMENSIONS).fill(0);
  for (const term of termsOf(text)) {
    const hash = createHash('md5').update(term).digest();
    vector[hash[0] % FAKE_DIMENSIONS] += hash[1] & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/**
 * A local server that speaks the parts of the OpenAI API the service uses (POST /v1/embeddings and streamed
 * POST /v1/chat/completions), so the provider path is tested without the internet. Vectors are deterministic
 * (hashed terms, 64 dimensions); chat replies are scripted.
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = {
    url: '',
    requests: [],
    behaviour: 'ok',
    chatBehaviour: 'ok',
    reply: null,
    abortedChats: 0,
    close: async () => undefined,
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as ProviderRequestBody) : null;
    fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
    if (req.method === 'POST' && req.url === '/v1/chat/completions') return serveChat(fake, req, res, body);
    if (fake.behaviour === 'hang') return; // never answers; the client's timeout must fire
    if (fake.behaviour === 'fail') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'fake provider failure', type: 'server_error' } }));
      return;
    }
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    if (body === null) {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'an embeddings request needs a JSON body' } }));
      return;
    }
    const inputs = Array.isArray(body.input) ? body.input : [body.input];
    const data = inputs.map((input, index) => {
      const vector = fakeEmbedding(String(input));
      const embedding =
        body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
