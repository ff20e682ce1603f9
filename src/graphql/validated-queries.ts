import type { IncomingHttpHeaders } from 'node:http';
import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import type { DocumentNode } from 'graphql';
import { PREPAID_ABOVE_CHARS } from './operation-admission';

/** A query Apollo Server has parsed, validated and resolved to its operation, as Apollo's gateway executor gets it. */
export interface ValidatedQuery {
  document: DocumentNode;
  /** The operation's own name (null for an anonymous one), as Apollo passes it to the executor. */
  operationName: string | null;
}

/**
 * Documents remembered at most, and their text in all (a parsed document and its compiled plan take tens of times its
 * text); past either, the oldest go first. Losing one costs one request through Apollo's pipeline.
 */
const QUERIES_KEPT = 500;
const CHARACTERS_KEPT = 500_000;

/**
 * Query documents Apollo Server has accepted, by their text and the operation name the request gave: the same text is
 * accepted again whatever the request around it (validation reads only the document and the schema), so a request
 * that sends it again may be executed without Apollo's request pipeline (see graphql-handler). Only queries are kept:
 * a mutation or subscription always goes through Apollo.
 */
export class ValidatedQueries {
  // By text, then by operation name: the text is looked up as it came (its hash is computed once per request string
  // and shared with the parse cache's look-up), never joined with the name into a new string to hash again.
  private readonly queries = new Map<string, Map<string | undefined, ValidatedQuery>>();
  private characters = 0;

  /** Remembers every query Apollo resolves; install it among Apollo's plugins. */
  readonly plugin: ApolloServerPlugin = {
    requestDidStart: async () => this.listener,
  };

  // One listener for every request: Apollo asks for it per request, and it keeps nothing of its own.
  private readonly listener: GraphQLRequestListener<object> = {
    didResolveOperation: async ({ source, document, operation, operationName, request }) => {
      if (operation?.operation !== 'query' || source.length > PREPAID_ABOVE_CHARS) return;
      let byName = this.queries.get(source);
      if (!byName) {
        while (this.queries.size >= QUERIES_KEPT || this.characters + source.length > CHARACTERS_KEPT) {
          const oldest = this.queries.keys().next().value as string;
          this.queries.delete(oldest);
          this.characters -= oldest.length;
        }
        this.queries.set(source, (byName = new Map()));
        this.characters += source.length;
      }
      if (!byName.has(request.operationName)) byName.set(request.operationName, { document, operationName });
    },
  };

  /** The query Apollo accepted with this text and requested operation name, if it is remembered. */
  get(source: string, operationName: string | undefined): ValidatedQuery | undefined {
    return this.queries.get(source)?.get(operationName);
  }
}

/**
 * The media type Apollo Server answers a single result with, for the `Accept` headers clients send almost always;
 * undefined for any other, which Apollo then negotiates itself.
 */
export function usualResponseMediaType(headers: IncomingHttpHeaders): string | undefined {
  const accept = headers.accept;
  if (accept === undefined || accept === '*/*' || accept === 'application/json')
    return 'application/json; charset=utf-8';
  if (accept === 'application/graphql-response+json') return 'application/graphql-response+json; charset=utf-8';
  return undefined;
}
