import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap, type ApolloServerOptionsWithGateway } from '@apollo/server';
import {
  ApolloServerPluginCacheControlDisabled,
  ApolloServerPluginLandingPageDisabled,
  ApolloServerPluginUsageReportingDisabled,
} from '@apollo/server/plugin/disabled';
import type { ExecutionResult, GraphQLSchema } from 'graphql';
import { readJsonBody } from '../http/body';
import { clientGoneSignal, sendJson, sendText } from '../http/respond';
import { AppError } from '../shared/errors';
import { apolloErrorTranslation, httpStatusFromErrors } from './graphql-errors';
import type { Logger } from '../shared/logger';
import { createRequestContext, type RequestContext, type Services } from './context';
import { requestIdOf } from '../shared/request-context';
import { noSubscriptionsOverHttp } from './schema';
import type { RequestGuard } from '../http/guard';
import type { GraphQLLimits } from '../limits/graphql-limits';
import { admitOperation } from './operation-admission';
import { sendGraphiQLPage, wantsGraphiQL } from './graphiql';
import { CompiledExecution } from './compiled-execution';
import { ValidatedQueries, usualResponseMediaType, type ValidatedQuery } from './validated-queries';

/**
 * Apollo runs operations through a gateway's executor when it has one: the only hook Apollo Server gives for another
 * executor. Ours executes on the service's own schema through CompiledExecution (graphql-jit for repeated queries),
 * unless the handler has executed the request's query already (see ExecutedAnswers).
 */
function compiledExecutionGateway(
  schema: GraphQLSchema,
  execution: CompiledExecution,
  executed: ExecutedAnswers,
): ApolloServerOptionsWithGateway<RequestContext>['gateway'] {
  return {
    onSchemaLoadOrUpdate(callback) {
      // The schema never changes while the process runs; the SDL is only for Apollo's schema reporting, which is off.
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => undefined;
    },
    load: async () => ({
      executor: async ({ document, operationName, request, context }) =>
        executed.take(context as RequestContext) ??
        execution.execute({ document, operationName, variableValues: request.variables, contextValue: context }),
    }),
    stop: async () => undefined,
  };
}

/**
 * Results the handler executed itself but leaves to Apollo to answer (they have errors, which Apollo words and gives a
 * status), so that Apollo's pipeline runs on them without executing the query a second time. Kept by the request's
 * loaders: Apollo executes a copy of the context it is given, and the copy shares them.
 */
class ExecutedAnswers {
  private readonly results = new WeakMap<object, ExecutionResult>();

  hand(context: RequestContext, result: ExecutionResult): void {
    this.results.set(context.loaders, result);
  }

  take(context: RequestContext): ExecutionResult | undefined {
    const result = this.results.get(context.loaders);
    this.results.delete(context.loaders);
    return result;
  }
}

export interface GraphQLOptions {
  maxBodyBytes: number;
  /** Schema introspection (GRAPHQL_INTROSPECTION). */
  introspection: boolean;
  /** In production, errors do not suggest field names ("Did you mean …?"). */
  production: boolean;
  limits: GraphQLLimits;
}

/** The operation of a GraphQL HTTP request (POST body or GET query string), when it can be read. */
function operationOf(body: unknown, url: URL): { query?: unknown; variables?: unknown; operationName?: unknown } {
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  const variables = url.searchParams.get('variables');
  let parsed: unknown;
  try {
    parsed = variables ? JSON.parse(variables) : undefined;
  } catch {
    parsed = undefined;
  }
  return {
    query: url.searchParams.get('query') ?? undefined,
    variables: parsed,
    operationName: url.searchParams.get('operationName') ?? undefined,
  };
}

export interface GraphQLHandler {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  stop(): Promise<void>;
}

/** GraphQL-shaped failure for transport errors at /graphql (GraphQL clients read `errors`, not the REST envelope). */
export function sendGraphQLTransportError(res: ServerResponse, error: AppError): void {
  sendJson(
    res,
    error.status,
    { errors: [{ message: error.message, extensions: { code: error.code } }] },
    error.headers,
  );
}

/**
 * The query of a POST body that Apollo has accepted before, with the media type Apollo would answer it in; undefined
 * for anything Apollo might answer otherwise than with the execution's result (a body it would refuse, extensions,
 * an unusual Accept header, a document it has not accepted).
 */
