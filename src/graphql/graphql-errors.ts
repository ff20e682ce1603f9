import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { AppError, isErrorCode, statusForCode, toAppError } from '../shared/errors';
import type { Logger } from '../shared/logger';
import { RETRY_AFTER_SECONDS } from '../shared/database-unavailable';

/**
 * The AppError behind an error of a GraphQL execution, for every transport that runs the schema (/graphql,
 * /graphql/stream and the REST facade). graphql-js wraps what a resolver throws; an error it raised itself before any
 * resolver ran (no path: the variables did not fit their types) is the caller's input, as Apollo Server says too.
 * The rest goes to the shared translator, which logs a bug and hides its detail.
 */
export function appErrorOf(
  error: unknown,
  logger: Logger,
  what = 'graphql operation failed',
  requestId?: string,
): AppError {
  if (!(error instanceof GraphQLError)) return toAppError(error, logger, what, requestId);
  if (error.originalError instanceof AppError) return error.originalError;
  const code = error.extensions?.code;
  if (isErrorCode(code) && code !== 'INTERNAL_SERVER_ERROR')
    return new AppError(code, error.message, error.extensions.details);
  if (error.path === undefined) return new AppError('BAD_USER_INPUT', error.message);
  // graphql-js's own refusal of an argument value while executing (an explicit null for a non-null argument that has a
  // default): the caller's input too, though it has a path.
  if (error.originalError instanceof GraphQLError && error.originalError.originalError == null)
    return new AppError('BAD_USER_INPUT', error.message);
  return toAppError(error.originalError ?? error, logger, what, requestId);
}

/**
 * A GraphQL error as clients read it: `extensions.code` (and `details`); the message of a code the error already had
 * is kept as the server formatted it (Apollo hides schema suggestions in production). A bug's message is always
 * ours: Apollo marks any error INTERNAL_SERVER_ERROR and would otherwise pass its detail (an SQL message) on.
 */
export function formatAppError(
  error: AppError,
  formatted: Pick<GraphQLFormattedError, 'message' | 'locations' | 'path' | 'extensions'>,
): GraphQLFormattedError {
  const keepsFormatted = formatted.extensions?.code === error.code && error.code !== 'INTERNAL_SERVER_ERROR';
  const message = keepsFormatted ? formatted.message : error.message;
  return {
    message,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: error.code, ...(error.details === undefined ? {} : { details: error.details }) },
  };
}

/**
 * Apollo's `formatError` sees no context, so the errors of an operation are translated in `didEncounterErrors`, which
 * sees the request's, and a bug is logged there with the request's id; `formatError` then reads that translation.
 */
export function apolloErrorTranslation(
  logger: Logger,
  what: string,
): {
  plugin: ApolloServerPlugin<{ requestId?: string }>;
  formatError: (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;
} {
  const translated = new WeakMap<object, AppError>();
  // One listener for every request: Apollo asks for it per request, and it keeps nothing of its own.
  const listener: GraphQLRequestListener<{ requestId?: string }> = {
    async didEncounterErrors({ errors, contextValue }) {
      for (const error of errors) translated.set(error, appErrorOf(error, logger, what, contextValue.requestId));
    },
  };
  return {
    plugin: { requestDidStart: async () => listener },
    formatError: (formatted, error) => {
      const known = typeof error === 'object' && error !== null ? translated.get(error) : undefined;
      return formatAppError(known ?? appErrorOf(error, logger, what), formatted);
    },
  };
}

/** Errors of `validate()`, marked with the code Apollo Server gives them, so every GraphQL transport says the same. */
export function asValidationErrors(errors: readonly GraphQLError[]): GraphQLError[] {
  return errors.map(
    (error) =>
      new GraphQLError(error.message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      }),
  );
}

/**
 * The HTTP status of an answer with errors. One whose `data` is not null (a field failed next to the data that did
 * not) is a 200, as the GraphQL-over-HTTP specification requires, so a client that follows it keeps the partial data;
 * the errors say what is missing. Otherwise Apollo takes the status from errors as thrown, and a code the translator
 * decides (a database error that is the caller's, a bug, a database outage found while executing) gets its status
 * here, so a failed operation never answers 200; an outage makes it a 503 with Retry-After, as on every transport.
 */
export const httpStatusFromErrors: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single' || !response.body.singleResult.errors?.length) return;
        const { errors, data } = response.body.singleResult;
        if (data !== null && data !== undefined) {
          response.http.status = 200;
          return;
        }
        if (errors.some((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE')) {
          response.http.status = 503;
          if (!response.http.headers.has('retry-after'))
            response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
          return;
        }
        if (response.http.status !== undefined && response.http.status !== 200) return;
        const status = statusForCode(errors[0].extensions?.code);
        if (status !== undefined) response.http.status = status;
      },
    };
  },
};
