import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ApiError } from './errors.js';

/** One Server-Sent Event: its name (`message` when it has none) and its data parsed as JSON. */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

function parsed(message: EventSourceMessage): ServerSentEvent {
  try {
    return { event: message.event ?? 'message', data: message.data === '' ? null : JSON.parse(message.data) };
  } catch {
    throw new ApiError(
      `The event stream sent an event whose data is not JSON: ${message.data.slice(0, 200)}`,
      'INVALID_RESPONSE',
      200,
    );
  }
}

/**
 * The events of an event-stream body, each as soon as it is complete (eventsource-parser reads the format: `data` on
 * several lines, comments and keep-alives, an event cut off by the end of the stream dropped). It reads with a stream
 * reader, not `for await` over the body, which not every browser offers. It returns when the body ends, whether or not
 * the answer was complete: the caller decides what a missing last event means.
 */
export async function* readEvents(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const ready: ServerSentEvent[] = [];
  const parser = createParser({ onEvent: (message) => ready.push(parsed(message)) });
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        // An abort errors the body; the caller sees the signal's reason, as with any other cancelled call.
        throw signal?.aborted ? signal.reason : error;
      });
      if (done) return;
      parser.feed(decoder.decode(value, { stream: true }));
      while (ready.length > 0) {
        yield ready.shift()!;
        signal?.throwIfAborted();
      }
    }
  } finally {
    // Stopping early (break, return, an error) hangs up: the service stops writing the answer.
    await reader.cancel().catch(() => undefined);
  }
}
