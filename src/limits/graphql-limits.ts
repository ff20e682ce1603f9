import {
  Kind,
  type DocumentNode,
  type GraphQLCompositeType,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { AppError } from '../shared/errors';
import { operationSpec } from '../operations/catalog';

export interface GraphQLLimits {
  /** Largest document text, checked before it is parsed. */
  maxDocumentBytes: number;
  /** Tokens the parser reads before it gives up (graphql-js `maxTokens`): parsing time stays bounded. */
  maxTokens: number;
  /** Directives in the whole document (`@include`, `@skip`, and any unknown ones validation would refuse later). */
  maxDirectives: number;
  maxDepth: number;
  /** Field selections in the whole document, aliases included. */
  maxFields: number;
  maxAliases: number;
  maxCost: number;
}

interface Shape {
  depth: number;
  fields: number;
  aliases: number;
}

/**
 * Shape of a document: deepest nesting, and the number of field selections and of aliases as executed (a fragment
 * counts wherever it is spread). Each fragment is measured once and reused, so a document of fragments that spread
 * each other twice over (2ⁿ fields from n lines) is measured in linear time, not walked 2ⁿ times.
 */
function measure(document: DocumentNode): Shape {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const measured = new Map<string, Shape>();
  const ofSet = (set: SelectionSetNode, visiting: Set<string>): Shape => {
    const shape: Shape = { depth: 0, fields: 0, aliases: 0 };
    const add = (inner: Shape, extraDepth: number) => {
      shape.depth = Math.max(shape.depth, inner.depth + extraDepth);
      shape.fields += inner.fields;
      shape.aliases += inner.aliases;
    };
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        add({ depth: 0, fields: 1, aliases: selection.alias ? 1 : 0 }, 1);
        if (selection.selectionSet) add(ofSet(selection.selectionSet, visiting), 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        add(ofSet(selection.selectionSet, visiting), 0);
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        // A fragment cycle is refused by validation; here it must just not loop.
        if (!fragment || visiting.has(name)) continue;
        if (!measured.has(name)) measured.set(name, ofSet(fragment.selectionSet, new Set([...visiting, name])));
        add(measured.get(name) as Shape, 0);
      }
    }
    return shape;
  };
  const total: Shape = { depth: 0, fields: 0, aliases: 0 };
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    const shape = ofSet(definition.selectionSet, new Set());
    total.depth = Math.max(total.depth, shape.depth);
    total.fields += shape.fields;
    total.aliases += shape.aliases;
  }
  return total;
}

/** A list field costs its page size (`limit`, `topK`, `last`) times what each item costs. */
const listEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = [args.limit, args.topK, args.last].find((value) => typeof value === 'number');
  return size === undefined ? undefined : 1 + Math.max(1, size) * Math.max(1, childComplexity);
};

/** A root field that returns a page costs what the catalog says: its page size (or the default size) times its items. */
const catalogEstimator =
  (schema: GraphQLSchema): ComplexityEstimator =>
  ({ field, type, args, childComplexity }) => {
    const roots: Array<GraphQLCompositeType | null | undefined> = [
      schema.getQueryType(),
      schema.getMutationType(),
      schema.getSubscriptionType(),
    ];
    if (!roots.includes(type)) return undefined;
    const cost = operationSpec(field.name)?.cost;
    if (!cost) return undefined;
    const size = typeof args[cost.sizeArgument] === 'number' ? (args[cost.sizeArgument] as number) : cost.defaultSize;
    return 1 + Math.max(1, size) * Math.max(1, childComplexity);
  };

/**
 * Shape and cost of the documents checked lately, by document object and then by operation and variables: parsed
 * documents are kept per process (operation-admission), so a front end's repeated query is measured once, not walked
 * field by field on every request (the walk is a visible part of a small request's CPU). Null: the variables did not
 * fit the schema. Bounded per document; a document that leaves the parse cache takes its entries with it.
 */
const measuredDocuments = new WeakMap<DocumentNode, { shape: Shape; costs: Map<string, number | null> }>();
const COSTS_KEPT_PER_DOCUMENT = 64;
/** Variables longer than this (a document to ingest) are not worth keeping as a key: measured each time. */
const MAX_COST_KEY_CHARS = 2_048;

function costOf(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown>,
  operationName: string | undefined,
  costs: Map<string, number | null>,
): number | null {
  const key = JSON.stringify([operationName ?? null, variables]);
  const known = costs.get(key);
  if (known !== undefined) return known;
  const keep = key.length <= MAX_COST_KEY_CHARS;
  let cost: number | null;
  try {
    cost = getComplexity({
      schema,
      query: document,
      variables,
      operationName,
      estimators: [catalogEstimator(schema), listEstimator, simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch {
    cost = null;
  }
  if (!keep) return cost;
  if (costs.size >= COSTS_KEPT_PER_DOCUMENT) costs.delete(costs.keys().next().value as string);
  costs.set(key, cost);
  return cost;
}

/** Refuses (400) a document that is too deep, too wide or too costly, before anything runs. */
export function checkOperationLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName: string | undefined,
  limits: GraphQLLimits,
): void {
  let measured = measuredDocuments.get(document);
  if (!measured) measuredDocuments.set(document, (measured = { shape: measure(document), costs: new Map() }));
  const { shape } = measured;
  if (shape.depth > limits.maxDepth)
    throw new AppError('BAD_USER_INPUT', `Query depth ${shape.depth} exceeds the limit of ${limits.maxDepth}`);
  if (shape.aliases > limits.maxAliases)
    throw new AppError('BAD_USER_INPUT', `Query has ${shape.aliases} aliases; the limit is ${limits.maxAliases}`);
  if (shape.fields > limits.maxFields)
    throw new AppError('BAD_USER_INPUT', `Query selects ${shape.fields} fields; the limit is ${limits.maxFields}`);
  // Only now, with the size known to be bounded, is the document walked field by field for its cost.
  const cost = costOf(schema, document, variables ?? {}, operationName, measured.costs);
  // Variables that do not fit the schema: execution reports that with its own clear error.
  if (cost === null) return;
  if (cost > limits.maxCost)
    throw new AppError(
      'BAD_USER_INPUT',
      `Query cost ${cost} exceeds the limit of ${limits.maxCost} (list fields cost their page size times their items)`,
    );
}
