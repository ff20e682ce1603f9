import { app } from './shared-app';

export interface JsonResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls the shared service and parses the answer, failing loudly if it is not JSON. */
export async function request<T = any>(path: string, init: RequestInit = {}, baseUrl = app().url): Promise<JsonResponse<T>> {
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, headers: response.headers, body };
}

export const get = <T = any>(path: string) => request<T>(path);

/** POSTs a GraphQL operation to /graphql. */
export function graphql<T = any>(query: string, variables?: Record<string, unknown>): Promise<JsonResponse<T>> {
  return request<T>('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
}
