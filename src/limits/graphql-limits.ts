import { Kind, type DocumentNode, type FragmentDefinitionNode, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { AppError } from '../shared/errors';
import { DEFAULT_PAGE_SIZE } from '../companies/company.service';

export interface GraphQLLimits {
  maxDepth: number;
  /** Field selections in the whole document, aliases included. */
  maxFields: number;
  maxAliases: number;
  maxCost: number;
}

/** Shape of a document: deepest nesting, number of field selections and of aliases (fragments counted where spread). */
function measure(document: DocumentNode): { depth: number; fields: number; aliases: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  let fields = 0;
  let aliases = 0;
  const walk = (set: SelectionSetNode, depth: number, visiting: Set<string>): number => {
    let deepest = depth;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        fields += 1;
        if (selection.alias) aliases += 1;
        if (selection.selectionSet) deepest = Math.max(deepest, walk(selection.selectionSet, depth + 1, visiting));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, walk(selection.selectionSet, depth, visiting));
      } else {
        const fragment = fragments.get(selection.name.value);
        // A fragment cycle is refused by validation; here it must just not loop.
        if (!fragment || visiting.has(fragment.name.value)) continue;
        deepest = Math.max(deepest, walk(fragment.selectionSet, depth, new Set([...visiting, fragment.name.value])));
      }
    }
    return deepest;
  };
  let depth = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) depth = Math.max(depth, walk(definition.selectionSet, 1, new Set()));
  }
  return { depth, fields, aliases };
}

/** A list field costs its page size (`limit`, `topK`, `last`) times what each item costs. */
const listEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = [args.limit, args.topK, args.last].find((value) => typeof value === 'number');
  return size === undefined ? undefined : 1 + Math.max(1, size) * Math.max(1, childComplexity);
};

// `companies` pages by `limit` with a default of 20 when it is left out.
const companiesEstimator: ComplexityEstimator = ({ field, args, childComplexity }) =>
  field.name === 'companies' && args.limit === undefined ? 1 + DEFAULT_PAGE_SIZE * Math.max(1, childComplexity) : undefined;

/** Refuses (400) a document that is too deep, too wide or too costly, before anything runs. */
export function checkOperationLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  limits: GraphQLLimits,
): void {
  const shape = measure(document);
  if (shape.depth > limits.maxDepth) throw new AppError('BAD_USER_INPUT', `Query depth ${shape.depth} exceeds the limit of ${limits.maxDepth}`);
  if (shape.aliases > limits.maxAliases) throw new AppError('BAD_USER_INPUT', `Query has ${shape.aliases} aliases; the limit is ${limits.maxAliases}`);
  if (shape.fields > limits.maxFields) throw new AppError('BAD_USER_INPUT', `Query selects ${shape.fields} fields; the limit is ${limits.maxFields}`);
  let cost: number;
  try {
    cost = getComplexity({
      schema, query: document, variables: variables ?? {}, operationName,
      estimators: [companiesEstimator, listEstimator, simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch {
    return; // variables that do not fit the schema: execution reports that with its own clear error
  }
  if (cost > limits.maxCost) throw new AppError('BAD_USER_INPUT', `Query cost ${cost} exceeds the limit of ${limits.maxCost} (list fields cost their page size times their items)`);
}
