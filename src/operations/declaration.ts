import type { Role } from './roles';
import type { LimitClass } from './rate-classes';

/** A JSON Schema (2020-12), as REST validation and the OpenAPI document read it. */
export type JsonSchema = { [keyword: string]: unknown };

/** Whether a route of this method takes its input (but its path parameters) as a JSON body. */
export function takesBody(method: RestDeclaration['method']): boolean {
  return method === 'POST' || method === 'PATCH';
}

/**
 * `query`, `mutation` and `subscription` are root fields of the GraphQL schema; a `field` is a field nested under
 * one (`company.incomeStatement`) that REST serves as a route of its own.
 */
export type OperationKind = 'query' | 'mutation' | 'subscription' | 'field';

/** How the cost estimator prices a root field that returns a page: its page size times what each item costs. */
export interface ListCost {
  /** The argument that sets the page size. */
  sizeArgument: string;
  /** The page size when the argument is left out. */
  defaultSize: number;
}

/** A `/v1` route: the method and path, its input as one JSON Schema, and how the answer is read from the result. */
export interface RestDeclaration {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Path pattern; `:name` segments are parameters, declared in `input` like every other parameter. */
  path: string;
  /** Name of the stored GraphQL operation in `rest-facade/operations/<name>.graphql`. */
  operation: string;
  /** One line for the OpenAPI document and the docs' route table. */
  summary: string;
  /**
   * Path parameters, query parameters (GET, DELETE) or body fields (POST, PATCH), by their REST names: one object schema.
   * The stored operation's variables are read from it by name (`top_k` → `$topK`; a `$input` takes the body).
   */
  input?: JsonSchema & { properties: Record<string, JsonSchema> };
  /** Where `data` sits in the operation's result, as a dotted path of field names from the root field. */
  data: string;
  /** The message of the 404 when the first field of `data` is null; `{name}` is replaced by that input value. */
  missing?: string;
  /** `data` names a page: its `items` are the data and its other fields the `meta`. */
  page?: true;
  /** Status of a success when not 200. */
  status?: 201;
  /** The route can answer text/csv (its data is an object or an array of flat objects). */
  csv?: true;
  /** The body may be as large as a document (MAX_DOCUMENT_BYTES) rather than MAX_BODY_BYTES. */
  documentBody?: true;
  /**
   * The operation is a subscription of events: the GraphQL type of each kind REST sends (its `__typename`) → the
   * name of its Server-Sent Event; other kinds are not sent.
   */
  events?: Readonly<Record<string, string>>;
}

/** Everything the transports need to know about one operation. */
export interface OperationDeclaration {
  /** The root field (`companies`), or for a nested field its path (`company.incomeStatement`). */
  name: string;
  kind: OperationKind;
  /** The least role allowed (roles include the ones below them); `viewer` is open to anyone while PUBLIC_READS is on. */
  role: Role;
  /** The budget a call is charged to, on every transport. */
  rateClass: LimitClass;
  /** One answer of this class per request: aliases must not buy several generations for one budget hit. */
  onePerRequest?: true;
  /** Pricing for the cost estimator when the field is a page; anything else costs 1 plus its selections. */
  cost?: ListCost;
  /** The `/v1` route that serves it, if any. */
  rest?: RestDeclaration;
}
