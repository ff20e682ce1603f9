import {
  GraphQLError,
  Kind,
  getOperationAST,
  parse,
  visit,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { AppError } from '../shared/errors';
import type { LimitClass } from '../limits/rate-limiter';
import { checkOperationLimits, type GraphQLLimits } from '../limits/graphql-limits';
import { dearestClass, operationSpec } from '../operations/catalog';

/** Root field names of an operation, looking through inline fragments and fragment spreads; aliases counted apart. */
export function rootFields(document: DocumentNode, operationName?: string | null): string[] {
  const operation = document.definitions.find(
    (definition) =>
      definition.kind === Kind.OPERATION_DEFINITION && (!operationName || definition.name?.value === operationName),
  );
  if (operation?.kind !== Kind.OPERATION_DEFINITION) return [];
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  // Keyed by response name: GraphQL merges equal fields, and each fragment needs reading only once.
  const fields = new Map<string, string>();
  const visited = new Set<string>();
  const walk = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD)
        fields.set(selection.alias?.value ?? selection.name.value, selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT) walk(selection.selectionSet);
      else if (!visited.has(selection.name.value) && fragments.has(selection.name.value)) {
        visited.add(selection.name.value);
        walk((fragments.get(selection.name.value) as FragmentDefinitionNode).selectionSet);
      }
    }
  };
  walk(operation.selectionSet);
  return [...fields.values()];
}

/**
 * The budget an operation is charged to, from the catalog entries of its root fields (the dearest wins). An answer
 * the catalog marks one-per-request (AI) may appear once, so that aliases cannot buy several for one budget hit.
 * A field the catalog does not know is not in the schema (the schema is checked against the catalog at start-up)
 * or is a meta field (`__typename`, `__schema`): validation refuses the first, the second is a read.
 */
export function limitClassOf(document: DocumentNode, operationName?: string | null): LimitClass {
  let byOperation = limitClasses.get(document);
  if (!byOperation) limitClasses.set(document, (byOperation = new Map()));
  let limitClass = byOperation.get(operationName ?? undefined);
  if (limitClass === undefined) {
    limitClass = limitClassOfFields(document, operationName);
    // Bounded: a caller can name any operation, and an unknown name is worked out (to nothing) like a known one.
    if (byOperation.size < OPERATIONS_KEPT_PER_DOCUMENT) byOperation.set(operationName ?? undefined, limitClass);
  }
  return limitClass;
}

/** The budget of each document's operations, worked out once per parsed document (parsed documents are kept). */
const limitClasses = new WeakMap<DocumentNode, Map<string | undefined, LimitClass>>();
const OPERATIONS_KEPT_PER_DOCUMENT = 16;

function limitClassOfFields(document: DocumentNode, operationName?: string | null): LimitClass {
  const specs = rootFields(document, operationName).flatMap((field) => {
    const spec = operationSpec(field);
    return spec ? [{ field, spec }] : [];
  });
  const single = specs.filter(({ spec }) => spec.onePerRequest);
  if (single.length > 1) {
    const names = [...new Set(single.map(({ field }) => field))].join(', ');
    throw new AppError(
      'BAD_USER_INPUT',
      `Ask for one AI answer (${names}) per request; this one asks for ${single.length}`,
    );
  }
  return dearestClass(specs.map(({ spec }) => spec.rateClass));
}

function countDirectives(document: DocumentNode): number {
  let directives = 0;
  visit(document, {
    Directive() {
      directives += 1;
    },
  });
  return directives;
}

/**
 * A document of this many characters or fewer is parsed before the caller is charged: parsing it costs a few
 * microseconds, and charging after the parse puts the request on its own budget exactly as REST does. A longer one
 * is charged to the reads budget first (see admitOperation).
 */
export const PREPAID_ABOVE_CHARS = 8_192;

/**
 * Short documents that parsed, by their text: front ends send the same few documents again and again, and the parse
 * is a visible part of a small request's CPU. Bounded, oldest out first; losing it costs only a parse.
 */
const parsedDocuments = new Map<string, { document: DocumentNode; directives: number }>();
const PARSED_DOCUMENTS_KEPT = 500;

function rememberParsed(source: string, parsed: { document: DocumentNode; directives: number }): void {
  if (parsedDocuments.size >= PARSED_DOCUMENTS_KEPT)
    parsedDocuments.delete(parsedDocuments.keys().next().value as string);
  parsedDocuments.set(source, parsed);
}

