import { createParser, type EventSourceMessage } from 'eventsource-parser';

/**
 * A Server-Sent Event as the tests read it: its name (`message` when it has none) and its data parsed as JSON, of
 * the type `T` a test expects the stream to carry.
 */
export interface ServerSentEvent<T = unknown> {
  event: string;
  /** The `data:` field as JSON; null when empty. */
  data: T;
}

function toEvent({ event, data }: EventSourceMessage): ServerSentEvent {
  return { event: event ?? 'message', data: data === '' ? null : (JSON.parse(data) as unknown) };
}

/**
 * The events of a response body (a fetch body or any stream of bytes), each as soon as it is complete, read by
 * eventsource-parser. An event cut off by the end of the stream is dropped, as the format says. `E` is the events a
 * test expects (unchecked, as a JSON answer's type is).
 */
export async function* readSseEvents<E extends ServerSentEvent = ServerSentEvent>(
  body: AsyncIterable<Uint8Array>,
): AsyncGenerator<E> {
  const text = new TextDecoder();
  let ready: E[] = [];
  const parser = createParser({ onEvent: (message) => ready.push(toEvent(message) as E) });
  for await (const chunk of body) {
    parser.feed(text.decode(chunk, { stream: true }));
    const events = ready;
    ready = [];
    yield* events;
  }
}
