import http from 'node:http';
import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { keysFor } from './helpers/keys';
import { nestingDepth } from '../src/http/body';
import { QueryRunnerAlreadyReleasedError, QueryRunnerProviderAlreadyReleasedError } from 'typeorm';
import { databaseUnavailable, isConnectionError, isPoolBusy } from '../src/shared/database-unavailable';

/** A request on a keep-alive agent; resolves with the status, the headers and the local port of the socket used. */
function call(
  agent: http.Agent,
  method: string,
  path: string,
  body?: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string; localPort: number }> {
  const url = new URL(path, app().url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        agent,
        headers: { 'x-api-key': keysFor(app().url).admin, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, localPort: req.socket?.localPort ?? 0 }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('HTTP connections and bodies', () => {
  it('keeps the connection alive after an error answer to a GET', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const missing = await call(agent, 'GET', '/v1/companies/999999');
      expect(missing.status).to.equal(404);
      expect(missing.headers.connection).to.equal('keep-alive');
      const bad = await call(agent, 'GET', '/v1/companies?limit=0');
      expect(bad.status).to.equal(400);
      expect(bad.headers.connection).to.equal('keep-alive');
      const ok = await call(agent, 'GET', '/v1/companies?limit=1');
      expect(ok.status).to.equal(200);
      // One socket served all three.
      expect(new Set([missing.localPort, bad.localPort, ok.localPort]).size).to.equal(1);
    } finally {
      agent.destroy();
    }
  });

  it('still closes the connection when a refused request left its body unread', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await call(agent, 'POST', '/v1/companies/1/ratios', JSON.stringify({ a: 'x'.repeat(1000) }));
      expect(refused.status).to.equal(405);
      expect(refused.headers.connection).to.equal('close');
    } finally {
      agent.destroy();
    }
  });

  describe('a body of 5,000 nested brackets is a clear 400 on every transport', () => {
    const deepArray = '['.repeat(5000) + ']'.repeat(5000);
    const cases: Array<[string, string]> = [
      ['/v1/search', `{"query":${deepArray}}`],
      ['/v1/search', `{"query":"revenue","company_ids":${deepArray}}`],
      ['/v1/ai/chat', `{"messages":${deepArray}}`],
      ['/graphql', `{"query":"{ companies { total } }","variables":{"a":${deepArray}}}`],
      ['/graphql/stream', deepArray],
    ];
    for (const [path, body] of cases) {
      it(`${path} ${body.slice(0, 40)}…`, async () => {
        const answer = await call(new http.Agent(), 'POST', path, body);
        expect(answer.status).to.equal(400);
        expect(answer.text).to.match(/nested more than \d+ levels/);
        expect(answer.text).to.not.match(/INTERNAL_SERVER_ERROR/);
      });
    }
  });

  describe('units', () => {
    it('measures JSON nesting without parsing, ignoring brackets inside strings', () => {
      expect(nestingDepth('{"a":[1,{"b":[]}]}')).to.equal(4);
      expect(nestingDepth('"[[[["')).to.equal(0);
      expect(nestingDepth('{"a":"\\"[[["}')).to.equal(1);
      expect(nestingDepth('[[[]],[]]')).to.equal(3);
    });

    it('tells a connection failure from a failing statement', () => {
      expect(
        isConnectionError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })),
      ).to.equal(true);
      expect(isConnectionError(new Error('Connection terminated unexpectedly'))).to.equal(true);
      expect(isConnectionError({ message: 'query failed', driverError: { code: '57P01' } })).to.equal(true);
      expect(isConnectionError({ code: '08006' })).to.equal(true);
      // TypeORM releases a transaction's runner when its connection dies; the transaction's next statement says so.
      expect(isConnectionError(new QueryRunnerAlreadyReleasedError())).to.equal(true);
      expect(isConnectionError(new QueryRunnerProviderAlreadyReleasedError())).to.equal(true);
      expect(isConnectionError(new Error('Client has encountered a connection error and is not queryable'))).to.equal(
        true,
      );
      // Waiting for a pool whose connections are all in use is a busy database, not a lost one.
      expect(isConnectionError(new Error('timeout exceeded when trying to connect'))).to.equal(false);
      expect(isPoolBusy(new Error('timeout exceeded when trying to connect'))).to.equal(true);
      expect(databaseUnavailable(new Error('timeout exceeded when trying to connect'))).to.deep.include({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is busy; retry shortly',
      });
      expect(isConnectionError({ code: '23505', message: 'duplicate key value violates unique constraint' })).to.equal(
        false,
      );
      expect(isConnectionError({ code: '42P01', message: 'relation "x" does not exist' })).to.equal(false);
      expect(isConnectionError(null)).to.equal(false);
    });
  });
});
