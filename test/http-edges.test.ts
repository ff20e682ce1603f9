import net from 'node:net';
import { expect } from 'chai';
import { createHttpServer, HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS, sendOk, type HttpServer } from '../src/http/server';
import { readBody } from '../src/http/body';
import { createLogger } from '../src/shared/logger';
import { app } from './helpers/shared-app';

interface RawAnswer {
  status: number;
  head: string;
  body: string;
  ms: number;
}

/** Writes `parts` to a fresh connection (each after `gapMs`, the last left hanging if `hang`) and reads until it closes. */
function raw(baseUrl: string, parts: string[], { gapMs = 0 } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, async () => {
      for (const part of parts) {
        if (socket.destroyed) break;
        socket.write(part);
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
    });
    let response = '';
    socket.on('data', (chunk) => (response += chunk));
    socket.on('close', () => {
      const split = response.indexOf('\r\n\r\n');
      const head = split === -1 ? response : response.slice(0, split);
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
        head,
        body: split === -1 ? '' : response.slice(split + 4),
        ms: Date.now() - started,
      });
    });
    socket.on('error', reject);
  });
}

describe('HTTP edges: timeouts, long URLs, HEAD', function () {
  this.timeout(60_000);

  describe('timeouts', () => {
    let http: HttpServer;
    let url: string;
    const timeouts = { headersMs: 1_000, requestMs: 2_500 };
    before(async () => {
      http = createHttpServer(
        [{ path: '/echo', handler: async (req, res) => sendOk(res, { bytes: (await readBody(req, 1_000)).length }) }],
        createLogger('silent'),
        { timeouts },
      );
      await new Promise<void>((resolve) => http.server.listen(0, '127.0.0.1', () => resolve()));
      url = `http://127.0.0.1:${(http.server.address() as net.AddressInfo).port}`;
    });
    after(() => http?.shutdown(100));

    it('are the documented 20 s for headers and 60 s for the whole request', () => {
      expect([app().server.headersTimeout, app().server.requestTimeout]).to.deep.equal([
        HEADERS_TIMEOUT_MS,
        REQUEST_TIMEOUT_MS,
      ]);
      expect([HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS]).to.deep.equal([20_000, 60_000]);
    });

    it('answers headers that do not arrive in time with 408 within a second of the timeout', async () => {
      const answer = await raw(url, ['GET /echo HTTP/1.1\r\n', 'Host: x\r\n']);
      expect(answer.status).to.equal(408);
      expect(answer.ms).to.be.within(timeouts.headersMs, timeouts.headersMs + 1_200);
      expect(JSON.parse(answer.body).error.code).to.equal('REQUEST_TIMEOUT');
    });

    it('answers a body that does not arrive in time with 408 within a second of the timeout, and keeps serving', async () => {
      const answer = await raw(url, ['POST /echo HTTP/1.1\r\nHost: x\r\ncontent-length: 100\r\n\r\n', 'a'.repeat(10)]);
      expect(answer.status).to.equal(408);
      expect(answer.ms).to.be.within(timeouts.requestMs, timeouts.requestMs + 1_200);
      expect(JSON.parse(answer.body).error).to.include({ code: 'REQUEST_TIMEOUT' });
      const fine = await raw(url, [
        'POST /echo HTTP/1.1\r\nHost: x\r\ncontent-length: 3\r\nconnection: close\r\n\r\nabc',
      ]);
      expect([fine.status, JSON.parse(fine.body).data]).to.deep.equal([200, { bytes: 3 }]);
    });
  });

  it('answers an over-long URL with 414, however long, and over-long headers with 431', async () => {
    for (const length of [9_000, 20_000, 100_000]) {
      const answer = await raw(app().url, [
        `GET /v1/companies?sector=${'a'.repeat(length)} HTTP/1.1\r\nHost: x\r\nconnection: close\r\n\r\n`,
      ]);
      expect(answer.status, `${length}`).to.equal(414);
      expect(JSON.parse(answer.body).error.code).to.equal('URI_TOO_LONG');
    }
    const headers = await raw(app().url, [
      `GET /v1/companies HTTP/1.1\r\nHost: x\r\nx-filler: ${'a'.repeat(20_000)}\r\nconnection: close\r\n\r\n`,
    ]);
    expect(headers.status).to.equal(431);
  });

  it('answers a request target that is no URL with 400, not 500', async () => {
    const answer = await raw(app().url, ['GET http://[bad/ HTTP/1.1\r\nHost: x\r\nconnection: close\r\n\r\n']);
    expect(answer.status).to.equal(400);
    expect(JSON.parse(answer.body).error.code).to.equal('BAD_REQUEST');
  });

  it('never sends a body to HEAD, malformed paths and refused requests included', async () => {
    const heads = [
      'HEAD /v1/companies/abc HTTP/1.1',
      'HEAD /v1/companies/a b HTTP/1.1',
      'HEAD /v1/co\x01 HTTP/1.1',
      'HEAD http://[bad/ HTTP/1.1',
      'HEAD /nowhere HTTP/1.1',
      `HEAD /v1/companies?sector=${'a'.repeat(100_000)} HTTP/1.1`,
    ];
    for (const line of heads) {
      const answer = await raw(app().url, [`${line}\r\nHost: x\r\nconnection: close\r\n\r\n`]);
      expect(answer.status, line.slice(0, 40)).to.be.within(400, 499);
      expect(answer.head.toLowerCase(), line.slice(0, 40)).to.include('content-type: application/json');
      expect(answer.body, line.slice(0, 40)).to.equal('');
    }
  });
});
