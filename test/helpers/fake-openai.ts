import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';
import { termsOf } from '../../src/search/terms';

export interface FakeOpenAI {
  url: string;
  /** Requests received, for assertions. */
  requests: Array<{ path: string; authorization: string | undefined; body: any }>;
  /** What the next requests get: normal answers, HTTP 500s, or no answer at all. */
  behaviour: 'ok' | 'fail' | 'hang';
  close(): Promise<void>;
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
 * A local server that speaks the part of the OpenAI API the service uses (POST /v1/embeddings), so the provider path
 * is tested without the internet. Vectors are deterministic (hashed terms, 64 dimensions).
 */
export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  const fake: FakeOpenAI = { url: '', requests: [], behaviour: 'ok', close: async () => undefined };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : null;
    fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
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
    const inputs: string[] = Array.isArray(body.input) ? body.input : [body.input];
    const data = inputs.map((input, index) => {
      const vector = fakeEmbedding(String(input));
      const embedding = body.encoding_format === 'base64' ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector;
      return { object: 'embedding', index, embedding };
    });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: 1, total_tokens: 1 } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}
