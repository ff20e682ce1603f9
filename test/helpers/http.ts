import { app } from './shared-app';
import { withCredentials } from './keys';
import type { Role } from '../../src/auth/roles';
import type { ErrorEnvelope, PageMeta } from '../../sdk/typescript/src/types';

/**
 * An answer of the service: its status, headers and parsed JSON body. The body is `unknown` unless the caller names
 * the shape it reads (the envelopes below, with the SDK's generated types for what they hold).
 */
export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A REST answer of one thing (or of a list without paging): `{success: true, data}`. */
export interface Data<T> {
  success: true;
  data: T;
}

/** A REST answer of one page of a list: `{success: true, data, meta}`. */
export interface Page<T> {
  success: true;
  data: T[];
  meta: PageMeta;
}

/** A REST route's refusal: `{success: false, error: {code, message, details?}}`. */
export type Refusal = ErrorEnvelope;

/** One error of a GraphQL answer; the service names its code in `extensions.code`. */
export interface GraphQLError {
  message: string;
  path?: Array<string | number>;
  extensions: { code: string; [key: string]: unknown };
}

/** A GraphQL answer whose data a test reads (`errors` only where something failed). */
export interface GraphQLAnswer<T> {
  data: T;
  errors?: GraphQLError[];
}

/** A GraphQL answer a test expects to fail, whole or in part (`data`: what did not fail). */
export interface GraphQLFailure<T = Record<string, unknown>> {
  data?: T | null;
  errors: GraphQLError[];
}

/** Calls a service (the shared one by default) as `as` (an admin key unless the request brings credentials; null: none). */
export async function requestAs<T = unknown>(
  as: Role | null,
  path: string,
  init: RequestInit = {},
  baseUrl = app().url,
): Promise<JsonResponse<T>> {
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: withCredentials(baseUrl, init.headers, as) });
  const text = await response.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body };
}

/** Calls the shared service (with an admin key unless the request brings credentials) and parses the JSON answer. */
export function request<T = unknown>(
  path: string,
  init: RequestInit = {},
  baseUrl = app().url,
): Promise<JsonResponse<T>> {
  return requestAs<T>('admin', path, init, baseUrl);
}

export const get = <T = unknown>(path: string) => request<T>(path);

/** POSTs a JSON body to a service (the shared one by default) as `as` (an admin key unless said otherwise). */
export function post<T = unknown>(
  path: string,
  body: unknown,
  as: Role | null = 'admin',
  baseUrl = app().url,
): Promise<JsonResponse<T>> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return requestAs<T>(as, path, init, baseUrl);
}

/** POSTs a GraphQL operation to /graphql. */
export function graphql<T = unknown>(query: string, variables?: Record<string, unknown>): Promise<JsonResponse<T>> {
  return request<T>('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
}
