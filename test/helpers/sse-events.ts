import { createParser, type EventSourceMessage } from 'eventsource-parser';

/** A Server-Sent Event as the tests read it: its name (`message` when it has none) and its data parsed as JSON. */
export interface ServerSentEvent {
  event: string;
  /** The `data:` field as JSON; null when empty. */
  data: any;
}

function toEvent({ event, data }: EventSourceMessage): ServerSentEvent {
  return { event: event ?? 'message', data: data === '' ? null : JSON.parse(data) };
}

/**
 * The events of a response body (a fetch body or any stream of bytes), each as soon as it is complete, read by
 * eventsource-parser. An event cut off by the end of the stream is dropped, as the format says.
 */
export async function* readSseEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const text = new TextDecoder();
  let ready: ServerSentEvent[] = [];
  const parser = createParser({ onEvent: (message) => ready.push(toEvent(message)) });
  for await (const chunk of body) {
    parser.feed(text.decode(chunk, { stream: true }));
    const events = ready;
    ready = [];
    yield* events;
  }
}
