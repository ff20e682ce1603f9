import type { Metadata } from 'next';
import { requireAnalyst } from '../../lib/analyst';
import { AccessNeeded } from '../components/access-needed';
import { ChatPanel } from './chat-panel';

export const metadata: Metadata = { title: 'Chat' };

export default async function ChatPage() {
  if (!(await requireAnalyst())) return <AccessNeeded />;
  return (
    <>
      <h1>Chat</h1>
      <p className="muted">
        Ask about the companies’ figures and documents. Answers are written from the stored data; every figure cites its
        source.
      </p>
      <noscript>
        <p className="notice">
          The chat streams its answers and needs JavaScript. Company pages, search and comparisons work without it.
        </p>
      </noscript>
      <ChatPanel />
    </>
  );
}
