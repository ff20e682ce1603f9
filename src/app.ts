import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { RETRY_AFTER_SECONDS } from './shared/database-unavailable';
import type { AppConfig } from './config/config';
import type { Logger } from './shared/logger';
import { openDatabase, migrate, withStartupLock, type Database } from './db/database';
import { seedDemoDocuments, seedIfEmpty } from './demo/seed';
import { prepareSearch } from './search/search-backend';
import { maintainEmbeddedTables } from './db/maintenance';
import { refreshQueuedRatios } from './statements/stored-ratios';
import { buildAppSchema } from './graphql/schema';
import { createGraphQLHandler, sendGraphQLTransportError } from './graphql/graphql-handler';
import { createRequestContext, type Services } from './graphql/context';
import { createRestFacade } from '../rest-facade/facade';
import { createHttpServer, sendOk } from './http/server';
import { AppError } from './shared/errors';
import { createAiService } from './ai/create-ai-service';
import { createStreamHandler } from './graphql/stream-handler';
import { STREAM_ENDPOINT } from './graphql/schema';
import { Authenticator, sameSecret } from './auth/authenticator';
import { createAuthRoutes } from './http/auth-routes';
import { createTokenEndpoint, sendOAuthError } from './http/oauth-token';
import type { TokenSettings } from './auth/tokens';
import { RequestGuard } from './http/guard';
import { ClientAddresses } from './http/client-address';
import { MemoryRateStore, RateLimiter, type RateStore } from './limits/rate-limiter';
import { RedisRateStore } from './limits/redis-rate-store';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { keepOrStoreSecret } from './auth/service-secret.repository';
import { ensureFirstAdminKey, ensureWebApiKey } from './auth/api-keys';
import { Metrics } from './http/metrics';
import { GRAPHIQL_ASSETS, serveGraphiQLAsset } from './graphql/graphiql';

export interface App {
  /** Base URL of the service, e.g. http://127.0.0.1:8080 */
  url: string;
  database: Database;
  /** The listening node:http server (the benchmark counts its requests). */
  server: Server;
  /** An admin key generated because the database had none: shown once, by whoever started the app. */
  firstAdminKey: string | null;
  /** Base URL of the separate metrics listener (METRICS_PORT), or null when /metrics is on the API port. */
  metricsUrl: string | null;
  /** Graceful stop: no new connections, in-flight requests finish, then the database closes. */
  close(): Promise<void>;
}

