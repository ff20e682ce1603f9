import type { ServerResponse } from 'node:http';

/**
 * Server-Sent Events, both ends: the service writes its streams with `startSseStream` and `writeSseEvent`; the tests,
 * the web server and the browser script read them with `createSseDecoder` (through `parseSseStream` in Node).
 * Every event's data is one line of JSON.
 */

export interface ServerSentEvent {
  /** The `event:` field; `message` when the event has none. */
  event: string;
  /** The `data:` field, parsed as JSON (null when empty). */
  data: any;
}

export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' } as const;

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

/**
 * A decoder of the event-stream format: feed it text as it arrives, in pieces of any size, and get back the events
 * completed so far. It follows the format's rules for fields (`event`, `data` on several lines, a space after the
 * colon, comments and keep-alives ignored). It uses nothing outside itself, so the web front end's browser script
 * embeds its source (`createSseDecoder.toString()`): one parser for every reader.
 */
export function createSseDecoder(): (text: string) => ServerSentEvent[] {
  let buffer = '';
  return (text: string) => {
    buffer += text;
    const events: ServerSentEvent[] = [];
    for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon === 0) continue; // a comment (keep-alive)
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      if (data.length === 0) continue;
      const joined = data.join('\n');
      events.push({ event, data: joined === '' ? null : JSON.parse(joined) });
    }
    return events;
  };
}

/** The events of a response body (a fetch body or any stream of bytes), each as soon as it is complete. */
export async function* parseSseStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const text = new TextDecoder();
  const decode = createSseDecoder();
  // An event cut off by the end of the stream is dropped, as the format says.
  for await (const chunk of body) yield* decode(text.decode(chunk, { stream: true }));
}
