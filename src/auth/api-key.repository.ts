/**
 * Store of API keys: all key SQL lives here. Only a key's SHA-256 hash is stored, never the key. Every function takes
 * the EntityManager to run on, so it joins the caller's transaction when there is one.
 */
import type { EntityManager } from 'typeorm';
import type { Role } from './roles';

export interface ApiKeyRecord {
  id: number;
  name: string;
  role: Role;
  prefix: string;
  /** Requests with this key are rate-limited as the client named in their X-Forwarded-For (a front end's key). */
  forwardsClients: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface NewApiKey {
  name: string;
  role: Role;
  /** The start of the key, shown in listings so a key can be recognised. */
  prefix: string;
  keyHash: string;
  forwardsClients?: boolean;
}

/** A key that is not revoked; `role` is as stored (the caller checks it is still a known role). */
export interface ActiveKeyRow {
  id: number;
  role: string;
  forwardsClients: boolean;
}

const ACTIVE_COLUMNS = 'id, role, forwards_clients AS "forwardsClients"';
const COLUMNS =
  'id, name, role, prefix, forwards_clients AS "forwardsClients", created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"';

export async function insertApiKey(manager: EntityManager, key: NewApiKey): Promise<ApiKeyRecord> {
  const [record]: ApiKeyRecord[] = await manager.query(
    `INSERT INTO api_keys (name, role, prefix, key_hash, forwards_clients) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [key.name, key.role, key.prefix, key.keyHash, key.forwardsClients ?? false],
  );
  return record;
}

export function findApiKeys(manager: EntityManager): Promise<ApiKeyRecord[]> {
  return manager.query(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`);
}

/** Revokes a key (a second revocation keeps the first date); null when there is no such key. */
export async function revokeApiKeyById(manager: EntityManager, id: number): Promise<ApiKeyRecord | null> {
  const [rows]: [ApiKeyRecord[], number] = await manager.query(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  );
  return rows[0] ?? null;
}

export async function findActiveKeyByHash(manager: EntityManager, keyHash: string): Promise<ActiveKeyRow | null> {
  const [row]: ActiveKeyRow[] = await manager.query(
    `SELECT ${ACTIVE_COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [keyHash],
  );
  return row ?? null;
}

export async function findActiveKeyById(manager: EntityManager, id: number): Promise<ActiveKeyRow | null> {
  const [row]: ActiveKeyRow[] = await manager.query(
    `SELECT ${ACTIVE_COLUMNS} FROM api_keys WHERE id = $1 AND revoked_at IS NULL`,
    [id],
  );
  return row ?? null;
}

export async function markApiKeyUsed(manager: EntityManager, id: number): Promise<void> {
  await manager.query('UPDATE api_keys SET last_used_at = now() WHERE id = $1', [id]);
}

/** Whether a key with this hash was ever stored, revoked or not. */
export async function apiKeyHashExists(manager: EntityManager, keyHash: string): Promise<boolean> {
  const rows: unknown[] = await manager.query('SELECT 1 FROM api_keys WHERE key_hash = $1', [keyHash]);
  return rows.length > 0;
}

export async function countApiKeys(manager: EntityManager): Promise<number> {
  const [{ count }]: Array<{ count: number }> = await manager.query('SELECT count(*)::int AS count FROM api_keys');
  return count;
}
