import {
  coerceInputValue, getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, typeFromAST,
  type DocumentNode, type GraphQLInputType, type GraphQLSchema, type OperationDefinitionNode,
} from 'graphql';
import { AppError } from '../src/shared/errors';
import { snakeCase } from '../src/shared/case';

/**
 * The REST name of a variable path: a route's variables are its parameters and body fields in camelCase, wrapped in
 * `input` for mutations, so `input.messages[0].role` was sent as `messages[0].role` and `topK` as `top_k`.
 */
export function restFieldName(path: ReadonlyArray<string | number>): string {
  const named = path.length > 1 && path[0] === 'input' ? path.slice(1) : path;
  return named.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${snakeCase(key)}`)).join('');
}

/** The input type found at `path` under `type` (object fields by name, list items by index). */
function typeAt(type: GraphQLInputType, path: ReadonlyArray<string | number>): GraphQLInputType {
  let current = type;
  for (const key of path) {
    const inner = getNullableType(current);
    if (isListType(inner) && typeof key === 'number') current = inner.ofType;
    else if (isInputObjectType(inner) && typeof key === 'string' && inner.getFields()[key]) current = inner.getFields()[key].type;
    else break;
  }
  return current;
}

/** What a REST caller must send for a GraphQL input type, in REST's words (enums in lower case, as routes take them). */
function expectation(type: GraphQLInputType): { text: string; accepted?: string[] } {
  const inner = getNullableType(type);
  if (isListType(inner)) return { text: `an array of ${expectation(inner.ofType).text.replace(/^(a|an) /, '')}s` };
  const named = getNamedType(inner);
  if (isEnumType(named)) {
    const accepted = named.getValues().map((value) => value.name.toLowerCase());
    return { text: `one of ${accepted.join(', ')}`, accepted };
  }
  if (isInputObjectType(named)) return { text: `an object with ${Object.keys(named.getFields()).map(snakeCase).join(', ')}` };
  const scalars: Record<string, string> = { Int: 'an integer', Float: 'a number', String: 'a string', Boolean: 'true or false', ID: 'a string' };
  return { text: scalars[named.name] ?? `a ${named.name}` };
}

/**
 * Checks a REST route's variables against its operation's variable types before it runs, and refuses a misfit in
 * REST's terms: the field as the route names it and what it accepts, never a GraphQL variable or a camelCase name.
 */
export function checkRestVariables(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>): void {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type as never) as GraphQLInputType;
    const value = variables[name];
    if (value === undefined || value === null) {
      if (isNonNullType(type) && !definition.defaultValue) throw new AppError('BAD_USER_INPUT', `${restFieldName([name])} is required`);
      continue;
    }
    coerceInputValue(value, type, (path, invalid) => {
      const field = restFieldName([name, ...path]);
      const expected = typeAt(type, path);
      if (isNonNullType(expected) && invalid == null) throw new AppError('BAD_USER_INPUT', `${field} is required`, { field });
      const { text, accepted } = expectation(expected);
      // Routes upper-case the enum values they pass on; the caller wrote them in any case and reads them in lower case.
      const got = JSON.stringify(accepted && typeof invalid === 'string' ? invalid.toLowerCase() : invalid)?.slice(0, 80);
      throw new AppError('BAD_USER_INPUT', `${field} must be ${text}, got ${got}`, accepted ? { field, accepted } : { field });
    });
  }
}
