import { expect } from 'chai';
import { giveWayToRequests } from '../src/db/give-way';
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
