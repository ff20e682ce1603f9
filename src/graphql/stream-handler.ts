import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  getOperationAST,
  getVariableValues,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { createHandler } from 'graphql-sse';
import { AppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { readJsonBody } from '../http/body';
import type { RequestGuard } from '../http/guard';
import type { GraphQLLimits } from '../limits/graphql-limits';
import { requireCsrfHeader } from '../auth/authenticator';
import { createRequestContext, type Services } from './context';
import { requestIdOf } from '../shared/request-context';
import { admitOperation, withoutSuggestions } from './operation-admission';
import { appErrorOf, asValidationErrors, formatAppError } from './graphql-errors';

/** A syntax error is refused as at /graphql, with Apollo Server's code. */
function parseOperation(query: unknown, maxTokens: number): DocumentNode {
  try {
    return parse(query as string, { maxTokens });
  } catch (error) {
    throw new AppError('GRAPHQL_PARSE_FAILED', (error as Error).message);
  }
}

function errorResponse(
  errors: GraphQLFormattedError[],
  status: number,
  headers: Record<string, string> = {},
): [string, { status: number; statusText: string; headers: Record<string, string> }] {
  return [
    JSON.stringify({ errors }),
    {
      status,
      statusText: STATUS_CODES[status] ?? 'Error',
      headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    },
  ];
}

export interface StreamOptions {
  limits: GraphQLLimits;
  maxBodyBytes: number;
  introspection: boolean;
  /** In production, validation errors do not suggest field names ("Did you mean …?"), as at /graphql. */
  production: boolean;
}

/**
 * GraphQL over Server-Sent Events (graphql-sse) at /graphql/stream: the `chat` subscription, streamed. The same
 * rules as /graphql: authenticated, the same document checks and rate class (admitOperation), body size capped,
 * introspection as configured, no field suggestions in production, internal errors masked; and, because a GET here
 * starts work, a session cookie needs the CSRF header on every operation. graphql-sse's core handler is driven
 * directly so that we read the body (with its cap) instead of letting it buffer whatever is sent.
 */
export function createStreamHandler(
  schema: GraphQLSchema,
  services: Services,
  guard: RequestGuard,
  options: StreamOptions,
  logger: Logger,
) {
  const rules = options.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  const core = createHandler<IncomingMessage, { res: ServerResponse }, Record<string, unknown>>({
    schema,
    // Validated in onSubscribe, where a refusal can still be a 400 answer rather than an error event.
    validate: () => [],
    onSubscribe: async (req, params) => {
      const { res } = req.context;
      try {
        const principal = await guard.principal(req.raw, res);
        if (principal.via === 'session') requireCsrfHeader(req.raw);
        const admitted = await admitOperation(schema, params, options.limits, {
          charge: (limitClass) => guard.limit(req.raw, res, limitClass),
          refund: (limitClass) => guard.refund(req.raw, res, limitClass),
        });
        // null: a syntax error, refused as at /graphql (parseOperation throws GRAPHQL_PARSE_FAILED).
        const document = admitted ?? parseOperation(params.query, options.limits.maxTokens);
        const refused = requestErrors(document, params.operationName, params.variables);
        if (refused.length > 0)
          return errorResponse(
            refused.map((error) => formatAppError(appErrorOf(error, logger), error.toJSON())),
            400,
          );
        return {
          schema,
          document,
          operationName: params.operationName,
          variableValues: params.variables,
          contextValue: await contextOf(req.raw, res, req.headers.get('x-graphql-event-stream-token')),
        };
      } catch (caught) {
        const error = appErrorOf(caught, logger, 'graphql-sse operation failed', requestIdOf(req.raw));
        return errorResponse([formatAppError(error, { message: error.message })], error.status, error.headers);
      }
    },
    onNext: (_ctx, req, result) => {
      if (!result.errors?.length) return;
      // The same translation as at /graphql: the service's codes pass, anything else is a bug and says nothing internal.
      const requestId = requestIdOf(req.raw);
      return {
        ...result,
        errors: result.errors.map((error) =>
          formatAppError(appErrorOf(error, logger, 'graphql-sse operation failed', requestId), error),
        ) as never,
      };
    },
  });

  /**
   * What /graphql refuses with 400 before executing: validation errors, then variables that do not fit their types.
   * graphql-sse would report them as an event of a 200 stream; here they are the answer's status, as at /graphql.
   */
  const requestErrors = (
    document: DocumentNode,
    operationName: string | null | undefined,
    variables: Record<string, unknown> | null | undefined,
  ): readonly GraphQLError[] => {
    const invalid = asValidationErrors(validate(schema, document, rules));
    if (invalid.length > 0) {
      return options.production
        ? invalid.map(
            (error) =>
              new GraphQLError(withoutSuggestions(error.message), {
                nodes: error.nodes,
                source: error.source,
                positions: error.positions,
                extensions: error.extensions,
              }),
          )
        : invalid;
    }
    // admitOperation has checked that the operation exists.
    const operation = getOperationAST(document, operationName);
    const coerced = getVariableValues(schema, operation?.variableDefinitions ?? [], variables ?? {}, { maxErrors: 50 });
    return coerced.errors ?? [];
  };

  const contextOf = async (req: IncomingMessage, res: ServerResponse, streamToken: string | null | undefined) => {
    const controller = new AbortController();
    // In single-connection mode an operation's own request is answered at once (202) and the events flow on the
    // reserved stream; graphql-sse ends the operation (and with it the generation) when that stream closes.
    if (!streamToken) res.once('close', () => controller.abort(new Error('client disconnected')));
    return createRequestContext(services, {
      principal: await guard.principal(req, res),
      signal: controller.signal,
      requestId: requestIdOf(req),
    }) as unknown as Record<string, unknown>;
  };

  return {
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
      await guard.principal(req, res);
      const parsedBody = req.method === 'POST' ? await readJsonBody(req, options.maxBodyBytes) : undefined;
      // An operation is charged by admitOperation (in onSubscribe); anything else (a stream reservation, the event
      // stream of a reservation, a cancel, a body without a query) is charged as a read here.
      const query =
        req.method === 'POST'
          ? (parsedBody as { query?: unknown } | null)?.query
          : req.method === 'GET'
            ? url.searchParams.get('query')
            : undefined;
      if (typeof query !== 'string') await guard.limit(req, res, 'reads');
      const body = parsedBody === undefined ? '' : JSON.stringify(parsedBody);
      const [stream, init] = await core({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: {
          get: (key: string) => {
            const value = req.headers[key];
            return Array.isArray(value) ? value.join('\n') : value;
          },
        },
        body,
        raw: req,
        context: { res },
      });
      res.writeHead(init.status, init.statusText, init.headers as Record<string, string>);
      if (!stream || typeof stream === 'string') {
        res.end(stream);
        return;
      }
      const stop = () => void stream.return?.(undefined);
      res.once('close', stop);
      try {
        for await (const chunk of stream) res.write(chunk);
      } finally {
        res.off('close', stop);
        res.end();
      }
    },
  };
}
