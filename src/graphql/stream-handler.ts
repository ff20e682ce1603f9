import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import type { Logger } from '../shared/logger';
import { createRequestContext, type Services } from './context';

/**
 * GraphQL over Server-Sent Events (graphql-sse) at /graphql/stream: the `chat` subscription, streamed. Each
 * operation's context aborts when its client disconnects, which cancels the generation and the provider call.
 */
export function createStreamHandler(schema: GraphQLSchema, services: Services, logger: Logger) {
  const handler = createHandler({
    schema,
    context: (req) => {
      const controller = new AbortController();
      const { res } = req.context;
      res.once('close', () => controller.abort(new Error('client disconnected')));
      return createRequestContext(services, controller.signal) as unknown as Record<string, unknown>;
    },
  });
  return {
    async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
      try {
        await handler(req, res);
      } catch (error) {
        logger.error('graphql-sse handler failed', { error: (error as Error).stack ?? String(error) });
        throw error;
      }
    },
  };
}
