import type { paths } from './generated/openapi.js';

/**
 * The REST routes as the generated `paths` of the OpenAPI document type them. The client names each route by its
 * template, so a route the document drops or reshapes fails the SDK's build instead of a user's call.
 */
export type Method = 'get' | 'post' | 'patch' | 'delete';

/** The templates of the routes that answer a method. */
export type RouteWith<M extends Method> = {
  [P in keyof paths]: paths[P][M] extends undefined ? never : P;
}[keyof paths];

type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type SuccessBody<R> = R extends { 200: { content: { 'application/json': infer B } } }
  ? B
  : R extends { 201: { content: { 'application/json': infer B } } }
    ? B
    : never;

/** The `data` of a route's success. */
export type DataOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? (SuccessBody<R> extends { data: infer D } ? D : never) : never;
/** The JSON body a route takes. */
export type BodyOf<P extends keyof paths, M extends Method = 'post'> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never;
/** The query parameters a route takes. */
export type QueryOf<P extends keyof paths, M extends Method = 'get'> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

/** The one-object form of a route's `data` that also answers several periods as an array, and the array form. */
export type One<D> = Exclude<D, readonly unknown[]>;
export type Many<D> = Extract<D, readonly unknown[]>;

/** A route's path with its `{id}` filled in. */
export function routePath(template: keyof paths, id?: number): string {
  return id === undefined ? template : template.replace('{id}', encodeURIComponent(String(id)));
}
