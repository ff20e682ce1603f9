/**
 * Store of chat conversations and their messages: all conversation SQL lives here. Every function takes the
 * EntityManager to run on, so a caller can write a conversation and its messages in one transaction.
 */
import type { EntityManager } from 'typeorm';
import type { ChatTurn } from './writer';

export interface ConversationRow {
  id: string;
  /** The companies the conversation is about, chosen by its first question. */
  companyIds: number[];
}

export async function findConversation(manager: EntityManager, id: string): Promise<ConversationRow | null> {
  const [row]: ConversationRow[] = await manager.query('SELECT id, company_ids AS "companyIds" FROM conversations WHERE id = $1', [id]);
  return row ?? null;
}

/** The messages of a conversation in the order they were written. */
export function findConversationMessages(manager: EntityManager, id: string): Promise<ChatTurn[]> {
  return manager.query('SELECT role, content FROM conversation_messages WHERE conversation_id = $1 ORDER BY id', [id]);
}

/** Starts a conversation; returns its id (a UUID). */
export async function insertConversation(manager: EntityManager, companyIds: number[]): Promise<string> {
  const [{ id }]: Array<{ id: string }> = await manager.query('INSERT INTO conversations (company_ids) VALUES ($1) RETURNING id', [companyIds]);
  return id;
}

/** Marks a conversation as continued now, about these companies. */
export async function updateConversation(manager: EntityManager, id: string, companyIds: number[]): Promise<void> {
  await manager.query('UPDATE conversations SET updated_at = now(), company_ids = $2 WHERE id = $1', [id, companyIds]);
}

/** Appends messages to a conversation, in order, in one statement. */
export async function insertConversationMessages(manager: EntityManager, id: string, messages: ChatTurn[]): Promise<void> {
  await manager.query(
    'INSERT INTO conversation_messages (conversation_id, role, content) SELECT $1, role, content FROM unnest($2::text[], $3::text[]) AS t(role, content)',
    [id, messages.map((message) => message.role), messages.map((message) => message.content)],
  );
}
