import { expect } from 'chai';
import { killConnectionsUnderLoad } from '../bench/faults/drills/connection-kill';
import { TARGET } from './helpers/test-app';

describe('database faults', function () {
  this.timeout(180_000);

  it('survives backends terminated every 100 ms under writes and chats: no crash, no 500, every acknowledged write kept once', async function () {
    const adminUrl = process.env.TEST_PG_ADMIN_URL;
    if (TARGET !== 'postgres' || !adminUrl) {
      // The embedded database is one PGlite session in a child process: there is no backend to terminate (its
      // child being killed is the recovery test's fault).
      this.test!.title += ' (skipped: needs the PostgreSQL leg, TEST_PG_ADMIN_URL)';
      this.skip();
    }
    // The service runs in its own process, so that a crash is seen here rather than ending the suite.
    const result = await killConnectionsUnderLoad(adminUrl!, 8);
    const report = JSON.stringify(result, null, 1);
    expect(result.backendsTerminated, report).to.be.greaterThan(20);
    expect(result.crashes, report).to.equal(0);
    expect(result.serverErrors, report).to.equal(0);
    expect(result.writesAcknowledged, report).to.be.greaterThan(0);
    expect(result.lostWrites, report).to.equal(0);
    expect(result.recoveryMs, report).to.have.length(1);
  });
});
