import { Authorized } from 'type-graphql';
import { getNamedType, isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { OPERATION_NAMES, operationSpec, requireOperation, type OperationSpec } from './catalog';
import { DECLARATIONS } from './declarations';
import { hasRole } from './roles';

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
  const roots: Array<[OperationSpec['kind'], GraphQLObjectType | null | undefined]> = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
    ['subscription', schema.getSubscriptionType()],
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
  for (const name of OPERATION_NAMES)
    if (!seen.has(name)) problems.push(`catalog entry "${name}" matches no root field`);
  problems.push(...nestedFieldProblems(schema));
  if (problems.length)
    throw new Error(
      `The operation catalog (src/operations/declarations.ts) does not match the schema: ${problems.join('; ')}`,
    );
}

/**
 * A nested field with a route of its own (`company.incomeStatement`) must exist under its root field, and must not
 * promise a role below its root's: GraphQL checks the root's role, so the route could never be that open.
 */
function nestedFieldProblems(schema: GraphQLSchema): string[] {
  const problems: string[] = [];
  for (const declaration of DECLARATIONS.filter((entry) => entry.kind === 'field')) {
    const [rootName, ...path] = declaration.name.split('.');
    const root = operationSpec(rootName);
    if (!root || path.length === 0) {
      problems.push(`nested field "${declaration.name}" does not start with a declared root field`);
      continue;
    }
    if (!hasRole(declaration.role, root.role))
      problems.push(
        `nested field "${declaration.name}" needs ${declaration.role}, below ${root.role} of "${rootName}"`,
      );
    const rootType =
      root.kind === 'query'
        ? schema.getQueryType()
        : root.kind === 'mutation'
          ? schema.getMutationType()
          : schema.getSubscriptionType();
    let type = rootType?.getFields()[rootName]?.type;
    for (const field of path) {
      const named = type && getNamedType(type);
      type = named && isObjectType(named) ? named.getFields()[field]?.type : undefined;
    }
    if (!type) problems.push(`nested field "${declaration.name}" is not in the schema`);
  }
  return problems;
}
