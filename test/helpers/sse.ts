import { app } from './shared-app';
import { withCredentials } from './keys';
import { readSseEvents, type ServerSentEvent } from './sse-events';
import type { ChatEvent } from '../../sdk/typescript/src';

export type { ServerSentEvent };

/** The REST chat stream's event named `N`, as the SDK types it (`done`: `{event: 'done', data: ChatDoneEvent}`). */
export type ChatEventNamed<N extends ChatEvent['event']> = Extract<ChatEvent, { event: N }>;

/** A JSON answer given instead of a stream (a refusal before the stream opens), as `postForEvents` hands it over. */
export interface JsonInsteadOfEvents<T> {
  event: 'json';
  data: T;
}

/**
 * POSTs JSON asking for Server-Sent Events and collects them until the stream ends. `onEvent` sees each event as
 * it arrives and may return 'stop' to hang up (the client disconnecting mid-stream). `E` is the events a test
 * expects (the REST chat stream's are the SDK's `ChatEvent`); an answer that is not a stream comes as one event
 * `json` (see `JsonInsteadOfEvents`).
 */
export async function postForEvents<E extends ServerSentEvent = ServerSentEvent>(
  path: string,
  body: unknown,
  onEvent: (event: E) => 'stop' | void = () => undefined,
  baseUrl = app().url,
): Promise<{ status: number; contentType: string | null; events: E[]; arrivals: number[] }> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: withCredentials(baseUrl, { 'content-type': 'application/json', accept: 'text/event-stream' }),
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const events: E[] = [];
  const arrivals: number[] = [];
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      events: [{ event: 'json', data: (await response.json()) as unknown } as E],
      arrivals,
    };
  }
  try {
    for await (const event of readSseEvents<E>(response.body)) {
      events.push(event);
      arrivals.push(Date.now());
      if (onEvent(event) === 'stop') {
        controller.abort();
        return { status: response.status, contentType: response.headers.get('content-type'), events, arrivals };
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), events, arrivals };
}
