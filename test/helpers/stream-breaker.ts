import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the breaker does to an event stream once its first token event has passed:
 * - `reset`: destroys the connection, as a dropped network does;
 * - `end`: ends the response cleanly, as a proxy or a stopping service may, without the last event;
 * - `error`: writes the service's `error` event (UPSTREAM_ERROR) and ends, as a failed AI provider does mid-answer;
 * - `unknown`: sends an event of a name no SDK knows first, then the whole stream untouched.
 */
export type BreakMode = 'reset' | 'end' | 'error' | 'unknown';
const MODES: readonly BreakMode[] = ['reset', 'end', 'error', 'unknown'];

export interface StreamBreaker {
  /** The proxy's origin; a mode's base URL is the origin with the mode as its path. */
  origin: string;
  /** The base URL that breaks streams one way: `${origin}/reset`, `${origin}/end`, … */
  baseUrl(mode: BreakMode): string;
  close(): Promise<void>;
}

/**
 * A reverse proxy in front of the real service for the SDKs' tests: requests and answers pass through untouched,
 * except event streams, which it breaks as the first path segment says. It forwards whole events only.
 */
export async function startStreamBreaker(target: string): Promise<StreamBreaker> {
  const server = http.createServer((req, res) => {
    const [, mode, ...rest] = (req.url ?? '/').split('/');
    if (!MODES.includes(mode as BreakMode)) {
      res.writeHead(404).end();
      return;
    }
    const upstream = http.request(
      `${target}/${rest.join('/')}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (!String(answer.headers['content-type']).startsWith('text/event-stream')) {
          answer.pipe(res);
          return;
        }
        if (mode === 'unknown') res.write('event: sentiment\ndata: {"mood":"upbeat"}\n\n');
        let buffer = '';
        let broken = false;
        answer.on('data', (chunk: Buffer) => {
          buffer += chunk.toString('utf8');
          for (let end = buffer.indexOf('\n\n'); end >= 0 && !broken; end = buffer.indexOf('\n\n')) {
            const event = buffer.slice(0, end + 2);
            buffer = buffer.slice(end + 2);
            if (mode === 'unknown' || !/event: token|ChatTokenEvent/.test(event)) {
              res.write(event);
              continue;
            }
            broken = true;
            answer.destroy();
            // The reset comes once what went before is on the wire, as when a network drops mid-answer.
            if (mode === 'reset') res.write(event, () => res.socket?.destroy());
            else if (mode === 'error')
              res.end(
                `${event}event: error\ndata: {"code":"UPSTREAM_ERROR","message":"The AI provider failed mid-answer"}\n\n`,
              );
            else res.end(event);
          }
        });
        answer.on('end', () => {
          if (!broken) res.end(buffer);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    baseUrl: (mode) => `${origin}/${mode}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
