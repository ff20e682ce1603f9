/**
 * One server under test in its own process, so that its CPU and memory are its own and its garbage collection
 * pauses nobody else: the service, the bare limit or PostGraphile (BENCH_SERVER), on BENCH_DATABASE_URL.
 * It tells the bench its URL, then answers `usage` messages with its CPU time, memory and request counts.
 */
import http from 'node:http';
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import { startApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/shared/logger';
import { startBareServer } from './bare-server';
import { startPostGraphile } from './postgraphile-server';

export type ServerKind = 'service' | 'bare' | 'postgraphile';

export interface ServerUsage {
  /** User + system CPU time of the process so far. */
  cpuMicros: number;
  rssBytes: number;
  /** Heap in use after a full garbage collection: what the process really keeps. */
  heapAfterGcBytes: number;
  /** Requests answered so far, and requests still in progress. */
  answered: number;
  inFlight: number;
}

export type ServerMessage =
  { type: 'ready'; url: string } | { type: 'usage'; usage: ServerUsage } | { type: 'failed'; message: string };

/** Counts answered and in-flight requests on every server alike. */
function countRequests(server: http.Server): { answered: () => number; inFlight: () => number } {
  let answered = 0;
  let inFlight = 0;
  server.prependListener('request', (_req, res: http.ServerResponse) => {
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      answered += 1;
    });
  });
  return { answered: () => answered, inFlight: () => inFlight };
}

async function start(
  kind: ServerKind,
  databaseUrl: string,
  poolSize: number,
): Promise<{ server: http.Server; url: string; stop(): Promise<unknown> }> {
  if (kind === 'service') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-bench-service-'));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      DB_POOL_SIZE: String(poolSize),
      LOG_LEVEL: 'error',
      // Throughput is measured from one address: the rate limits (which this run does not measure) must not cut in.
      RATE_LIMIT_READS: '999999999/60',
    });
    const app = await startApp(config, createLogger('error'));
    return { server: app.server, url: app.url, stop: () => app.close() };
  }
  const started =
    kind === 'bare' ? await startBareServer(databaseUrl, poolSize) : await startPostGraphile(databaseUrl, poolSize);
  const { port } = started.server.address() as { port: number };
  const stop = async () => {
    await new Promise((resolve) => started.server.close(resolve));
    await ('pool' in started ? started.pool.end() : started.release());
  };
  return { server: started.server, url: `http://127.0.0.1:${port}`, stop };
}

async function main(): Promise<void> {
  const kind = process.env.BENCH_SERVER as ServerKind;
  const send = (message: ServerMessage) => process.send?.(message);
  try {
    const { server, url, stop } = await start(
      kind,
      process.env.BENCH_DATABASE_URL as string,
      Number(process.env.BENCH_POOL_SIZE),
    );
    const requests = countRequests(server);
    process.on('message', (message: { type: string }) => {
      if (message.type === 'usage') {
        const cpu = process.cpuUsage();
        (globalThis as { gc?: () => void }).gc?.();
        send({
          type: 'usage',
          usage: {
            cpuMicros: cpu.user + cpu.system,
            rssBytes: process.memoryUsage.rss(),
            heapAfterGcBytes: process.memoryUsage().heapUsed,
            answered: requests.answered(),
            inFlight: requests.inFlight(),
          },
        });
      } else if (message.type === 'stop') {
        void stop().finally(() => process.exit(0));
      }
    });
    send({ type: 'ready', url });
  } catch (error) {
    send({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  }
}

void main();
