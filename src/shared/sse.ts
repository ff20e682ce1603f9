import type { ServerResponse } from 'node:http';

/**
 * Server-Sent Events as the service writes them: `startSseStream`, then `writeSseEvent` per event. Every event's data
 * is one line of JSON. Readers (tests, SDKs, the web front end) parse them with eventsource-parser.
 */

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;

/** Answers 200 with the headers of an event stream (proxies must not buffer it). */
export function startSseStream(res: ServerResponse): void {
  res.writeHead(200, SSE_HEADERS);
}

/** One event on the wire; JSON.stringify escapes line breaks, so the data is always a single `data:` line. */
export function formatSseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Writes one event; false when the socket's buffer is full (as `res.write`). */
export function writeSseEvent(res: ServerResponse, event: string, data: unknown): boolean {
  return res.write(formatSseEvent(event, data));
}
