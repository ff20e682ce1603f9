/**
 * `npm run keys -- create --name <name> --role viewer|analyst|admin`, `npm run keys -- list`, `npm run keys -- revoke <id>`
 *
 * Manages API keys in the service's database (DATA_DIR or DATABASE_URL). An embedded database is opened by one
 * process at a time: stop the service first, or use an external PostgreSQL (DATABASE_URL) that both can open.
 */
import 'reflect-metadata';
import { loadConfig } from '../config/config';
import { createLogger } from '../shared/logger';
import { migrate, openDatabase, withStartupLock } from '../db/database';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyRecord } from '../auth/api-keys';
import { ROLES } from '../auth/roles';

const USAGE = `usage: npm run keys -- create --name <name> --role ${ROLES.join('|')}
       npm run keys -- list
       npm run keys -- revoke <id>`;

function option(args: string[], name: string): string | undefined {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : undefined;
}

const when = (date: Date | null) => (date ? new Date(date).toISOString().replace('T', ' ').slice(0, 19) : '-');

function describe(record: ApiKeyRecord): string {
  const state = record.revokedAt ? `revoked ${when(record.revokedAt)}` : 'active';
  return `${String(record.id).padStart(4)}  ${record.role.padEnd(8)}  ${`${record.prefix}…`.padEnd(18)}  ${state.padEnd(28)}  created ${when(record.createdAt)}  last used ${when(record.lastUsedAt)}  ${record.name}`;
}

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  if (!['create', 'list', 'revoke'].includes(command)) throw new Error(USAGE);
  const config = loadConfig();
  const database = await openDatabase(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  try {
    await withStartupLock(database, (runner) => migrate(database, runner));
    const { dataSource } = database;
    if (command === 'create') {
      const name = option(args, '--name');
      const role = option(args, '--role');
      if (!name || !role) throw new Error(USAGE);
      const { record, key } = await createApiKey(dataSource, name, role);
      process.stdout.write(`Created key ${record.id} (${record.role}) "${record.name}". It is shown this once; store it now:\n${key}\n`);
    } else if (command === 'list') {
      const keys = await listApiKeys(dataSource);
      process.stdout.write(keys.length ? `${keys.map(describe).join('\n')}\n` : 'No API keys yet: npm run keys -- create --name <name> --role analyst\n');
    } else {
      const id = Number(args[0]);
      if (!Number.isInteger(id) || id < 1) throw new Error(USAGE);
      const record = await revokeApiKey(dataSource, id);
      process.stdout.write(`Revoked key ${record.id} "${record.name}"; running services refuse it within a second.\n`);
    }
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`keys: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
