import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { Kind, parse, type DocumentNode, type FragmentDefinitionNode, type GraphQLFormattedError, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { readJsonBody } from '../http/body';
import { sendJson } from '../http/respond';
import { AppError, statusForCode } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { createRequestContext, type RequestContext, type Services } from './context';
import { noSubscriptionsOverHttp } from './schema';
import type { RequestGuard } from '../http/guard';
import type { LimitClass } from '../limits/rate-limiter';
import { checkOperationLimits, type GraphQLLimits } from '../limits/graphql-limits';
import { sendGraphiQLPage, wantsGraphiQL } from './graphiql';
import { databaseUnavailable } from '../db/database-unavailable';
import { unavailableStatusPlugin } from './unavailable-status-plugin';

export interface GraphQLOptions {
  maxBodyBytes: number;
  /** Schema introspection (GRAPHQL_INTROSPECTION). */
  introspection: boolean;
  /** In production, errors do not suggest field names ("Did you mean …?"). */
  production: boolean;
  limits: GraphQLLimits;
}

const AI_FIELDS = new Set(['summarize', 'compare', 'chat']);
const SEARCH_FIELDS = new Set(['search', 'ingestDocument']);

/** Root field names of an operation, looking through inline fragments and fragment spreads. */
function rootFields(document: DocumentNode, operationName?: string | null): string[] {
  const operation = document.definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName),
  );
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return [];
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  // Keyed by response name: GraphQL merges equal fields, and each fragment needs reading only once.
  const fields = new Map<string, string>();
  const visited = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields.set(selection.alias?.value ?? selection.name.value, selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!visited.has(selection.name.value) && fragments.has(selection.name.value)) {
        visited.add(selection.name.value);
        visit((fragments.get(selection.name.value) as FragmentDefinitionNode).selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return [...fields.values()];
}

/**
 * The rate-limit class of an operation, from the root fields it asks for (the costliest wins). An AI answer is
 * expensive: one per request, so that aliases cannot buy several for the price of one budget hit.
 */
export function limitClassOf(document: DocumentNode, operationName?: string | null): LimitClass {
  const fields = rootFields(document, operationName);
  const aiFields = fields.filter((field) => AI_FIELDS.has(field)).length;
  if (aiFields > 1) throw new AppError('BAD_USER_INPUT', `Ask for one AI answer (summarize, compare or chat) per request; this one asks for ${aiFields}`);
  if (aiFields === 1) return 'ai';
  if (fields.some((field) => SEARCH_FIELDS.has(field))) return 'search';
  return 'reads';
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
  return { query: url.searchParams.get('query') ?? undefined, variables: parsed, operationName: url.searchParams.get('operationName') ?? undefined };
}

/** Apollo's own codes (parse, validation, bad request…) describe the caller's mistake and pass through as they are. */
const APOLLO_CODES = new Set<string>(Object.values(ApolloServerErrorCode));

export interface GraphQLHandler {
  handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void>;
  stop(): Promise<void>;
}

/** GraphQL-shaped failure for transport errors at /graphql (GraphQL clients read `errors`, not the REST envelope). */
export function sendGraphQLTransportError(res: ServerResponse, error: AppError): void {
  sendJson(res, error.status, { errors: [{ message: error.message, extensions: { code: error.code } }] }, error.headers);
}

/** Apollo Server behind our own node:http server: we read the body, Apollo executes, we write its answer. */
export async function createGraphQLHandler(
  schema: GraphQLSchema,
  services: Services,
  guard: RequestGuard,
  logger: Logger,
  options: GraphQLOptions,
): Promise<GraphQLHandler> {
  const apollo = new ApolloServer<RequestContext>({
    schema,
    validationRules: [noSubscriptionsOverHttp],
    introspection: options.introspection,
    hideSchemaDetailsFromClientErrors: options.production,
    allowBatchedHttpRequests: false,
    // A persisted-query hash would skip the document checks below (limits, rate class): documents are sent whole.
    persistedQueries: false,
    includeStacktraceInErrorResponses: false,
    // The service owns its shutdown sequence (HTTP first, then Apollo, then the database).
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), unavailableStatusPlugin()],
    formatError: (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
      const code = formatted.extensions?.code;
      if (typeof code === 'string' && code !== 'INTERNAL_SERVER_ERROR' && (statusForCode(code) || APOLLO_CODES.has(code))) {
        return formatted;
      }
      const unavailable = databaseUnavailable(error instanceof Error && 'originalError' in error ? error.originalError : error);
      if (unavailable) return { message: unavailable.message, path: formatted.path, extensions: { code: unavailable.code } };
      // Anything else is a bug: log the detail, tell the caller nothing internal.
      logger.error('graphql resolver failed', { error: error instanceof Error ? error.stack : String(error), path: formatted.path });
      return { message: 'Internal server error', path: formatted.path, locations: formatted.locations, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    },
  });
  await apollo.start();

  return {
    async handle(req, res, url) {
      const method = req.method ?? 'GET';
      if (method !== 'GET' && method !== 'POST') {
        throw new AppError('METHOD_NOT_ALLOWED', `Method ${method} is not allowed on /graphql; use GET or POST`, undefined, {
          allow: 'GET, POST',
        });
      }
      const headers = new HeaderMap();
      for (const [name, value] of Object.entries(req.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      }
      if (options.introspection && wantsGraphiQL(req, url)) {
        sendGraphiQLPage(res);
        return;
      }
      const principal = await guard.principal(req, res);
      const body = method === 'POST' ? await readJsonBody(req, options.maxBodyBytes) : undefined;
      const operation = operationOf(body, url);
      let document: DocumentNode | null = null;
      try {
        document = typeof operation.query === 'string' ? parse(operation.query) : null;
      } catch {
        document = null; // Apollo answers a syntax error with its own clear message
      }
      const operationName = typeof operation.operationName === 'string' ? operation.operationName : undefined;
      if (document) {
        // Size first (linear in the document), then the class, which reads the root fields.
        const variables = operation.variables && typeof operation.variables === 'object' ? (operation.variables as Record<string, unknown>) : undefined;
        checkOperationLimits(schema, document, variables, operationName, options.limits);
      }
      await guard.limit(req, res, document ? limitClassOf(document, operationName) : 'reads');
      const controller = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) controller.abort(new Error('client disconnected'));
      });
      const response = await apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method, headers, search: url.search, body },
        context: async () => createRequestContext(services, principal, controller.signal),
      });
      const responseHeaders: Record<string, string> = {};
      for (const [name, value] of response.headers) responseHeaders[name] = value;
      res.writeHead(response.status ?? 200, responseHeaders);
      if (response.body.kind === 'complete') {
        res.end(response.body.string);
      } else {
        for await (const chunk of response.body.asyncIterator) res.write(chunk);
        res.end();
      }
    },
    stop: () => apollo.stop(),
  };
}
