import path from 'node:path';
import { Client, type ClientConfig } from 'pg';
import { DataSource, DefaultNamingStrategy, type Logger as TypeOrmLogger, type QueryRunner } from 'typeorm';
import { snakeCase } from '../shared/case';
import type { Logger } from '../shared/logger';
import { isConnectionError, noteConnectionFailure } from '../shared/database-unavailable';

/**
 * Every entity of the service, found by file name: the database layer names no module above it, and a new entity is
 * a `*.entity.ts` file, nothing here.
 */
const ENTITIES = [path.join(__dirname, '..', '**', '*.entity.js')];

/** snake_case columns in the database, camelCase properties in code. */
class SnakeNamingStrategy extends DefaultNamingStrategy {
  override columnName(propertyName: string, customName: string | undefined, prefixes: string[]): string {
    return customName ?? snakeCase([...prefixes, propertyName].join('_'));
  }
}

/** Counts SQL statements sent to the server; the test suite reads it to prove nested queries are batched. */
export class QueryCounter {
  count = 0;
}

/** A query as TypeORM hands it on: its text, or the config of a named statement (see prepared-statements.repository). */
function describeQuery(query: string | { name: string; text: string }): { query: string; statement?: string } {
  return typeof query === 'string' ? { query } : { query: query.text, statement: query.name };
}

class ServiceLogger implements TypeOrmLogger {
  constructor(
    private readonly logger: Logger,
    private readonly counter: QueryCounter,
  ) {}

  logQuery(query: string, parameters?: unknown[], _runner?: QueryRunner): void {
    this.counter.count += 1;
    // Every query passes here: its log fields are built only when they are written.
    if (this.logger.level === 'debug') this.logger.debug('sql', { ...describeQuery(query), parameters });
  }
  logQueryError(error: string | Error, query: string, parameters?: unknown[]): void {
    // An outage fails every query alike; the database health logs it once, as a state change.
    if (isConnectionError(error)) return;
    this.logger.error('sql failed', {
      error: error instanceof Error ? error.message : error,
      ...describeQuery(query),
      parameters,
    });
  }
  logQuerySlow(time: number, query: string): void {
    this.logger.warn('slow sql', { ms: time, ...describeQuery(query) });
  }
  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }
  logMigration(message: string): void {
    this.logger.info(message);
  }
  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}

/**
 * A `pg` client that listens for its own 'error' from construction to the end, so that no lost connection is an
 * uncaught exception. `pg` emits 'error' on a client whose socket dies; the pool listens while the client is idle and
 * TypeORM's query runner while it holds it, but the hand-over between them goes through a promise: when a server ends
 * a connection just as it finishes opening (the FATAL arrives in the same read as ReadyForQuery), nobody else is
 * listening yet. A client that failed is unqueryable from then on, its queries fail as connection errors (503), and
 * the pool drops it on release and opens a new one.
 */
class ListeningClient extends Client {
  constructor(config?: string | ClientConfig) {
    super(config);
    this.on('error', noteConnectionFailure);
  }
}

export interface DataSourceOptions {
  url: string;
  poolSize: number;
  logger: Logger;
  counter?: QueryCounter;
}

/** The one database code path: TypeORM's postgres driver over `pg`, for the embedded server and any other alike. */
export function createDataSource({
  url,
  poolSize,
  logger,
  counter = new QueryCounter(),
}: DataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    poolSize,
    entities: ENTITIES,
    migrations: [path.join(__dirname, '..', '..', 'migrations', '*.js')],
    migrationsTableName: 'schema_migrations',
    namingStrategy: new SnakeNamingStrategy(),
    logger: new ServiceLogger(logger, counter),
    maxQueryExecutionTime: 1000,
    connectTimeoutMS: 10_000,
    extra: { application_name: 'financial-insights', Client: ListeningClient },
    // Each dropped idle connection is a pool error; the database health logs an outage once, as a state change.
    poolErrorHandler: (error: unknown) => {
      logger.debug('idle database connection dropped', {
        error: error instanceof Error ? error.message : String(error),
      });
      noteConnectionFailure();
    },
  });
}
