import { expect } from 'chai';
import { startApp, type App } from '../src/app';
import { createLogger } from '../src/shared/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres';
import { TARGET, freshDataDir, testConfig } from './helpers/test-app';
import path from 'node:path';

/**
 * The hot reads go to a PostgreSQL server as named statements once they repeat (planned once per connection), never
 * to the embedded database (one session for every connection), and not at all with DB_PREPARED_STATEMENTS=false.
 * Seen through the debug log, where each SQL line names its statement.
 */
describe('named statements for the hot reads', function () {
  this.timeout(60_000);
  const logged: string[] = [];
  let preparing: App;
  let unprepared: App;

  before(async () => {
    const log = createLogger('debug', (line) => void logged.push(line));
    preparing = await startApp(testConfig({ logLevel: 'debug' }), log);
    // The switch matters only on a server (the embedded database never names a statement).
    if (TARGET === 'postgres') unprepared = await startApp(testConfig({ logLevel: 'debug', dbPreparedStatements: false }), log);
  });
  after(async () => {
    await preparing?.close();
    await unprepared?.close();
  });

  /** The statement names of each request's reads of the company page, and the answers, for `times` identical requests. */
  async function askPage(app: App, label: string, times: number): Promise<{ names: Array<string | undefined>; bodies: string[] }> {
    const names: Array<string | undefined> = [];
    const bodies: string[] = [];
    for (let index = 0; index < times; index += 1) {
      const requestId = `${label}-${index}`;
      const response = await fetch(`${app.url}/v1/companies?limit=3&sector=Information%20Technology`, { headers: { 'x-request-id': requestId } });
      expect(response.status).to.equal(200);
      bodies.push(await response.text());
      const page = logged
        .map((line) => JSON.parse(line) as { message: string; requestId?: string; query?: string; statement?: string })
        .filter((line) => line.message === 'sql' && line.requestId === requestId && line.query?.includes('FROM companies AS c') && line.query.includes('LIMIT'));
      expect(page, requestId).to.have.length(1);
      names.push(page[0].statement);
    }
    return { names, bodies };
  }

  it(`names a repeated read from its third time on a PostgreSQL server, never on the embedded database (${TARGET})`, async () => {
    const { names, bodies } = await askPage(preparing, 'prepared', 5);
    if (preparing.database.kind === 'external') {
      expect(names.slice(0, 2)).to.deep.equal([undefined, undefined]);
      expect(names[2]).to.match(/^fi_\d+$/);
      expect(new Set(names.slice(2)).size).to.equal(1);
    } else {
      expect(names).to.deep.equal([undefined, undefined, undefined, undefined, undefined]);
    }
    // Named or not, the same answer.
    expect(new Set(bodies).size).to.equal(1);
  });

  it('names nothing on a DATABASE_URL that PGlite serves (its connections share one session), and says so', async function () {
    // The benchmark's set-up: PGlite over a socket, several pooled connections. Only once per suite, on its embedded pass.
    if (TARGET !== 'embedded') this.skip();
    const served: EmbeddedPostgres = await startEmbeddedPostgres(path.join(freshDataDir(), 'pglite'), 4);
    const lines: string[] = [];
    const app = await startApp(testConfig({ databaseUrl: served.url, dbPoolSize: 4, logLevel: 'debug' }), createLogger('debug', (line) => void lines.push(line)));
    try {
      // Concurrent requests, so the pool opens several connections into the one session.
      for (let round = 0; round < 3; round += 1) {
        const answers = await Promise.all(Array.from({ length: 8 }, () => fetch(`${app.url}/v1/companies?limit=3`)));
        expect(answers.map((answer) => answer.status)).to.deep.equal(Array(8).fill(200));
      }
      const logged = lines.map((line) => JSON.parse(line) as { message: string; statement?: string });
      expect(logged.some((line) => line.message.startsWith('named statements off'))).to.equal(true);
      expect(logged.filter((line) => line.message === 'sql' && line.statement)).to.deep.equal([]);
    } finally {
      await app.close();
      await served.stop();
    }
  });

  it('sends no named statement with DB_PREPARED_STATEMENTS=false', async function () {
    if (!unprepared) this.skip();
    const { names } = await askPage(unprepared, 'unprepared', 4);
    expect(names).to.deep.equal([undefined, undefined, undefined, undefined]);
  });
});
