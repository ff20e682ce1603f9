import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import { AppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import type { RequestGuard } from '../http/guard';
import { checkOperationLimits, type GraphQLLimits } from '../limits/graphql-limits';
import { createRequestContext, type Services } from './context';

/**
 * GraphQL over Server-Sent Events (graphql-sse) at /graphql/stream: the `chat` subscription, streamed. Callers are
 * authenticated and rate limited (as AI requests) like everywhere else; each operation's context aborts when its
 * client disconnects, which cancels the generation and the provider call.
 */
export function createStreamHandler(schema: GraphQLSchema, services: Services, guard: RequestGuard, limits: GraphQLLimits, logger: Logger) {
  const handler = createHandler({
    schema,
    onSubscribe: (_req, params) => {
      try {
        checkOperationLimits(schema, parse(params.query as string), params.variables, params.operationName, limits);
      } catch (error) {
        if (!(error instanceof AppError)) return; // a syntax error: graphql-sse reports it
        return [JSON.stringify({ errors: [{ message: error.message, extensions: { code: error.code } }] }), { status: error.status, statusText: 'Bad Request', headers: { 'content-type': 'application/json; charset=utf-8' } }];
      }
    },
    context: async (req) => {
      const controller = new AbortController();
      const { res } = req.context;
      res.once('close', () => controller.abort(new Error('client disconnected')));
      return createRequestContext(services, await guard.principal(req.raw), controller.signal) as unknown as Record<string, unknown>;
    },
  });
  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      await guard.principal(req);
      await guard.limit(req, res, 'ai');
      try {
        await handler(req, res);
      } catch (error) {
        logger.error('graphql-sse handler failed', { error: (error as Error).stack ?? String(error) });
        throw error;
      }
    },
  };
}