/** Charges a caller's budget for a class, or gives back one request of it; both per request. */
export interface Budget {
  charge(limitClass: LimitClass): Promise<void>;
  refund(limitClass: LimitClass): Promise<void>;
}

export interface OperationRequest {
  query: unknown;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/**
 * The checks every GraphQL transport (/graphql and /graphql/stream) runs on an operation before it executes, in an
 * order that keeps an anonymous caller from spending the server's CPU for free:
 *
 * 1. A long document is charged to the reads budget *before* it is parsed, so a flood of 1 MB documents is refused
 *    with 429 at the cost of a counter. Which budget it really belongs to is only known from its root fields, after
 *    the parse: when that is search or AI, the read is given back and the right class is charged instead, so the
 *    caller pays exactly what REST would. Short documents (most) are parsed first and charged once.
 * 2. Size cap, then the parser with `maxTokens` (its time is bounded by the token count, not the text), then a
 *    directive cap: each a clear 400 before the document is walked.
 * 3. The rate class from the catalog (one AI answer per request), then depth, width, aliases and cost.
 *
 * Returns the parsed document, or null when there is none or it does not parse (the engine reports that with its
 * own message; its parse is bounded by the same size cap).
 */
export async function admitOperation(
  schema: GraphQLSchema,
  request: OperationRequest,
  limits: GraphQLLimits,
  budget: Budget,
): Promise<DocumentNode | null> {
  if (typeof request.query !== 'string') {
    await budget.charge('reads');
    return null;
  }
  const source = request.query;
  const prepaid = source.length > PREPAID_ABOVE_CHARS;
  if (prepaid) await budget.charge('reads');
  if (source.length > limits.maxDocumentBytes || Buffer.byteLength(source) > limits.maxDocumentBytes) {
    throw new AppError('BAD_USER_INPUT', `The GraphQL document is larger than ${limits.maxDocumentBytes} bytes`);
  }
  let parsed = prepaid ? undefined : parsedDocuments.get(source);
  if (!parsed) {
    try {
      const document = parse(source, { maxTokens: limits.maxTokens });
      parsed = { document, directives: countDirectives(document) };
    } catch (error) {
      // graphql-js 16 words it "more that N tokens"; the pattern takes either spelling.
      if (error instanceof GraphQLError && /Document contains more th\w+ \d+ tokens/.test(error.message)) {
        throw new AppError('BAD_USER_INPUT', `The GraphQL document has more than ${limits.maxTokens} tokens`);
      }
      if (!prepaid) await budget.charge('reads');
      return null;
    }
    if (!prepaid) rememberParsed(source, parsed);
  }
  const { document, directives } = parsed;
  if (directives > limits.maxDirectives) {
    throw new AppError(
      'BAD_USER_INPUT',
      `The GraphQL document has ${directives} directives; the limit is ${limits.maxDirectives}`,
    );
  }
  const limitClass = limitClassOf(document, request.operationName);
  if (!prepaid) await budget.charge(limitClass);
  else if (limitClass !== 'reads') {
    await budget.refund('reads');
    await budget.charge(limitClass);
  }
  if (!getOperationAST(document, request.operationName)) throw unresolvedOperation(document, request.operationName);
  checkOperationLimits(schema, document, request.variables, request.operationName, limits);
  return document;
}

/** A document without the operation to run: the caller's mistake (400), in graphql-js's words, on every transport. */
function unresolvedOperation(document: DocumentNode, operationName: string | undefined): AppError {
  const operations = document.definitions.filter((definition) => definition.kind === Kind.OPERATION_DEFINITION).length;
  const message =
    operationName !== undefined
      ? `Unknown operation named "${operationName}".`
      : operations === 0
        ? 'Must provide an operation.'
        : 'Must provide operation name if query contains multiple operations.';
  return new AppError('OPERATION_RESOLUTION_FAILURE', message);
}

/**
 * graphql-js suggests field and type names ("Did you mean …?") in validation messages; in production they would
 * map the schema for a caller who may not see it, so they are cut (as Apollo does at /graphql).
 */
export function withoutSuggestions(message: string): string {
  return message.replace(/ ?Did you mean .+\?$/, '');
}
