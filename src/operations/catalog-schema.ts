import { Authorized } from 'type-graphql';
import type { GraphQLObjectType, GraphQLSchema } from 'graphql';
import { OPERATION_NAMES, operationSpec, requireOperation, type OperationKind } from './catalog';

/**
 * `@Authorized(role)` with the role the catalog declares for the root field this method resolves (the method's
 * name is the field's name). A method without a catalog entry throws when its class is loaded.
 */
export function CatalogAuthorized(): MethodDecorator {
  return (target, propertyKey, descriptor) => {
    (Authorized(requireOperation(String(propertyKey)).role) as MethodDecorator)(target, propertyKey, descriptor);
  };
}

/**
 * Refuses a schema whose root fields and catalog disagree: a field without an entry would otherwise run with no
 * declared role and fall silently into the reads budget; an entry without a field is a stale rule.
 */
export function checkCatalogCoversSchema(schema: GraphQLSchema): void {
  const roots: Array<[OperationKind, GraphQLObjectType | null | undefined]> = [
    ['query', schema.getQueryType()], ['mutation', schema.getMutationType()], ['subscription', schema.getSubscriptionType()],
  ];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const [kind, type] of roots) {
    for (const field of Object.keys(type?.getFields() ?? {})) {
      seen.add(field);
      const spec = operationSpec(field);
      if (!spec) problems.push(`${kind} field "${field}" has no catalog entry`);
      else if (spec.kind !== kind) problems.push(`"${field}" is a ${kind} field but the catalog says ${spec.kind}`);
    }
  }
  for (const name of OPERATION_NAMES) if (!seen.has(name)) problems.push(`catalog entry "${name}" matches no root field`);
  if (problems.length) throw new Error(`The operation catalog (src/operations/catalog.ts) does not match the schema: ${problems.join('; ')}`);
}
