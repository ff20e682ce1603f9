import { ConfigError, loadConfig } from './config/config';
import { createLogger } from './shared/logger';
import { startApp } from './app';

const FAILED_EXIT_DELAY_MS = 1_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const app = await startApp(config, logger);
  process.stdout.write(
    `Financial insights service listening on ${app.url}\n` +
      `  GraphQL:  ${app.url}/graphql\n` +
      `  REST:     ${app.url}/v1/companies\n` +
      `  Database: ${app.database.kind === 'embedded' ? `embedded PostgreSQL in ${config.dataDir}` : 'DATABASE_URL'}\n` +
      (app.metricsUrl ? `  Metrics:  ${app.metricsUrl}/metrics\n` : ''),
  );
  if (app.firstAdminKey) {
    process.stdout.write(
      `\nThe database had no API key, so this admin key was made. It is shown this once; store it now:\n  ${app.firstAdminKey}\n` +
        `Make more keys with it: npm run keys -- create --name me --role analyst (FIS_API_KEY=<this key>)\n\n`,
    );
  }

  // The embedded database could not be restarted: /healthz says so for a moment, then a non-zero exit lets the
  // supervisor (systemd, Docker, Kubernetes) start a fresh process.
  app.database.health.onFailed(() => {
    setTimeout(() => process.exit(1), FAILED_EXIT_DELAY_MS).unref();
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutting down', { signal });
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error('shutdown failed', { error: String(error) });
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
