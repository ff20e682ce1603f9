import { expect } from 'chai';
import { giveWayToRequests } from '../src/db/give-way';
import { chunksWithoutVector, lastChunkId } from '../src/search/documents.repository';
import { app } from './helpers/shared-app';

/** A request of several statements in a row, each queued as soon as the one before ended; resolves with its end time. */
async function requestOfStatements(statements: number, sleepSeconds: number): Promise<number> {
  for (let i = 0; i < statements; i += 1) await app().database.dataSource.query('SELECT pg_sleep($1)', [sleepSeconds]);
  return Date.now();
}

describe('background work gives way to requests on the one connection of the embedded database', function () {
  before(function () {
    if (app().database.kind !== 'embedded') this.skip(); // a server's pool has several connections: nothing to wait for
  });

  it('returns at once when no request uses or waits for the connection', async () => {
    const started = Date.now();
    await giveWayToRequests(app().database.dataSource.manager);
    expect(Date.now() - started).to.be.below(50);
  });

  it('waits until a request has run all its statements, not just the one under way', async () => {
    const request = requestOfStatements(4, 0.05);
    await new Promise((resolve) => setImmediate(resolve));
    await giveWayToRequests(app().database.dataSource.manager);
    const gaveWayAt = Date.now();
    expect(gaveWayAt).to.be.at.least(await request);
  });

  it('takes its turn after at most about a second while requests keep the connection busy', async () => {
    const request = requestOfStatements(1, 3);
    await new Promise((resolve) => setImmediate(resolve));
    const started = Date.now();
    await giveWayToRequests(app().database.dataSource.manager);
    expect(Date.now() - started).to.be.within(900, 2_000);
    await request;
  });

  it('does not wait inside a transaction, whose connection is its own already', async () => {
    await app().database.dataSource.transaction(async (manager) => {
      const started = Date.now();
      await giveWayToRequests(manager);
      expect(Date.now() - started).to.be.below(50);
    });
  });
});

/** Thrown to roll a test's transaction back. */
class RolledBack extends Error {}

describe('the look-up of chunks still without a vector of a model', function () {
  const manager = () => app().database.dataSource.manager;

  before(function () {
    if (!app().database.vectorAvailable) this.skip(); // no pgvector, no chunk_embeddings table
  });

  it('returns the chunks of the id range that have no vector of the model, in id order, at most the limit', async () => {
    const last = await lastChunkId(manager());
    expect(last).to.be.above(20);
    const ids: Array<{ id: number }> = await manager().query(
      'SELECT id FROM document_chunks WHERE id > $1 AND id <= $2 ORDER BY id',
      [last - 20, last - 5],
    );
    const missing = await chunksWithoutVector(manager(), 'test/model-without-vectors', 100, last - 20, last - 5);
    expect(missing.map((chunk) => chunk.id)).to.deep.equal(ids.map((row) => row.id));
    const limited = await chunksWithoutVector(manager(), 'test/model-without-vectors', 3, last - 20, last - 5);
    expect(limited.map((chunk) => chunk.id)).to.deep.equal(ids.slice(0, 3).map((row) => row.id));
  });

  it('skips the chunks that have a vector of the model', async () => {
    const [{ model }] = await manager().query(
      'SELECT model FROM chunk_embeddings GROUP BY model ORDER BY count(*) DESC LIMIT 1',
    );
    // Some chunks without this model's vector, among others with it: three chunks in the range lose theirs.
    const last = await lastChunkId(manager());
    await manager()
      .transaction(async (inner) => {
        await inner.query('DELETE FROM chunk_embeddings WHERE model = $1 AND chunk_id > $2 AND chunk_id <= $3', [
          model,
          last - 13,
          last - 10,
        ]);
        const expected: Array<{ id: number }> = await inner.query(
          'SELECT c.id FROM document_chunks c WHERE c.id > $2 AND NOT EXISTS (SELECT 1 FROM chunk_embeddings e WHERE e.chunk_id = c.id AND e.model = $1) ORDER BY c.id',
          [model, last - 30],
        );
        expect(expected.length).to.be.at.least(3);
        const missing = await chunksWithoutVector(inner, model, 100, last - 30, last);
        expect(missing.map((chunk) => chunk.id)).to.deep.equal(expected.map((row) => row.id));
        throw new RolledBack();
      })
      .catch((error: unknown) => {
        if (!(error instanceof RolledBack)) throw error;
      });
  });
});
