'use client';
/** The conversation: each question and its answer streamed in as the service writes it, with linked citations. */
import { useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { readEvents, type components } from '@financial-insights/sdk';
import { Checks } from '../../lib/checks';
import { citationHref, citationText } from '../../lib/citations';
import { failureText } from '../../lib/failure-text';
import type { Citation } from '../../lib/service';

type Done = Pick<components['schemas']['ChatDoneEvent'], 'grounding' | 'claims'>;
interface Turn {
  role: 'user' | 'assistant';
  content: string;
  citations: Citation[];
  error: string | null;
  status: string | null;
  checks?: Done;
}

/** A refusal in words: its cause, and when to try again. */
function refusal(
  status: number,
  error: { code?: string; message?: string } | undefined,
  retryAfter: string | null,
): string {
  return failureText({
    message: error?.message ?? `The service answered ${status}.`,
    code: error?.code ?? status,
    retryAfterSeconds: Number(retryAfter) || null,
  });
}

export function ChatPanel() {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [busy, setBusy] = useState(false);
  const conversationId = useRef<string | null>(null);
  const update = (change: (last: Turn) => Turn) =>
    setTurns((all) => [...all.slice(0, -1), change(all[all.length - 1])]);

  async function ask(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const question = String(new FormData(form).get('question') ?? '').trim();
    if (!question || busy) return;
    form.reset();
    setBusy(true);
    setTurns((all) => [
      ...all,
      { role: 'user', content: question, citations: [], error: null, status: null },
      { role: 'assistant', content: '', citations: [], error: null, status: 'Thinking…' },
    ]);
    try {
      const response = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          messages: [{ role: 'user', content: question }],
          ...(conversationId.current ? { conversation_id: conversationId.current } : {}),
        }),
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => ({}));
        update((last) => ({
          ...last,
          status: null,
          error: refusal(response.status, body.error, response.headers.get('retry-after')),
        }));
        return;
      }
      for await (const message of readEvents(response.body)) {
        const { event: kind, data } = message as components['schemas']['ChatEvent'];
        if (kind === 'status') update((last) => ({ ...last, status: data.message }));
        // Each token is drawn as it is read: React would otherwise batch the tokens of one network chunk into one paint.
        if (kind === 'token')
          flushSync(() => update((last) => ({ ...last, status: null, content: last.content + data.text })));
        if (kind === 'citations') update((last) => ({ ...last, citations: data.citations }));
        if (kind === 'done') {
          conversationId.current = data.conversation_id ?? conversationId.current;
          update((last) => ({
            ...last,
            status: null,
            content: data.answer ?? last.content,
            citations: data.citations ?? last.citations,
            checks: data.grounding ? { grounding: data.grounding, claims: data.claims ?? [] } : undefined,
          }));
        }
        if (kind === 'error') update((last) => ({ ...last, status: null, error: refusal(0, data, null) }));
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
            {turn.error && (
              <span role="alert" className="error" data-chat-error>
                {' '}
                {turn.error}
              </span>
            )}
            {turn.checks && <Checks grounding={turn.checks.grounding} claims={turn.checks.claims} />}
            {turn.citations.length > 0 && (
              <ul className="citations small">
                {turn.citations.map((c, j) => (
                  <li key={j}>
                    <a href={citationHref(c)}>{citationText(c)}</a>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
      <form onSubmit={ask} className="filters" id="chat-form">
        <label htmlFor="question">
          Your question
          <input id="question" name="question" required size={40} placeholder="How is NWSC doing on cash flow?" />
        </label>
        <button type="submit" disabled={busy}>
          {busy ? 'Answering…' : 'Ask'}
        </button>
      </form>
    </>
  );
}
