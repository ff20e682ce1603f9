import {
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  typeFromAST,
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type TypeNode,
} from 'graphql';
import { snakeCase } from '../src/shared/case';

type Json = Record<string, unknown>;

/** A validated REST value as the GraphQL type wants it: fields in camelCase, enum values in upper case. */
function toGraphQL(type: GraphQLInputType, value: unknown): unknown {
  if (value === undefined || value === null) return undefined;
  const inner = getNullableType(type);
  if (isListType(inner)) return Array.isArray(value) ? value.map((item) => toGraphQL(inner.ofType, item)) : value;
  if (isEnumType(inner)) return typeof value === 'string' ? value.toUpperCase() : value;
  if (isInputObjectType(inner) && typeof value === 'object') {
    const fields = Object.values(inner.getFields()).map(
      (field) => [field.name, toGraphQL(field.type, (value as Json)[snakeCase(field.name)])] as const,
    );
    return Object.fromEntries(fields.filter(([, inner]) => inner !== undefined));
  }
  return value;
}

/**
 * How a route's stored operation reads its variables by name from the route's validated input: `$topK` from
 * `top_k`, and a `$input` object from the input's fields (a mutation's body). Input the operation does not take
 * (`stream`, `format`) is REST's own; an absent value is absent, so the operation's defaults apply. The variables'
 * types and REST names are worked out once per route, not on every request.
 */
export function variablesReader(schema: GraphQLSchema, document: DocumentNode): (input: Json) => Json {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  const readers = (operation?.variableDefinitions ?? []).map((definition) => {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as TypeNode & { kind: never }) as GraphQLInputType;
    const takesBody = name === 'input' && isInputObjectType(getNullableType(type));
    const restName = snakeCase(name);
    return { name, read: (input: Json) => toGraphQL(type, takesBody ? input : input[restName]) };
  });
  return (input) => {
    const variables: Json = {};
    for (const { name, read } of readers) {
      const value = read(input);
      if (value !== undefined) variables[name] = value;
    }
    return variables;
  };
}
