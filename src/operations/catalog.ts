import { DECLARATIONS } from './declarations';
import type { OperationDeclaration, OperationKind } from './declaration';

export { CAPS } from './caps';
export { dearestClass } from './rate-classes';
export type { JsonSchema, ListCost, OperationDeclaration, OperationKind, RestDeclaration } from './declaration';
export { takesBody } from './declaration';

/**
 * Lookups over the declarations (src/operations/declarations.ts): the entry of a root field for the resolvers'
 * `@Authorized` (through `@CatalogAuthorized()`), the rate class on `/graphql` and `/graphql/stream` and the cost
 * estimator; the routes for the REST facade. A root field without an entry stops the schema from building (see
 * `checkCatalogCoversSchema`).
 */

/** A root field's declaration: nested fields served by REST are declared too, but GraphQL charges the root. */
export type OperationSpec = OperationDeclaration & { kind: Exclude<OperationKind, 'field'> };

const ROOTS = DECLARATIONS.filter((declaration): declaration is OperationSpec => declaration.kind !== 'field');

export type OperationName = string;

export const CATALOG: Readonly<Record<OperationName, OperationSpec>> = Object.fromEntries(
  ROOTS.map((spec) => [spec.name, spec]),
);

/** The root fields of the schema, as declared. */
export const OPERATION_NAMES: readonly OperationName[] = ROOTS.map((spec) => spec.name);

/** The entry of a root field, or undefined for a field the catalog does not know (meta fields such as `__typename`). */
export function operationSpec(field: string): OperationSpec | undefined {
  return Object.prototype.hasOwnProperty.call(CATALOG, field) ? CATALOG[field] : undefined;
}

/** The entry of a root field that must be in the catalog; a missing one is a programming error, said at start-up. */
export function requireOperation(field: string): OperationSpec {
  const spec = operationSpec(field);
  if (!spec) throw new Error(`Operation "${field}" is not declared in src/operations/declarations.ts`);
  return spec;
}

/** The declarations that have a `/v1` route, in the order of the route table. */
export const ROUTE_DECLARATIONS = DECLARATIONS.filter((declaration) => declaration.rest !== undefined);
