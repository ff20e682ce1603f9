/**
 * `npm run start:all`: the service and the web front end in one process, for trying both with one command. The
 * service listens on PORT (8080) and the front end on WEB_PORT (3000), talking to it over HTTP like any client.
 */
import 'reflect-metadata';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/shared/logger';
import { startApp } from '../../src/app';
import { createWebServer, loadWebConfig } from './server';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await startApp(config, createLogger(config.logLevel));
  const web = createWebServer({ ...loadWebConfig(), apiUrl: app.url });
  const url = await web.listen();
  process.stdout.write(`Financial insights service on ${app.url}\nWeb front end on ${url}\n`);
  const stop = async () => {
    await web.close();
    await app.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`start:all failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
