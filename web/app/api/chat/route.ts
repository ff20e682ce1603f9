import type { NextRequest } from 'next/server';
import { fail, failWith } from '../../../lib/respond';
import { asFailure, chat } from '../../../lib/service';
import { currentSession, isAnalyst } from '../../../lib/session';
import { crossSite } from '../../../lib/transport';

interface ChatBody {
  messages?: Array<{ role: 'user' | 'assistant'; content: string }>;
  conversation_id?: string;
}

const sse = (event: string, data: unknown) =>
  new TextEncoder().encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

/**
 * POST /api/chat {messages, conversation_id?}: the chat answer as Server-Sent Events, each event passed on as the SDK
 * reads it from the service, with the signed-in analyst's token added here (it never reaches browser scripts). A
 * refusal before the first event keeps its status, envelope and Retry-After; a failure later is an `error` event
 * with its code, message and retry_after.
 */
export async function POST(request: NextRequest) {
  if (crossSite(request.headers)) return fail(403, 'FORBIDDEN', 'Cross-site requests are refused');
  const session = await currentSession();
  if (!isAnalyst(session))
    return fail(
      session ? 403 : 401,
      session ? 'FORBIDDEN' : 'UNAUTHENTICATED',
      'Chat needs a signed-in analyst: sign in at /signin',
    );
  const body = (await request.json().catch(() => null)) as ChatBody | null;
  const messages = body?.messages?.filter(
    (m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content.trim(),
  );
  if (!messages?.length || messages[messages.length - 1].role !== 'user')
    return fail(400, 'BAD_USER_INPUT', 'messages must end with the user’s question');

  const events = chat(session.token, messages, body?.conversation_id ?? null, request.signal);
  let first: IteratorResult<{ event: string; data: unknown }>;
  try {
    first = await events.next();
  } catch (error) {
    return failWith(error);
  }
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for (let next = first; !next.done; next = await events.next())
          controller.enqueue(sse(next.value.event, next.value.data));
      } catch (error) {
        if (!request.signal.aborted) {
          const failure = asFailure(error);
          controller.enqueue(
            sse('error', { code: failure.code, message: failure.message, retry_after: failure.retryAfterSeconds }),
          );
        }
      }
      controller.close();
    },
    async cancel() {
      await events.return(undefined); // the browser left: the SDK hangs up and the service stops writing
    },
  });
  return new Response(stream, {
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' },
  });
}
