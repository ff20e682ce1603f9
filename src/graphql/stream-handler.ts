import type { IncomingMessage, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import { NoSchemaIntrospectionCustomRule, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse';
import { AppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { readJsonBody } from '../http/body';
import type { RequestGuard } from '../http/guard';
import { checkOperationLimits, type GraphQLLimits } from '../limits/graphql-limits';
import { createRequestContext, type Services } from './context';
import { appErrorOf, asValidationErrors, formatAppError } from './errors';

/** A syntax error is refused as at /graphql, with Apollo Server's code. */
function parseOperation(query: unknown): DocumentNode {
  try {
    return parse(query as string);
  } catch (error) {
    throw new AppError('GRAPHQL_PARSE_FAILED', (error as Error).message);
  }
}

export interface StreamOptions {
  limits: GraphQLLimits;
  maxBodyBytes: number;
  introspection: boolean;
}

/**
 * GraphQL over Server-Sent Events (graphql-sse) at /graphql/stream: the `chat` subscription, streamed. The same
 * rules as /graphql: authenticated and rate limited (as AI), body size capped, document limits, introspection as
 * configured, internal errors masked. graphql-sse's core handler is driven directly so that we read the body (with
 * its cap) instead of letting it buffer whatever is sent.
 */
export function createStreamHandler(schema: GraphQLSchema, services: Services, guard: RequestGuard, options: StreamOptions, logger: Logger) {
  const rules = options.introspection ? specifiedRules : [...specifiedRules, NoSchemaIntrospectionCustomRule];
  const core = createHandler<IncomingMessage, { res: ServerResponse }, Record<string, unknown>>({
    schema,
    validate: (s, document) => asValidationErrors(validate(s, document, rules)),
    onSubscribe: (_req, params) => {
      try {
        checkOperationLimits(schema, parseOperation(params.query), params.variables, params.operationName, options.limits);
      } catch (caught) {
        const error = appErrorOf(caught, logger, 'graphql-sse operation failed');
        return [JSON.stringify({ errors: [formatAppError(error, { message: error.message })] }), { status: error.status, statusText: STATUS_CODES[error.status] ?? 'Error', headers: { 'content-type': 'application/json; charset=utf-8' } }];
      }
    },
    onNext: (_ctx, _req, result) => {
      if (!result.errors?.length) return;
      // The same translation as at /graphql: the service's codes pass, anything else is a bug and says nothing internal.
      return { ...result, errors: result.errors.map((error) => formatAppError(appErrorOf(error, logger, 'graphql-sse operation failed'), error)) as never };
    },
    context: async (req) => {
      const controller = new AbortController();
      const { res } = req.context;
      // In single-connection mode an operation's own request is answered at once (202) and the events flow on the
      // reserved stream; graphql-sse ends the operation (and with it the generation) when that stream closes.
      if (!req.headers.get('x-graphql-event-stream-token')) res.once('close', () => controller.abort(new Error('client disconnected')));
      return createRequestContext(services, await guard.principal(req.raw, res), controller.signal) as unknown as Record<string, unknown>;
    },
  });

  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      await guard.principal(req, res);
      await guard.limit(req, res, 'ai');
      const body = req.method === 'POST' ? JSON.stringify(await readJsonBody(req, options.maxBodyBytes)) : '';
      const [stream, init] = await core({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: { get: (key: string) => { const value = req.headers[key]; return Array.isArray(value) ? value.join('\n') : value; } },
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
