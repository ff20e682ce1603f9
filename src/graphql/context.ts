import type { DataSource } from 'typeorm';
import { createStatementLoaders, type StatementLoaders } from '../statements/statement.loaders';

/** What every resolver gets: the database and this request's own DataLoaders (never shared across requests). */
export interface RequestContext {
  dataSource: DataSource;
  loaders: StatementLoaders;
}

export function createRequestContext(dataSource: DataSource): RequestContext {
  return { dataSource, loaders: createStatementLoaders(dataSource) };
}
