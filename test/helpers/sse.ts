import { app } from './shared-app';
import { withCredentials } from './keys';
import { readSseEvents, type ServerSentEvent } from './sse-events';

export type { ServerSentEvent };

/**
 * POSTs JSON asking for Server-Sent Events and collects them until the stream ends. `onEvent` sees each event as
 * it arrives and may return 'stop' to hang up (the client disconnecting mid-stream).
 */
export async function postForEvents(
  path: string,
  body: unknown,
  onEvent: (event: ServerSentEvent) => 'stop' | void = () => undefined,
  baseUrl = app().url,
): Promise<{ status: number; contentType: string | null; events: ServerSentEvent[]; arrivals: number[] }> {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: withCredentials(baseUrl, { 'content-type': 'application/json', accept: 'text/event-stream' }),
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const events: ServerSentEvent[] = [];
  const arrivals: number[] = [];
  if (!response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      events: [{ event: 'json', data: await response.json() }],
      arrivals,
    };
  }
  try {
    for await (const event of readSseEvents(response.body)) {
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
