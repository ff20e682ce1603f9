/** `npm run seed`: replaces all companies, statements and documents with the deterministic demo data. */
import 'reflect-metadata';
import { loadConfig } from '../config/config';
import { createLogger } from '../shared/logger';
import { migrate, openDatabase, withStartupLock } from '../db/database';
import { reseed, seedDemoDocuments } from '../demo/seed';
import { prepareSearch } from '../search/search-backend';
import { maintainEmbeddedTables } from '../db/maintenance';

async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openDatabase(config, createLogger(config.logLevel));
  try {
    const report = await withStartupLock(database, async (runner) => {
      await migrate(database, runner);
      return reseed(runner.manager);
    });
    const search = await prepareSearch(database, config, createLogger('warn'), { backgroundRefit: false });
    const documents = await seedDemoDocuments(search);
    await search.models.refitIfStale();
    await search.models.close();
    await maintainEmbeddedTables(database, createLogger('warn'));
    process.stdout.write(
      `Seeded ${report.companies} companies, ${report.statements} statements and ${documents} documents (${database.kind} database)\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`Seeding failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
