import type { IncomingMessage, ServerResponse } from 'node:http';
import { NoSchemaIntrospectionCustomRule, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse';
import { AppError, statusForCode } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { readJsonBody } from '../http/body';
import type { RequestGuard } from '../http/guard';
import { checkOperationLimits, type GraphQLLimits } from '../limits/graphql-limits';
import { createRequestContext, type Services } from './context';
import { databaseUnavailable } from '../db/database-unavailable';

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
    validate: (s, document) => validate(s, document, rules),
    onSubscribe: (_req, params) => {
      try {
        checkOperationLimits(schema, parse(params.query as string), params.variables, params.operationName, options.limits);
      } catch (error) {
        if (!(error instanceof AppError)) return; // a syntax error: graphql-sse reports it
        return [JSON.stringify({ errors: [{ message: error.message, extensions: { code: error.code } }] }), { status: error.status, statusText: 'Bad Request', headers: { 'content-type': 'application/json; charset=utf-8' } }];
      }
    },
    onNext: (_ctx, _req, result) => {
      if (!result.errors?.length) return;
      // As at /graphql: the service's own codes pass, anything else is a bug and says nothing internal.
      return {
        ...result,
        errors: result.errors.map((error) => {
          const code = error.extensions?.code;
          if (typeof code === 'string' && statusForCode(code) && code !== 'INTERNAL_SERVER_ERROR') return error;
          const unavailable = databaseUnavailable(error.originalError);
          if (unavailable) return { message: unavailable.message, path: error.path, locations: error.locations, extensions: { code: unavailable.code } } as never;
          // No original error: graphql-js refused the document or its variables, the caller's mistake to read.
          if (!error.originalError) return { message: error.message, locations: error.locations, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } } as never;
          logger.error('graphql-sse operation failed', { error: error.originalError?.stack ?? error.message, path: error.path });
          return { message: 'Internal server error', path: error.path, locations: error.locations, extensions: { code: 'INTERNAL_SERVER_ERROR' } } as never;
        }),
      };
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
