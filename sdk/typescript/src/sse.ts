/** One Server-Sent Event: its name (`message` when it has none) and its data parsed as JSON. */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

/**
 * The events of an event-stream body, each as soon as it is complete. It reads with a stream reader (not `for await`
 * over the body, which not every browser offers) and follows the format's field rules: `data` on several lines, one
 * optional space after the colon, comments (keep-alives) ignored, an event cut off by the end of the stream dropped.
 */
export async function* readEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => {
        // An abort errors the body; the caller sees the signal's reason, as with any other cancelled call.
        throw signal?.aborted ? signal.reason : error;
      });
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      for (let end = buffer.search(/\r?\n\r?\n/); end >= 0; end = buffer.search(/\r?\n\r?\n/)) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
        const event = parseBlock(block);
        if (event) yield event;
        signal?.throwIfAborted();
      }
    }
  } finally {
    // Stopping early (break, return, an error) hangs up: the service stops writing the answer.
    await reader.cancel().catch(() => undefined);
  }
}

function parseBlock(block: string): ServerSentEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join('\n');
  return { event, data: text === '' ? null : JSON.parse(text) };
}
