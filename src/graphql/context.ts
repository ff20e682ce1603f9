import type { DataSource } from 'typeorm';
import { createStatementLoaders, type StatementLoaders } from '../statements/statement.loaders';
import type { SearchBackend } from '../search/search-backend.types';
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

/** What a transport knows of the request a context serves. */
export interface RequestScope {
  /** Who is calling (checked by `@Authorized`). */
  principal: Principal;
  /**
   * Aborts when the client goes away: long work (AI generation) stops, and the provider request with it. A function
   * makes it only when work asks for it (see clientGoneSignal).
   */
  signal: AbortSignal | (() => AbortSignal);
  /** The request's id (X-Request-Id), for the log lines and unexpected errors of work done for it. */
  requestId?: string;
}

/** What every resolver gets: the services, the request's scope and its own DataLoaders (never shared across requests). */
export interface RequestContext extends Services, RequestScope {
  loaders: StatementLoaders;
  signal: AbortSignal;
}

export function createRequestContext(services: Services, scope: Partial<RequestScope> = {}): RequestContext {
  const { signal = new AbortController().signal } = scope;
  const context = {
    ...services,
    loaders: createStatementLoaders(services.dataSource.manager),
    principal: scope.principal ?? ANONYMOUS,
    signal: typeof signal === 'function' ? (undefined as unknown as AbortSignal) : signal,
    requestId: scope.requestId,
  };
  if (typeof signal === 'function') Object.defineProperty(context, 'signal', { get: signal, enumerable: true });
  return context;
}
