import { app } from './shared-app';
import { withCredentials } from './keys';

export interface ServerSentEvent {
  event: string;
  data: any;
}

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
    return { status: response.status, contentType: response.headers.get('content-type'), events: [{ event: 'json', data: await response.json() }], arrivals };
  }
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
        const data = block.split('\n').filter((line) => line.startsWith('data: ')).map((line) => line.slice(6)).join('\n');
        const parsed = { event, data: data ? JSON.parse(data) : null };
        events.push(parsed);
        arrivals.push(Date.now());
        if (onEvent(parsed) === 'stop') {
          controller.abort();
          return { status: response.status, contentType: response.headers.get('content-type'), events, arrivals };
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) throw error;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), events, arrivals };
}