function knownQueryOf(
  body: unknown,
  req: IncomingMessage,
  validatedQueries: ValidatedQueries,
): { query: ValidatedQuery; mediaType: string } | undefined {
  if (!isRecord(body) || typeof body.query !== 'string' || body.extensions !== undefined) return undefined;
  const { variables, operationName } = body;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  const mediaType = usualResponseMediaType(req.headers);
  if (!mediaType) return undefined;
  const query = validatedQueries.get(body.query, operationName ?? undefined);
  return query && { query, mediaType };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Apollo Server behind our own node:http server: we read the body, Apollo executes, we write its answer. */
export async function createGraphQLHandler(
  schema: GraphQLSchema,
  services: Services,
  guard: RequestGuard,
  logger: Logger,
  options: GraphQLOptions,
): Promise<GraphQLHandler> {
  const errors = apolloErrorTranslation(logger, 'graphql resolver failed');
  const execution = new CompiledExecution(schema);
  const validatedQueries = new ValidatedQueries();
  const executedAnswers = new ExecutedAnswers();
  const apollo = new ApolloServer<RequestContext>({
    gateway: compiledExecutionGateway(schema, execution, executedAnswers),
    validationRules: [noSubscriptionsOverHttp],
    introspection: options.introspection,
    hideSchemaDetailsFromClientErrors: options.production,
    allowBatchedHttpRequests: false,
    // A persisted-query hash would skip the document checks below (limits, rate class): documents are sent whole.
    persistedQueries: false,
    includeStacktraceInErrorResponses: false,
    // The service owns its shutdown sequence (HTTP first, then Apollo, then the database).
    stopOnTerminationSignals: false,
    // The same parser limits as admitOperation: Apollo parses the document again, and must not parse more.
    parseOptions: { maxTokens: options.limits.maxTokens },
    // The service sets no cache hints, yet Apollo's default cache-control plugin would wrap every field resolver
    // to collect them, a cost on every field of every answer.
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      // Apollo would install its usage reporting by itself when APOLLO_KEY is set: a self-hosted service's operations
      // never leave it, and answers written by the handler would not be counted anyway.
      ApolloServerPluginUsageReportingDisabled(),
      ApolloServerPluginCacheControlDisabled(),
      httpStatusFromErrors,
      errors.plugin,
      validatedQueries.plugin,
    ],
    formatError: errors.formatError,
  });
  await apollo.start();

  return {
    async handle(req, res, url) {
      // HEAD is a GET whose body Node leaves out of the response.
      const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
      if (method !== 'GET' && method !== 'POST') {
        throw new AppError(
          'METHOD_NOT_ALLOWED',
          `Method ${method} is not allowed on /graphql; use GET, HEAD or POST`,
          undefined,
          {
            allow: 'GET, HEAD, POST',
          },
        );
      }
      if (options.introspection && wantsGraphiQL(req, url)) {
        sendGraphiQLPage(res);
        return;
      }
      const principal = await guard.principal(req, res);
      const body = method === 'POST' ? await readJsonBody(req, options.maxBodyBytes) : undefined;
      const operation = operationOf(body, url);
      const variables =
        operation.variables && typeof operation.variables === 'object'
          ? (operation.variables as Record<string, unknown>)
          : undefined;
      await admitOperation(
        schema,
        {
          query: operation.query,
          variables,
          operationName: typeof operation.operationName === 'string' ? operation.operationName : undefined,
        },
        options.limits,
        {
          charge: (limitClass) => guard.limit(req, res, limitClass),
          refund: (limitClass) => guard.refund(req, res, limitClass),
        },
      );
      const signal = clientGoneSignal(res);
      let context = () => createRequestContext(services, { principal, signal, requestId: requestIdOf(req) });
      const known = method === 'POST' ? knownQueryOf(body, req, validatedQueries) : undefined;
      if (known) {
        // A query Apollo has accepted before, executed as Apollo's executor would. An answer without errors is
        // written here as Apollo writes it; one with errors goes through Apollo's pipeline with this very result,
        // so that Apollo words the errors and sets the status as it always does, without running the query again.
        const contextValue = context();
        const result = await execution.execute({
          document: known.query.document,
          operationName: known.query.operationName,
          variableValues: variables,
          contextValue,
        });
        if (!result.errors && !result.extensions) {
          // Apollo's own text of a single result: the JSON of { errors, data, extensions } and a line break.
          sendText(res, 200, { 'content-type': known.mediaType }, `${JSON.stringify({ data: result.data })}\n`);
          return;
        }
        executedAnswers.hand(contextValue, result);
        context = () => contextValue;
      }
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method, headers, search: url.search, body },
        context: async () => context(),
      });
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of response.headers) responseHeaders[name] = value;
      if (response.body.kind === 'complete') {
        sendText(res, response.status ?? 200, responseHeaders, response.body.string);
      } else {
        res.writeHead(response.status ?? 200, { 'cache-control': 'no-store', ...responseHeaders });
        for await (const chunk of response.body.asyncIterator) res.write(chunk);
        res.end();
      }
    },
    stop: () => apollo.stop(),
  };
}