function onlyGet(method: string | undefined, path: string): void {
  if (method !== 'GET' && method !== 'HEAD') {
    throw new AppError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on ${path}; use GET`, undefined, {
      allow: 'GET',
    });
  }
}

/**
 * Liveness: 200 while the process can serve or is repairing its database (restarting it); 503 once the embedded
 * database could not be restarted, just before the process exits for its supervisor to start it again.
 */
async function serveHealth(req: IncomingMessage, res: ServerResponse, database: Database): Promise<void> {
  onlyGet(req.method, '/healthz');
  const state = database.health.state;
  if (state === 'failed') {
    throw new AppError('SERVICE_UNAVAILABLE', 'The database could not be restarted; the process is exiting', {
      status: 'failed',
      database: state,
    });
  }
  sendOk(res, state === 'up' ? { status: 'ok' } : { status: 'recovering', database: state });
}

/**
 * Readiness: whether requests can be served now. Says which kind of database and whether it answers, never its
 * address or the driver's message (the endpoint is public).
 */
async function serveReadiness(req: IncomingMessage, res: ServerResponse, database: Database): Promise<void> {
  onlyGet(req.method, '/readyz');
  const notReady = () =>
    new AppError(
      'SERVICE_UNAVAILABLE',
      'The database is not answering',
      { status: 'not_ready', database: database.kind, state: database.health.state },
      {
        'retry-after': String(RETRY_AFTER_SECONDS),
      },
    );
  if (database.health.state !== 'up') throw notReady();
  try {
    await database.dataSource.query('SELECT 1');
  } catch {
    await database.health.check();
    throw notReady();
  }
  sendOk(res, { status: 'ready', database: database.kind, state: 'up' });
}

/** Connections of the database pool, for the metrics (the pg pool behind TypeORM). */
function poolFigures(database: Database): { total: number; idle: number; waiting: number } | null {
  const pool = (
    database.dataSource.driver as unknown as {
      master?: { totalCount: number; idleCount: number; waitingCount: number };
    }
  ).master;
  return pool ? { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount } : null;
}

/**
 * Token signing settings. Without JWT_SECRET the secret is generated once and kept in the database, so a restart or
 * another instance on the same database keeps tokens and sessions valid.
 */
async function tokenSettings(config: AppConfig, manager: EntityManager): Promise<TokenSettings> {
  const secret =
    config.jwtSecret ?? (await keepOrStoreSecret(manager, 'jwt_secret', randomBytes(32).toString('base64url')));
  return {
    secret: new TextEncoder().encode(secret),
    issuer: config.jwtIssuer,
    audience: config.jwtAudience,
    ttlSeconds: config.jwtTtlSeconds,
  };
}

/** GET /metrics: Prometheus text; with METRICS_TOKEN only for `Authorization: Bearer <METRICS_TOKEN>`. */
function metricsHandler(metrics: Metrics, token: string | null) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    onlyGet(req.method, '/metrics');
    if (token !== null && !sameSecret(req.headers.authorization ?? '', `Bearer ${token}`)) {
      throw new AppError('UNAUTHENTICATED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>', undefined, {
        'www-authenticate': 'Bearer realm="metrics"',
      });
    }
    const body = await metrics.registry.metrics();
    res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
    res.end(body);
  };
}

/** The counters of the rate limits: in Redis when REDIS_URL is set (a warning at once when it cannot be reached), else in memory. */
async function rateStore(config: AppConfig, logger: Logger): Promise<RateStore> {
  if (!config.redisUrl) return new MemoryRateStore();
  const store = new RedisRateStore(config.redisUrl, logger);
  await store.connect();
  return store;
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server.address() as AddressInfo));
  });
}

function closeServer(server: Server | null): Promise<void> {
  if (!server) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** Opens the database (migrating and seeding it), builds the schema and serves HTTP on config.host:config.port. */
export async function startApp(config: AppConfig, logger: Logger): Promise<App> {
  const database = await openDatabase(config, logger);
  let metricsServer: Server | null = null;
  try {
    const { firstAdminKey, tokens } = await withStartupLock(database, async (runner) => {
      await migrate(database, runner);
      if (config.seedDemoData) {
        const report = await seedIfEmpty(runner.manager);
        if (report) logger.info('seeded demo data', { ...report });
      }
      const firstAdminKey = await ensureFirstAdminKey(runner.manager, config.adminApiKey);
      await ensureWebApiKey(runner.manager, config.webApiKey);
      return { firstAdminKey, tokens: await tokenSettings(config, runner.manager) };
    });
    if (!database.vectorAvailable) {
      logger.warn('pgvector is not installed on this PostgreSQL server: search runs on full text only');
    }

    const metrics = new Metrics(() => poolFigures(database));
    // Aborted by the HTTP server at the shutdown deadline; AI generations still running then end with SHUTTING_DOWN.
    const shutdownDeadline = new AbortController();
    const search = await prepareSearch(database, config, logger);
    const services: Services = {
      dataSource: database.dataSource,
      search,
      ai: createAiService(database.dataSource, search, config, logger, {
        onOutcome: (outcome, requestId) => {
          metrics.aiCalls.inc({ writer: config.openaiApiKey ? 'llm' : 'builtin', outcome });
          if (outcome === 'cancelled')
            logger.info('generation cancelled', { requestId, writer: config.openaiApiKey ? 'llm' : 'builtin' });
        },
        shutdown: shutdownDeadline.signal,
      }),
      publicReads: config.publicReads,
    };
    if (config.seedDemoData) {
      // One fit for the whole demo corpus, not one per document.
      const documents = await services.search.models.bulk(
        () => seedDemoDocuments(services.search),
        (added) => added > 0,
      );
      if (documents > 0)
        logger.info('seeded demo documents', {
          documents,
          model: (await services.search.models.current())?.model ?? null,
        });
    }
    // Ratios of companies whose statements changed while no screen ran (the demo seed, an upgrade that adds the store).
    const startedAt = performance.now();
    const ratiosComputed = await refreshQueuedRatios(database.dataSource);
    if (ratiosComputed > 0)
      logger.info('computed stored ratios', {
        companies: ratiosComputed,
        ms: Math.round(performance.now() - startedAt),
      });
    // After migrations and seeding (bulk writes) the planner needs statistics; the embedded database never gathers them itself.
    await maintainEmbeddedTables(database, logger);

    const authenticator = new Authenticator(database.dataSource, tokens);
    if (config.databaseUrl && !config.redisUrl) {
      // A shared database invites a second instance, and each instance would then grant the whole budget again.
      logger.warn(
        'rate limits are per instance: without REDIS_URL every instance on this database counts its own budgets',
        {
          rateLimitStore: 'memory',
        },
      );
    }
    const limiter = new RateLimiter(config.rateLimits, await rateStore(config, logger));
    const guard = new RequestGuard(authenticator, limiter, new ClientAddresses(config.trustProxy));

    const schema = buildAppSchema();
    const graphql = await createGraphQLHandler(schema, services, guard, logger, {
      maxBodyBytes: config.maxBodyBytes,
      introspection: config.graphqlIntrospection,
      production: config.environment === 'production',
      limits: config.graphqlLimits,
    });
    const rest = createRestFacade(
      schema,
      (scope) => createRequestContext(services, scope),
      guard,
      logger,
      config,
      metrics,
    );
    const stream = createStreamHandler(
      schema,
      services,
      guard,
      {
        limits: config.graphqlLimits,
        maxBodyBytes: config.maxBodyBytes,
        introspection: config.graphqlIntrospection,
        production: config.environment === 'production',
      },
      logger,
    );
    const auth = createAuthRoutes(authenticator, guard, config);

    const metricsMount = { path: '/metrics', alwaysOpen: true, handler: metricsHandler(metrics, config.metricsToken) };
    const http = createHttpServer(
      [
        { path: '/healthz', alwaysOpen: true, handler: async (req, res) => serveHealth(req, res, database) },
        { path: '/readyz', alwaysOpen: true, handler: async (req, res) => serveReadiness(req, res, database) },
        ...(config.metricsPort === null ? [metricsMount] : []),
        { path: '/graphql', handler: graphql.handle, sendError: sendGraphQLTransportError },
        { path: STREAM_ENDPOINT, handler: stream.handle, sendError: sendGraphQLTransportError },
        ...(config.graphqlIntrospection ? [{ path: GRAPHIQL_ASSETS, handler: serveGraphiQLAsset }] : []),
        {
          path: '/v1/auth/token',
          handler: createTokenEndpoint(authenticator, guard, config),
          sendError: sendOAuthError,
        },
        { path: '/v1/auth/', handler: auth.handle },
        { path: '/v1/', handler: rest.handle },
      ],
      logger,
      { metrics, unavailable: () => database.health.unavailable(), shutdownDeadline },
    );

    const address = await listen(http.server, config.port, config.host);
    const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
    let metricsUrl: string | null = null;
    if (config.metricsPort !== null) {
      const metricsHttp = createHttpServer([metricsMount], logger);
      metricsServer = metricsHttp.server;
      metricsUrl = `http://${host}:${(await listen(metricsServer, config.metricsPort, config.host)).port}`;
    }

    let closing: Promise<void> | null = null;
    return {
      url: `http://${host}:${address.port}`,
      database,
      server: http.server,
      firstAdminKey,
      metricsUrl,
      close: () =>
        (closing ??= (async () => {
          await http.shutdown(config.shutdownTimeoutMs);
          await closeServer(metricsServer);
          logger.debug('http server closed');
          await graphql.stop();
          await services.search.models.close();
          await limiter.close();
          await database.close();
          logger.debug('database closed');
        })()),
    };
  } catch (error) {
    await closeServer(metricsServer).catch(() => undefined);
    await database.close().catch(() => undefined);
    throw error;
  }
}
