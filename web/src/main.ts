/** `npm run web`: the companion front end on WEB_PORT (3000), talking to the service at API_URL. */
import { createWebServer, loadWebConfig } from './server';

async function main(): Promise<void> {
  const config = loadWebConfig();
  const web = createWebServer(config);
  const url = await web.listen();
  process.stdout.write(`Financial insights web front end on ${url} (service: ${config.apiUrl})\n`);
  const stop = () => web.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`web failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
