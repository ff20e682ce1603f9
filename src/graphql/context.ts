import type { DataSource } from 'typeorm';
import { createStatementLoaders, type StatementLoaders } from '../statements/statement.loaders';
import type { SearchBackend } from '../search/ingestion.service';

/** Long-lived services the resolvers use, created once at start-up. */
export interface Services {
  dataSource: DataSource;
  search: SearchBackend;
}

/** What every resolver gets: the services and this request's own DataLoaders (never shared across requests). */
export interface RequestContext extends Services {
  loaders: StatementLoaders;
}

export function createRequestContext(services: Services): RequestContext {
  return { ...services, loaders: createStatementLoaders(services.dataSource) };
}
