import {
  GraphQLError,
  execute,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isEnumType,
  isInputObjectType,
  isSpecifiedScalarType,
  typeFromAST,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SourceLocation,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/**
 * Queries executed by graphql-jit: it compiles an operation into one function that reads the result's fields
 * without graphql-js's per-field path, info and argument objects, which dominate the cost of a large nested page.
 * graphql-js stays the reference and keeps everything else:
 * - variables are coerced by graphql-js first, so a bad variable gets graphql-js's own error and defaults apply
 *   exactly as it applies them (graphql-jit's own coercion leaves input-field defaults out); graphql-jit then sees
 *   values already coerced, so it runs only operations whose variable types coerce such a value to itself (the
 *   built-in scalars, enums whose values are their names, and input objects and lists of them);
 * - mutations (run in order), subscriptions and documents graphql-jit cannot compile run on graphql-js;
 * - a document is compiled on its second execution, not its first: compiling generates and evaluates code, and a
 *   document sent once (an ad hoc query) should not pay for that.
 * Compiled operations are kept per parsed document (Apollo's document cache and the REST routes reuse theirs), so
 * they go when the document goes.
 */
type Plan = { compiled: CompiledQuery; operation: OperationDefinitionNode } | 'interpreted' | 'seen once';

export class CompiledExecution {
  private readonly plans = new WeakMap<DocumentNode, Map<string | undefined, Plan>>();

  constructor(private readonly schema: GraphQLSchema) {}

  /** Executes like graphql-js `execute` (same answers and errors). */
  execute(args: Omit<ExecutionArgs, 'schema'>): Promise<ExecutionResult> | ExecutionResult {
    const plan = this.planOf(args.document, args.operationName ?? undefined);
    if (typeof plan === 'string') return execute({ ...args, schema: this.schema });
    // graphql-js's own limit of variable errors in one answer.
    const coerced = getVariableValues(
      this.schema,
      plan.operation.variableDefinitions ?? [],
      args.variableValues ?? {},
      { maxErrors: 50 },
    );
    if (coerced.errors) return { errors: coerced.errors };
    const result = plan.compiled.query(args.rootValue, args.contextValue, coerced.coerced) as
      Promise<ExecutionResult> | ExecutionResult;
    return isPromise(result)
      ? result.then((settled) => withGraphQLJsErrors(settled, args.document))
      : withGraphQLJsErrors(result, args.document);
  }

  private planOf(document: DocumentNode, operationName: string | undefined): Plan {
    let byOperation = this.plans.get(document);
    if (!byOperation) this.plans.set(document, (byOperation = new Map()));
    const plan = byOperation.get(operationName);
    if (plan === undefined) {
      const operation = getOperationAST(document, operationName);
      byOperation.set(operationName, operation && this.compilable(operation) ? 'seen once' : 'interpreted');
      return 'interpreted';
    }
    if (plan !== 'seen once') return plan;
    const compiled = compileQuery(this.schema, document, operationName);
    const next: Plan = isCompiledQuery(compiled)
      ? { compiled, operation: getOperationAST(document, operationName) as OperationDefinitionNode }
      : 'interpreted';
    byOperation.set(operationName, next);
    return next;
  }

  private compilable(operation: OperationDefinitionNode): boolean {
    if (operation.operation !== 'query') return false;
    return (operation.variableDefinitions ?? []).every((definition) => {
      const type = typeFromAST(this.schema, definition.type);
      return type !== undefined && coercesToItself(type as GraphQLInputType, new Set());
    });
  }
}

function isPromise<T>(value: Promise<T> | T): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}

/**
 * graphql-jit's errors are its own kind of GraphQLError, without the `extensions` object graphql-js always gives
 * (Apollo reads `extensions.code` of every error): each becomes the error graphql-js would have made, with the same
 * message, locations, path and original error.
 */
/** The engine's refusal of an argument value (an explicit null for a non-null argument with a default). */
const ARGUMENT_REFUSAL = /^Argument "[^"]+" (of non-null type "[^"]+" must not be null|has invalid value)/;

function withGraphQLJsErrors(result: ExecutionResult, document: DocumentNode): ExecutionResult {
  if (!result.errors) return result;
  const source = document.loc?.source;
  const errors = result.errors.map(
    (error) =>
      new GraphQLError(error.message, {
        source,
        positions: source ? error.locations?.map((location) => positionIn(source.body, location)) : undefined,
        path: error.path,
        // graphql-js carries its own refusal of an argument value as a GraphQLError in originalError, which marks it
        // as the caller's doing (see errors.ts); graphql-jit gives none, so it is made the same way here.
        originalError:
          error.originalError ?? (ARGUMENT_REFUSAL.test(error.message) ? new GraphQLError(error.message) : undefined),
      }),
  );
  return { ...result, errors };
}

/** The offset in `body` of a 1-based line and column (the inverse of graphql-js's getLocation). */
function positionIn(body: string, { line, column }: SourceLocation): number {
  let offset = 0;
  for (let current = 1; current < line; current += 1) {
    const lineBreak = /\r\n|[\n\r]/g;
    lineBreak.lastIndex = offset;
    const found = lineBreak.exec(body);
    if (!found) break;
    offset = found.index + found[0].length;
  }
  return offset + column - 1;
}

/** Whether coercing an already coerced value of this type gives the same value (see CompiledExecution). */
function coercesToItself(type: GraphQLInputType, seen: Set<string>): boolean {
  const named = getNamedType(type);
  if (isSpecifiedScalarType(named)) return true;
  if (isEnumType(named)) return named.getValues().every((value) => value.value === value.name);
  if (!isInputObjectType(named)) return false;
  if (seen.has(named.name)) return true;
  seen.add(named.name);
  return Object.values(named.getFields()).every((field) => coercesToItself(field.type, seen));
}
