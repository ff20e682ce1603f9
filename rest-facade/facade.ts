import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { execute, parse, subscribe, validate, type DocumentNode, type ExecutionResult, type GraphQLError, type GraphQLSchema } from 'graphql';
import { AppError, statusForCode, userErrorFromDatabase, type ErrorCode } from '../src/shared/errors';
import { databaseUnavailable } from '../src/db/database-unavailable';
import { snakeCaseKeys } from '../src/shared/case';
import type { Logger } from '../src/shared/logger';
import { sendJson } from '../src/http/respond';
import { RequestParams } from './params';
import { RequestBody } from './body';
import { readJsonBody } from '../src/http/body';
import { ROUTES, type RestRoute } from './routes';
import { buildOpenApi } from './openapi';
import type { Principal } from '../src/auth/roles';
import type { RequestGuard } from '../src/http/guard';
import type { Metrics } from '../src/http/metrics';

const OPERATIONS_DIR = path.join(__dirname, '..', '..', 'rest-facade', 'operations');

interface CompiledRoute {
  route: RestRoute;
  segments: string[];
  document: DocumentNode;
}

export interface RestFacade {
  /** Serves a `/v1` request; throws AppError for every failure so the server writes one envelope. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

/** Reads and validates every stored operation once, so a broken route fails at start-up, not on first call. */
function compileRoutes(schema: GraphQLSchema): CompiledRoute[] {
  return ROUTES.map((route) => {
    const source = fs.readFileSync(path.join(OPERATIONS_DIR, `${route.operation}.graphql`), 'utf8');
    const document = parse(source);
    const errors = validate(schema, document);
    if (errors.length > 0) {
      throw new Error(`REST operation ${route.operation} does not match the schema: ${errors.map((e) => e.message).join('; ')}`);
    }
    return { route, segments: route.path.split('/').filter(Boolean), document };
  });
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AppError('BAD_REQUEST', `Malformed percent-encoding in path segment "${segment}"`);
  }
}

function matchPath(segments: string[], pathSegments: string[]): Record<string, string> | null {
  if (segments.length !== pathSegments.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i += 1) {
    if (segments[i].startsWith(':')) params[segments[i].slice(1)] = decodeSegment(pathSegments[i]);
    else if (segments[i] !== pathSegments[i]) return null;
  }
  return params;
}

/** Drops absent values, deeply: an absent parameter must be absent for GraphQL too (so defaults apply), not null. */
function withoutUndefined(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(
    Object.entries(value).filter(([, inner]) => inner !== undefined).map(([key, inner]) => [key, withoutUndefined(inner)]),
  );
}

/** Turns GraphQL errors of an in-process execution into the REST error with the same code. */
function toAppError(errors: readonly GraphQLError[], logger: Logger): AppError {
  const [first] = errors;
  const code = first.extensions?.code;
  if (typeof code === 'string' && statusForCode(code) !== undefined && code !== 'INTERNAL_SERVER_ERROR') {
    return new AppError(code as ErrorCode, first.message, first.extensions?.details);
  }
  // An error without a path came before any resolver ran: graphql-js rejected the variables, the input is at fault.
  if (first.path === undefined) return new AppError('BAD_USER_INPUT', first.message);
  const unavailable = databaseUnavailable(first.originalError);
  if (unavailable) return unavailable;
  const fromDatabase = userErrorFromDatabase(first.originalError);
  if (fromDatabase) return fromDatabase;
  logger.error('rest operation failed', { error: first.originalError?.stack ?? first.message, path: first.path });
  return new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
}

type EventResult = ExecutionResult | AsyncGenerator<ExecutionResult>;

/** The one event of a subscription result: `{type, ...}` under the operation's single root field. */
function eventOf(result: ExecutionResult, logger: Logger): Record<string, any> {
  if (result.errors?.length) throw toAppError(result.errors, logger);
  return Object.values(result.data ?? {})[0] as Record<string, any>;
}

/** Keeps only the fields an event carries (GraphQL returns the others as null). */
function eventPayload(event: Record<string, any>): Record<string, unknown> {
  const { type: _type, ...rest } = event;
  return Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null && value !== undefined));
}

function raise(event: Record<string, any>): never {
  const code = event.error?.code as ErrorCode;
  throw new AppError(statusForCode(code) ? code : 'INTERNAL_SERVER_ERROR', event.error?.message ?? 'Internal server error');
}

/**
 * Serves a subscription of events. A failure before the first event (bad input, unknown company) is an ordinary
 * error response; after that, a stream reports it as an `error` event. Without streaming, DONE is the `data`.
 */
