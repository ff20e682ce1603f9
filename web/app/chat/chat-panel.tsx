'use client';
/** The conversation: each question and its answer streamed in as the service writes it, with linked citations. */
import { useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { citationHref, citationText } from '../../lib/citations';
import { failureText } from '../../lib/failure-text';
import type { Citation } from '../../lib/service';

interface Turn { role: 'user' | 'assistant'; content: string; citations: Citation[]; error: string | null; status: string | null }

/** Splits a Server-Sent Events byte stream into {event, data} records. */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ event: string; data: any }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const record = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event = /^event: ?(.*)$/m.exec(record)?.[1] ?? 'message';
      const data = record.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.replace(/^data: ?/, '')).join('\n');
      if (data) yield { event, data: JSON.parse(data) };
    }
  }
}

/** A refusal in words: its cause, and when to try again. */
function refusal(status: number, error: { code?: string; message?: string } | undefined, retryAfter: string | null): string {
  return failureText({ message: error?.message ?? `The service answered ${status}.`, code: error?.code ?? status, retryAfterSeconds: Number(retryAfter) || null });
}

export function ChatPanel() {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const conversationId = useRef<string | null>(null);
  const update = (change: (last: Turn) => Turn) => setTurns((all) => [...all.slice(0, -1), change(all[all.length - 1])]);

  async function ask(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const question = String(new FormData(form).get('question') ?? '').trim();
    if (!question || busy) return;
    form.reset();
    setBusy(true);
    setTurns((all) => [...all, { role: 'user', content: question, citations: [], error: null, status: null }, { role: 'assistant', content: '', citations: [], error: null, status: 'Thinking…' }]);
    try {
      const response = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ messages: [{ role: 'user', content: question }], ...(conversationId.current ? { conversation_id: conversationId.current } : {}) }),
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => ({}));
        update((last) => ({ ...last, status: null, error: refusal(response.status, body.error, response.headers.get('retry-after')) }));
        return;
      }
      for await (const { event: kind, data } of readEvents(response.body)) {
        if (kind === 'status') update((last) => ({ ...last, status: data.message }));
        // Each token is drawn as it is read: React would otherwise batch the tokens of one network chunk into one paint.
        if (kind === 'token') flushSync(() => update((last) => ({ ...last, status: null, content: last.content + data.text })));
        if (kind === 'citations') update((last) => ({ ...last, citations: data.citations }));
        if (kind === 'done') {
          conversationId.current = data.conversation_id ?? conversationId.current;
          update((last) => ({ ...last, status: null, content: data.answer ?? last.content, citations: data.citations ?? last.citations }));
        }
        if (kind === 'error') update((last) => ({ ...last, status: null, error: refusal(0, data, data.retry_after ? String(data.retry_after) : null) }));
      }
    } catch (error) {
      update((last) => ({ ...last, status: null, error: `The answer stopped: ${(error as Error).message}` }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <ol className="conversation" aria-live="polite" aria-label="Conversation">
        {turns.map((turn, i) => (
          <li key={i} className={turn.role} data-turn={turn.role}>
            <strong>{turn.role === 'user' ? 'You' : 'Analyst'}:</strong> {turn.content}
            {turn.status && <span className="muted"> {turn.status}</span>}
            {turn.error && <span role="alert" className="error" data-chat-error> {turn.error}</span>}
            {turn.citations.length > 0 && (
              <ul className="citations small">{turn.citations.map((c, j) => <li key={j}><a href={citationHref(c)}>{citationText(c)}</a></li>)}</ul>
            )}
          </li>
        ))}
      </ol>
      <form onSubmit={ask} className="filters" id="chat-form">
        <label htmlFor="question">Your question<input id="question" name="question" required size={40} placeholder="How is NWSC doing on cash flow?" /></label>
        <button type="submit" disabled={busy}>{busy ? 'Answering…' : 'Ask'}</button>
      </form>
    </>
  );
}
