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

/** The conversation `id` if it belongs to this key (null: an anonymous caller's); another key's is not found. */
export async function findConversation(
  manager: EntityManager,
  id: string,
  ownerKeyId: number | null,
): Promise<ConversationRow | null> {
  const [row]: ConversationRow[] = await manager.query(
    'SELECT id, company_ids AS "companyIds" FROM conversations WHERE id = $1 AND owner_key_id IS NOT DISTINCT FROM $2',
    [id, ownerKeyId],
  );
  return row ?? null;
}

/** The messages of a conversation in the order they were written. */
export function findConversationMessages(manager: EntityManager, id: string): Promise<ChatTurn[]> {
  return manager.query('SELECT role, content FROM conversation_messages WHERE conversation_id = $1 ORDER BY id', [id]);
}

/** Starts a conversation owned by a key (null: anonymous); returns its id (a UUID). */
export async function insertConversation(
  manager: EntityManager,
  companyIds: number[],
  ownerKeyId: number | null,
): Promise<string> {
  const [{ id }]: Array<{ id: string }> = await manager.query(
    'INSERT INTO conversations (company_ids, owner_key_id) VALUES ($1, $2) RETURNING id',
    [companyIds, ownerKeyId],
  );
  return id;
}

/** Marks a conversation as continued now, about these companies. */
export async function updateConversation(manager: EntityManager, id: string, companyIds: number[]): Promise<void> {
  await manager.query('UPDATE conversations SET updated_at = now(), company_ids = $2 WHERE id = $1', [id, companyIds]);
}

/** Appends messages to a conversation, in order, in one statement. */
export async function insertConversationMessages(
  manager: EntityManager,
  id: string,
  messages: ChatTurn[],
): Promise<void> {
  await manager.query(
    'INSERT INTO conversation_messages (conversation_id, role, content) SELECT $1, role, content FROM unnest($2::text[], $3::text[]) AS t(role, content)',
    [id, messages.map((message) => message.role), messages.map((message) => message.content)],
  );
}
