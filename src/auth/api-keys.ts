import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { AppError, badUserInput } from '../shared/errors';
import { isRole, ROLES, type Role } from './roles';

/**
 * API keys look like `fis_live_<32 base62 characters><6 base62 checksum>`. The checksum (from SHA-256 of the body)
 * lets a mistyped or made-up key be refused without a database look-up; the key itself is shown once, at creation,
 * and only its SHA-256 hash is stored (right for a high-entropy secret: no salt or slow hash is needed).
 */
export const KEY_PREFIX = 'fis_live_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (const byte of bytes) {
    if (out.length === length) break;
    // Bytes of 248 and above would bias the alphabet; skip them.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

function checksum(body: string): string {
  return base62(createHash('sha256').update(body).digest(), CHECKSUM_LENGTH);
}

export function generateKey(): string {
  let body = '';
  while (body.length < BODY_LENGTH) body += base62(randomBytes(48), BODY_LENGTH - body.length);
  return `${KEY_PREFIX}${body}${checksum(body)}`;
}

/** Whether a string has the shape and checksum of a key we issue (no database needed). */
export function isWellFormedKey(key: string): boolean {
  if (!KEY_SHAPE.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return key.endsWith(checksum(body));
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface ApiKeyRecord {
  id: number;
  name: string;
  role: Role;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const COLUMNS = 'id, name, role, prefix, created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"';

/** Creates a key; returns the record and the key itself, which is never available again. */
export async function createApiKey(dataSource: DataSource, name: string, role: string): Promise<{ record: ApiKeyRecord; key: string }> {
  const trimmed = name?.trim() ?? '';
  if (!trimmed || trimmed.length > 100) throw badUserInput('name must be 1 to 100 characters');
  if (!isRole(role)) throw badUserInput(`role must be one of ${ROLES.join(', ')}, got "${role}"`);
  const key = generateKey();
  const [record]: ApiKeyRecord[] = await dataSource.query(
    `INSERT INTO api_keys (name, role, prefix, key_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [trimmed, role, key.slice(0, KEY_PREFIX.length + 6), hashKey(key)],
  );
  return { record, key };
}

export function listApiKeys(dataSource: DataSource): Promise<ApiKeyRecord[]> {
  return dataSource.query(`SELECT ${COLUMNS} FROM api_keys ORDER BY id`);
}

export async function revokeApiKey(dataSource: DataSource, id: number): Promise<ApiKeyRecord> {
  const [record]: ApiKeyRecord[] = await dataSource.query(
    `UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING ${COLUMNS}`,
    [id],
  ).then((result: [ApiKeyRecord[], number]) => result[0]);
  if (!record) throw new AppError('NOT_FOUND', `No API key with id ${id}`);
  return record;
}
