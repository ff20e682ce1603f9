/**
 * `npm run keys -- create --name <name> --role viewer|analyst|admin [--forwards-clients]`, `npm run keys -- list`,
 * `npm run keys -- revoke <id>`, `npm run keys -- generate`
 *
 * With `--api <service url>` (or FIS_BASE_URL) it manages the keys of a running service through its admin API
 * (/v1/admin/keys), with an admin key (`--key`, or FIS_API_KEY): nothing needs to stop. Without it, it writes to the
 * service's database (DATA_DIR or DATABASE_URL); an embedded database is opened by one process at a time, so that
 * way needs the service stopped. `generate` prints a new key without storing it (for ADMIN_API_KEY). A key made with
 * `--forwards-clients` is a front end's: its requests are rate-limited per visitor named in X-Forwarded-For.
 */
import 'reflect-metadata';
import { loadConfig } from '../config/config';
import { createLogger } from '../shared/logger';
import { migrate, openDatabase, withStartupLock } from '../db/database';
import { createApiKey, generateKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../auth/api-keys';
import { ROLES } from '../auth/roles';

const USAGE = `usage: npm run keys -- create --name <name> --role ${ROLES.join('|')} [--forwards-clients]
       npm run keys -- list
       npm run keys -- revoke <id>
       npm run keys -- generate                 (a new key, not stored: for ADMIN_API_KEY)
  against a running service: add --api <url> (or set FIS_BASE_URL) and --key <admin key> (or set FIS_API_KEY)`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

const when = (date: Date | null) => (date ? date.toISOString().replace('T', ' ').slice(0, 19) : '-');

function describe(record: ApiKeyRecord): string {
  const state = record.revokedAt ? `revoked ${when(record.revokedAt)}` : 'active';
  const forwards = record.forwardsClients ? '  (forwards clients)' : '';
  return `${String(record.id).padStart(4)}  ${record.role.padEnd(8)}  ${`${record.prefix}…`.padEnd(18)}  ${state.padEnd(28)}  created ${when(record.createdAt)}  last used ${when(record.lastUsedAt)}  ${record.name}${forwards}`;
}

/** What the commands need, from the database or from a running service's admin API. */
interface KeyStore {
  create(name: string, role: string, forwardsClients: boolean): Promise<{ record: ApiKeyRecord; key: string }>;
  list(): Promise<ApiKeyRecord[]>;
  revoke(id: number): Promise<ApiKeyRecord>;
  close(): Promise<void>;
}

async function databaseStore(): Promise<KeyStore> {
  const config = loadConfig();
  const database = await openDatabase(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  try {
    await withStartupLock(database, (runner) => migrate(database, runner));
  } catch (error) {
    await database.close();
    throw error;
  }
  const { dataSource } = database;
  return {
    create: (name, role, forwardsClients) => createApiKey(dataSource, name, role, forwardsClients),
    list: () => listApiKeys(dataSource),
    revoke: (id) => revokeApiKey(dataSource, id),
    close: () => database.close(),
  };
}

/** A REST record (snake_case) as the CLI prints it. */
interface RestKeyRecord {
  id: number;
  name: string;
  role: ApiKeyRecord['role'];
  prefix: string;
  forwards_clients: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

function fromRest(row: RestKeyRecord): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    forwardsClients: row.forwards_clients,
    createdAt: new Date(row.created_at),
    lastUsedAt: row.last_used_at ? new Date(row.last_used_at) : null,
    revokedAt: row.revoked_at ? new Date(row.revoked_at) : null,
  };
}

function apiStore(url: string, key: string | undefined): KeyStore {
  if (!key) throw new Error('--api needs an admin key: --key <key> or FIS_API_KEY');
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const answer = (await response.json().catch(() => null)) as {
      success?: boolean;
      data?: T;
      error?: { message?: string };
    } | null;
    if (!answer?.success) throw new Error(answer?.error?.message ?? `${method} ${path} answered ${response.status}`);
    return answer.data as T;
  };
  return {
    create: async (name, role, forwardsClients) => {
      const data = await call<{ api_key: RestKeyRecord; key: string }>('POST', '/v1/admin/keys', {
        name,
        role,
        forwards_clients: forwardsClients,
      });
      return { record: fromRest(data.api_key), key: data.key };
    },
    list: async () => (await call<RestKeyRecord[]>('GET', '/v1/admin/keys')).map(fromRest),
    revoke: async (id) => fromRest(await call<RestKeyRecord>('DELETE', `/v1/admin/keys/${id}`)),
    close: async () => undefined,
  };
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!['create', 'list', 'revoke', 'generate'].includes(command)) throw new Error(USAGE);
  if (command === 'generate') {
    process.stdout.write(`${generateKey()}\n`);
    return;
  }
  // FIS_BASE_URL, as the SDKs and examples read it; FIS_URL is its older name, still read.
  const api = (option(args, '--api') ?? process.env.FIS_BASE_URL ?? process.env.FIS_URL)?.trim().replace(/\/$/, '');
  const store = api ? apiStore(api, option(args, '--key') ?? process.env.FIS_API_KEY?.trim()) : await databaseStore();
  try {
    if (command === 'create') {
      const name = option(args, '--name');
      const role = option(args, '--role');
      if (!name || !role) throw new Error(USAGE);
      const { record, key } = await store.create(name, role, args.includes('--forwards-clients'));
      const kind = record.forwardsClients ? `${record.role}, forwards clients` : record.role;
      process.stdout.write(
        `Created key ${record.id} (${kind}) "${record.name}". It is shown this once; store it now:\n${key}\n`,
      );
    } else if (command === 'list') {
      const keys = await store.list();
      process.stdout.write(
        keys.length
          ? `${keys.map(describe).join('\n')}\n`
          : 'No API keys yet: npm run keys -- create --name <name> --role analyst\n',
      );
    } else {
      const id = Number(args[0]);
      if (!Number.isInteger(id) || id < 1) throw new Error(USAGE);
      const record = await store.revoke(id);
      process.stdout.write(`Revoked key ${record.id} "${record.name}"; running services refuse it within a second.\n`);
    }
  } finally {
    await store.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`keys: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
