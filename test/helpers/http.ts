import { app } from './shared-app';
import { withCredentials } from './keys';
import type { Role } from '../../src/auth/roles';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls a service (the shared one by default) as `as` (an admin key unless the request brings credentials; null: none). */
export async function requestAs<T = any>(
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
export function request<T = any>(path: string, init: RequestInit = {}, baseUrl = app().url): Promise<JsonResponse<T>> {
  return requestAs<T>('admin', path, init, baseUrl);
}

export const get = <T = any>(path: string) => request<T>(path);

/** POSTs a JSON body to a service (the shared one by default) as `as` (an admin key unless said otherwise). */
export function post<T = any>(
  path: string,
  body: unknown,
  as: Role | null = 'admin',
  baseUrl = app().url,
): Promise<JsonResponse<T>> {
  const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return requestAs<T>(as, path, init, baseUrl);
}

/** POSTs a GraphQL operation to /graphql. */
export function graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<JsonResponse<T>> {
  return request<T>('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
}
