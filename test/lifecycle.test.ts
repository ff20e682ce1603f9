import net from 'node:net';
import { expect } from 'chai';
import { get, request, type Data } from './helpers/http';
import { freshDataDir, TARGET } from './helpers/test-app';
import { runServiceToExit, startServiceProcess, type ServiceProcess } from './helpers/service-process';

const databaseEnv = () => ({ DATABASE_URL: process.env.TEST_DATABASE_URL, DATA_DIR: freshDataDir() });

/** Sends a raw HTTP request in two parts, calling `between` after the first; resolves with the raw response. */
function twoPartRequest(url: string, head: string, body: string, between: () => Promise<void>): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, async () => {
      socket.write(head + body.slice(0, 10));
      await between();
      socket.write(body.slice(10));
    });
    let response = '';
    socket.on('data', (chunk) => (response += chunk));
    socket.on('end', () => resolve(response));
    socket.on('error', reject);
  });
}

describe('service lifecycle', function () {
  this.timeout(180_000);

  it('answers /healthz and /readyz with JSON', async () => {
    const health = await get('/healthz');
    expect(health.status).to.equal(200);
    expect(health.body).to.deep.equal({ success: true, data: { status: 'ok' } });
    const ready = await get<Data<{ status: string; database: string }>>('/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body.data.status).to.equal('ready');
    expect(ready.body.data.database).to.equal(TARGET === 'embedded' ? 'embedded' : 'external');
    const wrongMethod = await request('/healthz', { method: 'POST' });
    expect(wrongMethod.status).to.equal(405);
  });

  describe('as its own process', () => {
    let service: ServiceProcess | null = null;
    afterEach(() => {
      service?.child.kill('SIGKILL');
      service = null;
    });

    it('prints its URLs, finishes an in-flight request on SIGTERM, then exits 0', async () => {
      service = await startServiceProcess(databaseEnv());
      expect(service.output()).to.match(/GraphQL: +http:\/\/127\.0\.0\.1:\d+\/graphql/);
      const body = JSON.stringify({ query: '{ companies(limit: 3) { total items { ticker } } }' });
      const head = `POST /graphql HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
      const running = service;
      const response = await twoPartRequest(service.url, head, body, async () => {
        // Let the server take in the request head first: from then on the request is in flight.
        await new Promise((resolve) => setTimeout(resolve, 200));
        running.child.kill('SIGTERM');
        await new Promise((resolve) => setTimeout(resolve, 300));
      });
      expect(response).to.match(/^HTTP\/1\.1 200/);
      expect(response).to.match(/"items":\[\{"ticker"/);
      expect(await running.exited).to.equal(0);
      // After the stop nothing listens any more.
      const refused = await fetch(`${running.url}/healthz`).then(
        () => false,
        () => true,
      );
      expect(refused).to.equal(true);
    });

    if (TARGET === 'embedded') {
      it('keeps its data across restarts and refuses a second process on the same data directory', async () => {
        const env = databaseEnv();
        service = await startServiceProcess(env);
        const before = await (await fetch(`${service.url}/v1/companies?limit=1`)).json();

        const second = await runServiceToExit(env);
        expect(second.code).to.not.equal(0);
        expect(second.output).to.match(/in use by process \d+/);

        service.child.kill('SIGINT');
        expect(await service.exited).to.equal(0);
        service = await startServiceProcess(env);
        const after = await (await fetch(`${service.url}/v1/companies?limit=1`)).json();
        expect(after).to.deep.equal(before);
        service.child.kill('SIGTERM');
        expect(await service.exited).to.equal(0);
      });
    }

    it('refuses a bad configuration with a clear message and exit code 2', async () => {
      const result = await runServiceToExit({ PORT: 'eighty' });
      expect(result.code).to.equal(2);
      expect(result.output).to.match(/PORT must be a whole number/);
    });
  });
});
