import type { DataSource } from 'typeorm';
import { createStatementLoaders, type StatementLoaders } from '../statements/statement.loaders';
import type { SearchBackend } from '../search/ingestion.service';
import type { AiService } from '../ai/ai.service';
import { ANONYMOUS, type Principal } from '../auth/roles';

/** Long-lived services the resolvers use, created once at start-up. */
export interface Services {
  dataSource: DataSource;
  search: SearchBackend;
  ai: AiService;
  /** Company and statement reads need no credentials (PUBLIC_READS). */
  publicReads: boolean;
}

/** What every resolver gets: the services and this request's own DataLoaders (never shared across requests). */
export interface RequestContext extends Services {
  loaders: StatementLoaders;
  /** Aborts when the client goes away: long work (AI generation) stops, and the provider request with it. */
  signal: AbortSignal;
  /** Who is calling (checked by `@Authorized`). */
  principal: Principal;
}

export function createRequestContext(
  services: Services,
  principal: Principal = ANONYMOUS,
  signal: AbortSignal = new AbortController().signal,
): RequestContext {
  return { ...services, loaders: createStatementLoaders(services.dataSource.manager), signal, principal };
}
