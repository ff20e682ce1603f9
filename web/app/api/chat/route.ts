import type { NextRequest } from 'next/server';
import { fail, failWith } from '../../../lib/respond';
import { chatStream } from '../../../lib/service';
import { currentSession, isAnalyst } from '../../../lib/session';
import { crossSite } from '../../../lib/transport';

interface ChatBody { messages?: Array<{ role: 'user' | 'assistant'; content: string }>; conversation_id?: string }

/**
 * POST /api/chat {messages, conversation_id?}: the service's chat stream (Server-Sent Events) relayed as it comes,
 * with the signed-in analyst's token added here (it never reaches browser scripts). A refusal keeps its status,
 * envelope and Retry-After.
 */
export async function POST(request: NextRequest) {
  if (crossSite(request.headers)) return fail(403, 'FORBIDDEN', 'Cross-site requests are refused');
  const session = await currentSession();
  if (!isAnalyst(session)) return fail(session ? 403 : 401, session ? 'FORBIDDEN' : 'UNAUTHENTICATED', 'Chat needs a signed-in analyst: sign in at /signin');
  const body = (await request.json().catch(() => null)) as ChatBody | null;
  const messages = body?.messages?.filter((m) => (m.role === 'user' || m.role === 'assistant') && typeof m.content === 'string' && m.content.trim());
  if (!messages?.length || messages[messages.length - 1].role !== 'user') return fail(400, 'BAD_USER_INPUT', 'messages must end with the user’s question');
  try {
    const upstream = await chatStream(session.token, messages, body?.conversation_id ?? null, request.signal);
    const headers = new Headers({ 'content-type': upstream.headers.get('content-type') ?? 'text/event-stream', 'cache-control': 'no-store' });
    const retryAfter = upstream.headers.get('retry-after');
    if (retryAfter) headers.set('retry-after', retryAfter);
    return new Response(upstream.body, { status: upstream.status, headers });
  } catch (error) {
    return failWith(error);
  }
}
