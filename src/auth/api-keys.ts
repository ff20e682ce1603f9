import type { DataSource, EntityManager } from 'typeorm';
import { AppError, badUserInput } from '../shared/errors';
import { isRole, ROLES } from './roles';
import { generateKey, hashKey, KEY_PREFIX } from '../shared/key-format';
import {
  apiKeyHashExists,
  countApiKeys,
  findApiKeys,
  insertApiKey,
  revokeApiKeyById,
  type ApiKeyRecord,
} from './api-key.repository';

export type { ApiKeyRecord } from './api-key.repository';
export { generateKey, hashKey, isWellFormedKey, KEY_PREFIX } from '../shared/key-format';

const keyPrefix = (key: string) => key.slice(0, KEY_PREFIX.length + 6);

/**
 * Creates a key; returns the record and the key itself, which is never available again. A forwarding key (a front
 * end's) has its requests rate-limited as the client its X-Forwarded-For names.
 */
export async function createApiKey(
  dataSource: DataSource,
  name: string,
  role: string,
  forwardsClients = false,
): Promise<{ record: ApiKeyRecord; key: string }> {
  const trimmed = name?.trim() ?? '';
  if (!trimmed || trimmed.length > 100) throw badUserInput('name must be 1 to 100 characters', { field: 'name' });
  if (!isRole(role))
    throw badUserInput(`role must be one of ${ROLES.join(', ')}, got "${role}"`, {
      field: 'role',
      accepted: [...ROLES],
    });
  const key = generateKey();
  const record = await insertApiKey(dataSource.manager, {
    name: trimmed,
    role,
    prefix: keyPrefix(key),
    keyHash: hashKey(key),
    forwardsClients,
  });
  return { record, key };
}

/**
 * The first admin key, at start-up (inside the start-up lock, so two instances never both make one): ADMIN_API_KEY
 * is stored when the database does not hold it yet (a revoked one stays revoked); without it, a database with no key
 * at all gets a generated admin key, returned so the caller prints it once. Null when nothing new was made.
 */
export async function ensureFirstAdminKey(manager: EntityManager, adminApiKey: string | null): Promise<string | null> {
  if (adminApiKey !== null) {
    if (!(await apiKeyHashExists(manager, hashKey(adminApiKey)))) {
      await insertApiKey(manager, {
        name: 'ADMIN_API_KEY',
        role: 'admin',
        prefix: keyPrefix(adminApiKey),
        keyHash: hashKey(adminApiKey),
      });
    }
    return null;
  }
  if ((await countApiKeys(manager)) > 0) return null;
  const key = generateKey();
  await insertApiKey(manager, { name: 'first admin', role: 'admin', prefix: keyPrefix(key), keyHash: hashKey(key) });
  return key;
}

/**
 * The web front end's key (WEB_API_KEY), at start-up: stored when the database does not hold it yet (a revoked one
 * stays revoked) as a viewer key that forwards clients, so each visitor of the front end spends their own budget.
 */
export async function ensureWebApiKey(manager: EntityManager, webApiKey: string | null): Promise<void> {
  if (webApiKey === null || (await apiKeyHashExists(manager, hashKey(webApiKey)))) return;
  await insertApiKey(manager, {
    name: 'WEB_API_KEY',
    role: 'viewer',
    prefix: keyPrefix(webApiKey),
    keyHash: hashKey(webApiKey),
    forwardsClients: true,
  });
}

export function listApiKeys(dataSource: DataSource): Promise<ApiKeyRecord[]> {
  return findApiKeys(dataSource.manager);
}

export async function revokeApiKey(dataSource: DataSource, id: number): Promise<ApiKeyRecord> {
  const record = await revokeApiKeyById(dataSource.manager, id);
  if (!record) throw new AppError('NOT_FOUND', `No API key with id ${id}`);
  return record;
}
