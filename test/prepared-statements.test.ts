import { expect } from 'chai';
import { startApp, type App } from '../src/app';
import { createLogger } from '../src/shared/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../src/db/embedded-postgres';
import { TARGET, freshDataDir, testConfig } from './helpers/test-app';
import path from 'node:path';
import type { Pool } from 'pg';
import { sqlCount } from '../src/db/prepared-statements.repository';

/**
 * The hot reads go to the database as named statements once they repeat (planned once per session): on a PostgreSQL
 * server per connection, on the embedded database (one session for every connection) through its one connection
 * under a prefix of the process's own; not through several connections into one PGlite session, and not at all with
 * DB_PREPARED_STATEMENTS=false.
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
    if (TARGET === 'postgres')
      unprepared = await startApp(testConfig({ logLevel: 'debug', dbPreparedStatements: false }), log);
  });
  after(async () => {
    await preparing?.close();
    await unprepared?.close();
  });

  /** The statement names of each request's reads of the company page, and the answers, for `times` identical requests. */
  async function askPage(
    app: App,
    label: string,
    times: number,
  ): Promise<{ names: Array<string | undefined>; bodies: string[] }> {
    const names: Array<string | undefined> = [];
    const bodies: string[] = [];
    for (let index = 0; index < times; index += 1) {
      const requestId = `${label}-${index}`;
      const response = await fetch(`${app.url}/v1/companies?limit=3&sector=Information%20Technology`, {
        headers: { 'x-request-id': requestId },
      });
      const body = await response.text();
      // On failure, say why: the answer and what the service logged above debug level.
      const notes = () =>
        `${body}\n${logged
          .filter((line) => !line.includes('"level":"debug"'))
          .slice(-10)
          .join('\n')}`;
      expect(response.status, notes()).to.equal(200);
      bodies.push(body);
      const page = logged
        .map((line) => JSON.parse(line) as { message: string; requestId?: string; query?: string; statement?: string })
        .filter(
          (line) =>
            line.message === 'sql' &&
            line.requestId === requestId &&
            line.query?.includes('FROM companies AS c') &&
            line.query.includes('LIMIT'),
        );
      expect(page, requestId).to.have.length(1);
      names.push(page[0].statement);
    }
    return { names, bodies };
  }

  it(`names a repeated read from its third time, on a PostgreSQL server and on the embedded database (${TARGET})`, async () => {
    const { names, bodies } = await askPage(preparing, 'prepared', 5);
    expect(names.slice(0, 2)).to.deep.equal([undefined, undefined]);
    // On PGlite, whose connections share one session with other processes', under a prefix of this process's own.
    expect(names[2]).to.match(preparing.database.kind === 'external' ? /^fi_\d+$/ : /^fi_[0-9a-f]{8}_\d+$/);
    expect(new Set(names.slice(2)).size).to.equal(1);
    // Named or not, the same answer.
    expect(new Set(bodies).size).to.equal(1);
  });

  it("keeps serving named reads after the connection is opened again (the new one drops its predecessor's names first)", async () => {
    const before = await askPage(preparing, 'reopen-before', 3);
    // Throw the pooled connection away, as an error would: the next request opens a new one. On PGlite the old
    // connection's statements are still in the shared session, and preparing the same name again would fail.
    // The next request comes at once, while the server may not yet have seen the old connection close: every time.
    const pool = (preparing.database.dataSource.driver as unknown as { master: Pool }).master;
    for (let drop = 0; drop < 30; drop += 1) {
      const client = await pool.connect();
      client.release(new Error('drill: connection thrown away'));
      const after = await askPage(preparing, `reopen-after-${drop}`, 3);
      expect(after.names).to.deep.equal([before.names[0], before.names[0], before.names[0]]);
      expect(after.bodies).to.deep.equal(before.bodies);
    }
  });

  it('names nothing through several connections into one PGlite session (on a DATABASE_URL), and says so', async function () {
    // The benchmark's set-up: PGlite over a socket, several pooled connections. Only once per suite, on its embedded pass.
    if (TARGET !== 'embedded') this.skip();
    const served: EmbeddedPostgres = await startEmbeddedPostgres(path.join(freshDataDir(), 'pglite'), 4);
    const lines: string[] = [];
    const app = await startApp(
      testConfig({ databaseUrl: served.url, dbPoolSize: 4, logLevel: 'debug' }),
      createLogger('debug', (line) => void lines.push(line)),
    );
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

  it('writes row counts into a statement only as non-negative integers', () => {
    expect([0, 4, 100].map(sqlCount)).to.deep.equal(['0', '4', '100']);
    for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60])
      expect(() => sqlCount(bad), String(bad)).to.throw('non-negative integer');
  });

  it('sends no named statement with DB_PREPARED_STATEMENTS=false', async function () {
    if (!unprepared) this.skip();
    const { names } = await askPage(unprepared, 'unprepared', 4);
    expect(names).to.deep.equal([undefined, undefined, undefined, undefined]);
  });
});
