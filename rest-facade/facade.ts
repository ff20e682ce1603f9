import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse, subscribe, validate, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { match, type MatchFunction } from 'path-to-regexp';
import { CompiledExecution } from '../src/graphql/compiled-execution';
import { AppError, isErrorCode, toAppError } from '../src/shared/errors';
import { startSseStream, writeSseEvent } from '../src/shared/sse';
import { appErrorOf } from '../src/graphql/graphql-errors';
import { RETRY_AFTER_SECONDS } from '../src/shared/database-unavailable';
import { restCase, snakeCaseKeys } from '../src/shared/case';
import type { Logger } from '../src/shared/logger';
import { clientGoneSignal, sendJson, sendText } from '../src/http/respond';
import { RestInput } from './rest-input';
import { variablesReader } from './operation-variables';
import { readJsonBody } from '../src/http/body';
import { toCsv, wantsCsv } from '../src/http/csv';
import { ROUTES, rootFieldOf, type RestRoute } from './routes';
import { rootFields } from '../src/graphql/operation-admission';
import { buildOpenApi } from './openapi';
import type { RequestScope } from '../src/graphql/context';
import { requestIdOf } from '../src/shared/request-context';
import { requireRole } from '../src/auth/access';
import type { RequestGuard } from '../src/http/guard';
import type { Metrics } from '../src/http/metrics';

const OPERATIONS_DIR = path.join(__dirname, '..', '..', 'rest-facade', 'operations');

export interface CompiledRoute {
  route: RestRoute;
  /** The route's path parameters when a path is its own, false otherwise. */
  matchPath: MatchFunction<Record<string, string>>;
  /** The route's input schema, compiled. */
  input: RestInput;
  document: DocumentNode;
  /** The stored operation's variables from the route's validated input. */
  variables: (input: Record<string, unknown>) => Record<string, unknown>;
}

export interface RestFacade {
  /** Serves a `/v1` request; throws AppError for every failure so the server writes one envelope. */
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
}

/** Reads and validates every stored operation once, so a broken route fails at start-up, not on first call. */
export function compileRoutes(schema: GraphQLSchema): CompiledRoute[] {
  return ROUTES.map((route) => {
    const source = fs.readFileSync(path.join(OPERATIONS_DIR, `${route.operation}.graphql`), 'utf8');
    const document = parse(source);
    const errors = validate(schema, document);
    if (errors.length > 0) {
      throw new Error(
        `REST operation ${route.operation} does not match the schema: ${errors.map((e) => e.message).join('; ')}`,
      );
    }
    // The stored operation runs its declaration's root field alone: no other field may ride on the route's role and budget.
    const fields = rootFields(document);
    if (fields.length !== 1 || fields[0] !== rootFieldOf(route)) {
      throw new Error(
        `REST operation ${route.operation} must select exactly its root field ${rootFieldOf(route)}, selects ${fields.join(', ')}`,
      );
    }
    return {
      route,
      matchPath: match<Record<string, string>>(route.path, { decode: decodeSegment }),
      input: new RestInput(route),
      document,
      variables: variablesReader(schema, document),
    };
  });
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new AppError('BAD_REQUEST', `Malformed percent-encoding in path segment "${segment}"`);
  }
}

/** Where a request's unexpected errors are logged, and the request they are logged for. */
interface Reporting {
  logger: Logger;
  requestId: string | undefined;
}

/** Turns GraphQL errors of an in-process execution into the REST error with the same code. */
function toRestError(errors: ExecutionResult['errors'], { logger, requestId }: Reporting): AppError {
  return appErrorOf(errors?.[0], logger, 'rest operation failed', requestId);
}

type EventResult = ExecutionResult | AsyncGenerator<ExecutionResult>;