async function serveEvents(res: ServerResponse, route: RestRoute, result: EventResult, streamed: boolean, logger: Logger): Promise<void> {
  if (!(Symbol.asyncIterator in result)) throw toAppError(result.errors ?? [], logger);
  const events = result[Symbol.asyncIterator]();
  try {
    const first = await events.next();
    if (first.done) throw new AppError('INTERNAL_SERVER_ERROR', 'The answer ended without an event');
    let event = eventOf(first.value, logger);
    if (event.type === 'ERROR') raise(event);
    if (!streamed) {
      for (;;) {
        if (event.type === 'DONE') return sendJson(res, 200, { success: true, data: snakeCaseKeys(route.data(eventPayload(event), {})) });
        if (event.type === 'ERROR') raise(event);
        const next = await events.next();
        if (next.done) throw new AppError('INTERNAL_SERVER_ERROR', 'The answer ended without a DONE event');
        event = eventOf(next.value, logger);
      }
    }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    const send = (type: string, payload: unknown) => res.write(`event: ${type}\ndata: ${JSON.stringify(payload)}\n\n`);
    try {
      for (;;) {
        send(String(event.type).toLowerCase(), event.type === 'ERROR' ? event.error : snakeCaseKeys(route.data(eventPayload(event), {})));
        if (event.type === 'DONE' || event.type === 'ERROR' || res.destroyed) break;
        const next = await events.next();
        if (next.done) throw new AppError('INTERNAL_SERVER_ERROR', 'The answer ended without a DONE event');
        event = eventOf(next.value, logger);
      }
    } catch (error) {
      // Headers are sent: a failure now is told as an error event, the stream's own way, never a cut connection.
      const known = error instanceof AppError ? error : new AppError('INTERNAL_SERVER_ERROR', 'Internal server error');
      if (!(error instanceof AppError)) logger.error('event stream failed', { error: (error as Error)?.stack ?? String(error) });
      if (!res.destroyed) send('error', { code: known.code, message: known.message });
    }
    res.end();
  } finally {
    await events.return?.(undefined);
  }
}

/** The `/v1` REST facade: a route table over stored GraphQL operations, executed in-process on the same schema. */
export function createRestFacade(
  schema: GraphQLSchema,
  createContext: (principal: Principal, signal: AbortSignal) => unknown,
  guard: RequestGuard,
  logger: Logger,
  limits: { maxBodyBytes: number; maxDocumentBytes: number; publicReads: boolean },
  metrics?: Metrics,
): RestFacade {
  const routes = compileRoutes(schema);
  const openApi = JSON.stringify(buildOpenApi(schema, routes, limits.publicReads));

  return {
    async handle(req, res, url) {
      const principal = await guard.principal(req, res);
      if (url.pathname === '/v1/openapi.json') {
        if (req.method !== 'GET' && req.method !== 'HEAD') throw new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on /v1/openapi.json; use GET`, undefined, { allow: 'GET' });
        await guard.limit(req, res, 'reads');
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' });
        res.end(openApi);
        return;
      }
      const pathSegments = url.pathname.split('/').filter(Boolean);
      const matches = routes
        .map((compiled) => ({ compiled, params: matchPath(compiled.segments, pathSegments) }))
        .filter((match) => match.params !== null);
      if (matches.length === 0) throw new AppError('NOT_FOUND', `No route ${req.method} ${url.pathname}`);
      const match = matches.find(({ compiled }) => compiled.route.method === req.method);
      if (!match) {
        const allow = [...new Set(matches.map(({ compiled }) => compiled.route.method))].join(', ');
        throw new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on ${url.pathname}; use ${allow}`, undefined, {
          allow,
        });
      }
      const { route, document } = match.compiled;
      metrics?.label(res, route.path);
      // URLSearchParams would keep a broken escape as it is; a malformed query string is refused like a malformed path.
      try {
        decodeURIComponent(url.search.replace(/\+/g, ' '));
      } catch {
        throw new AppError('BAD_REQUEST', 'Malformed percent-encoding in the query string');
      }
      await guard.limit(req, res, route.limitClass ?? 'reads');
      const params = new RequestParams(match.params as Record<string, string>, url.searchParams, route.query ?? []);
      const body = route.method === 'POST'
        ? new RequestBody(await readJsonBody(req, route.maxBodyBytes === 'documents' ? limits.maxDocumentBytes : limits.maxBodyBytes), route.body ?? [])
        : null;
      const variables = withoutUndefined(route.variables(params, body)) as Record<string, unknown>;
      // Long work (AI generation) stops when the client goes away before the answer is complete.
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort(new Error('client disconnected'));
      });
      const contextValue = createContext(principal, controller.signal);
      if (route.events) {
        const streamed = req.headers.accept?.includes('text/event-stream') || body?.bool('stream') === true;
        await serveEvents(res, route, await subscribe({ schema, document, variableValues: variables, contextValue }), streamed, logger);
        return;
      }
      const result = await execute({ schema, document, variableValues: variables, contextValue });
      if (result.errors?.length) throw toAppError(result.errors, logger);
      const data = route.data(result.data, variables);
      const meta = route.meta?.(result.data);
      sendJson(res, route.status?.(result.data) ?? 200, { success: true, data: snakeCaseKeys(data), ...(meta === undefined ? {} : { meta: snakeCaseKeys(meta) }) });
    },
  };
}