/** An event of a subscription as REST sends it: its Server-Sent Event name and the fields of its kind. */
interface RestEvent {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * The one event of a subscription result (under the operation's single root field), named by the route's table;
 * null for a kind the route does not send.
 */
function eventOf(route: RestRoute, result: ExecutionResult, reporting: Reporting): RestEvent | null {
  if (result.errors?.length) throw toRestError(result.errors, reporting);
  const { __typename: kind, ...payload } = Object.values(result.data ?? {})[0] as Record<string, unknown>;
  const name = route.events?.[kind as string];
  return name ? { name, payload } : null;
}

/** The data of an event as REST sends it; an `error` event carries the error envelope's code and message. */
function restData(event: RestEvent): unknown {
  return event.name === 'error' ? event.payload : restCase(event.payload);
}

function raise(event: RestEvent): never {
  const { code, message } = event.payload;
  // An error event carries no headers: a 503 (database away, AI slots busy) gets its Retry-After here.
  const headers = code === 'SERVICE_UNAVAILABLE' ? { 'retry-after': String(RETRY_AFTER_SECONDS) } : undefined;
  throw new AppError(
    isErrorCode(code) ? code : 'INTERNAL_SERVER_ERROR',
    typeof message === 'string' ? message : 'Internal server error',
    undefined,
    headers,
  );
}

/**
 * Serves a subscription of events. A failure before the first event (bad input, unknown company) is an ordinary
 * error response; after that, a stream reports it as an `error` event. Without streaming, `done` is the `data`.
 */
async function serveEvents(
  res: ServerResponse,
  route: RestRoute,
  result: EventResult,
  streamed: boolean,
  reporting: Reporting,
): Promise<void> {
  if (!(Symbol.asyncIterator in result)) throw toRestError(result.errors, reporting);
  const events = result[Symbol.asyncIterator]();
  const nextEvent = async (): Promise<RestEvent> => {
    for (;;) {
      const next = await events.next();
      if (next.done) throw new AppError('INTERNAL_SERVER_ERROR', 'The answer ended without a done event');
      const event = eventOf(route, next.value, reporting);
      if (event) return event;
    }
  };
  try {
    let event = await nextEvent();
    if (event.name === 'error') raise(event);
    if (!streamed) {
      while (event.name !== 'done') {
        if (event.name === 'error') raise(event);
        event = await nextEvent();
      }
      return sendJson(res, 200, { success: true, data: restData(event) });
    }
    startSseStream(res);
    try {
      for (;;) {
        writeSseEvent(res, event.name, restData(event));
        if (event.name === 'done' || event.name === 'error' || res.destroyed) break;
        event = await nextEvent();
      }
    } catch (error) {
      // Headers are sent: a failure now is told as an error event, the stream's own way, never a cut connection.
      const known = toAppError(error, reporting.logger, 'event stream failed', reporting.requestId);
      if (!res.destroyed) writeSseEvent(res, 'error', { code: known.code, message: known.message });
    }
    res.end();
  } finally {
    await events.return?.(undefined);
  }
}

/** A CSV answer; a page's total travels in X-Total-Count, since CSV has no place for `meta`. */
function sendCsv(res: ServerResponse, data: unknown, meta: { total?: number } | undefined): void {
  sendText(
    res,
    200,
    {
      'content-type': 'text/csv; charset=utf-8; header=present',
      vary: 'accept',
      ...(meta?.total !== undefined ? { 'x-total-count': String(meta.total) } : {}),
    },
    toCsv(data),
  );
}

/** The `/v1` REST facade: a route table over stored GraphQL operations, executed in-process on the same schema. */
export function createRestFacade(
  schema: GraphQLSchema,
  createContext: (scope: RequestScope) => unknown,
  guard: RequestGuard,
  logger: Logger,
  limits: { maxBodyBytes: number; maxDocumentBytes: number; publicReads: boolean },
  metrics?: Metrics,
): RestFacade {
  const routes = compileRoutes(schema);
  const execution = new CompiledExecution(schema);
  const openApi = JSON.stringify(buildOpenApi(schema, routes, limits.publicReads));

  return {
    async handle(req, res, url) {
      const principal = await guard.principal(req, res);
      if (url.pathname === '/v1/openapi.json') {
        if (req.method !== 'GET' && req.method !== 'HEAD')
          throw new AppError(
            'METHOD_NOT_ALLOWED',
            `Method ${req.method} is not allowed on /v1/openapi.json; use GET`,
            undefined,
            { allow: 'GET' },
          );
        await guard.limit(req, res, 'reads');
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': 'public, max-age=300',
        });
        res.end(openApi);
        return;
      }
      const matches = routes.flatMap((compiled) => {
        const matched = compiled.matchPath(url.pathname);
        return matched ? [{ compiled, params: matched.params }] : [];
      });
      if (matches.length === 0) throw new AppError('NOT_FOUND', `No route ${req.method} ${url.pathname}`);
      // HEAD is GET without the body (Node's response leaves the body out for a HEAD request by itself).
      const method = req.method === 'HEAD' ? 'GET' : req.method;
      const match = matches.find(({ compiled }) => compiled.route.method === method);
      if (!match) {
        const allow = [
          ...new Set(
            matches.flatMap(({ compiled }) =>
              compiled.route.method === 'GET' ? ['GET', 'HEAD'] : [compiled.route.method],
            ),
          ),
        ].join(', ');
        throw new AppError(
          'METHOD_NOT_ALLOWED',
          `Method ${req.method} is not allowed on ${url.pathname}; use ${allow}`,
          undefined,
          {
            allow,
          },
        );
      }
      const { route, document, input: routeInput, variables: variablesOf } = match.compiled;
      metrics?.label(res, route.path);
      // URLSearchParams would keep a broken escape as it is; a malformed query string is refused like a malformed path.
      try {
        decodeURIComponent(url.search.replace(/\+/g, ' '));
      } catch {
        throw new AppError('BAD_REQUEST', 'Malformed percent-encoding in the query string');
      }
      await guard.limit(req, res, route.declaration.rateClass);
      // The role is settled before the body is read: a caller without it learns nothing about what a body should be.
      requireRole({ principal, publicReads: limits.publicReads }, route.declaration.role);
      const body = routeInput.hasBody
        ? await readJsonBody(req, route.documentBody ? limits.maxDocumentBytes : limits.maxBodyBytes)
        : undefined;
      const input = routeInput.read(match.params, url.searchParams, body);
      const csv = route.csv === true && wantsCsv((input.format as string | undefined) ?? null, req.headers.accept);
      const variables = { ...variablesOf(input), ...route.extraVariables(input) };
      // Long work (AI generation) stops when the client goes away before the answer is complete.
      const requestId = requestIdOf(req);
      const contextValue = createContext({ principal, signal: clientGoneSignal(res), requestId });
      if (route.events) {
        const streamed = req.headers.accept?.includes('text/event-stream') || input.stream === true;
        await serveEvents(
          res,
          route,
          await subscribe({ schema, document, variableValues: variables, contextValue }),
          streamed,
          { logger, requestId },
        );
        return;
      }
      const result = await execution.execute({ document, variableValues: variables, contextValue });
      if (result.errors?.length) throw toRestError(result.errors, { logger, requestId });
      const data = route.pick(result.data as Record<string, unknown>, input);
      const meta = route.meta?.(result.data as Record<string, unknown>);
      if (csv) return sendCsv(res, restCase(data), meta as { total?: number } | undefined);
      sendJson(res, route.statusOf(result.data as Record<string, unknown>), {
        success: true,
        data: restCase(data),
        ...(meta === undefined ? {} : { meta: snakeCaseKeys(meta) }),
      });
    },
  };
}
