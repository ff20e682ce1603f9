import type { Role } from '../auth/roles';
import type { LimitClass } from '../limits/rate-limiter';

/**
 * The operation catalog: every root field of the GraphQL schema (query, mutation, subscription) declared once, with
 * the role it needs, the rate-limit budget it is charged to, the input caps its service enforces and its cost for
 * the query-cost estimator. Everything else reads these entries: the resolvers' `@Authorized` (through
 * `@CatalogAuthorized()`), the REST route table and OpenAPI document, the rate class on `/graphql` and
 * `/graphql/stream`, the cost estimator, and the services' input checks. A root field without an entry stops the
 * schema from building (see `checkCatalogCoversSchema`).
 *
 * This module holds data only and imports nothing but types, so any layer may read it without an import circle.
 */

export type OperationKind = 'query' | 'mutation' | 'subscription';

/** How the cost estimator prices a root field that returns a page: its page size times what each item costs. */
export interface ListCost {
  /** The argument that sets the page size. */
  sizeArgument: string;
  /** The page size when the argument is left out. */
  defaultSize: number;
}

export interface OperationSpec {
  kind: OperationKind;
  /** The least role allowed (roles include the ones below them); `viewer` is open to anyone while PUBLIC_READS is on. */
  role: Role;
  /** The budget a call is charged to, on every transport. */
  rateClass: LimitClass;
  /** One answer of this class per request: aliases must not buy several generations for one budget hit. */
  onePerRequest?: true;
  /** Pricing for the cost estimator when the field is a page; anything else costs 1 plus its selections. */
  cost?: ListCost;
}

/** Input caps, read by the services that enforce them and by the REST JSON Schemas that document them. */
export const CAPS = {
  companies: { defaultPageSize: 20, maxPageSize: 100, maxOffset: 1_000_000 },
  /** Periods of one statement or ratio history (GraphQL `statements(last)`, REST `limit`). */
  history: { defaultPeriods: 8, maxPeriods: 40 },
  search: { defaultTopK: 10, maxTopK: 50, maxQueryChars: 2_000, maxCompanyFilter: 100, maxListFilter: 20, maxSectionChars: 100 },
  compare: { minCompanies: 2, maxCompanies: 5 },
  ingestDocument: { docTypes: ['10-K', '10-Q', '8-K', '20-F', '6-K', 'annual-report', 'earnings-call', 'press-release', 'presentation', 'note', 'other'] },
  chat: { maxMessages: 40, maxMessageChars: 4_000, maxConversationChars: 20_000, maxCompanies: 5 },
} as const;

const OPERATIONS = {
  companies: {
    kind: 'query', role: 'viewer', rateClass: 'reads',
    cost: { sizeArgument: 'limit', defaultSize: CAPS.companies.defaultPageSize },
  },
  company: { kind: 'query', role: 'viewer', rateClass: 'reads' },
  sectors: { kind: 'query', role: 'viewer', rateClass: 'reads' },
  ratioDefinitions: { kind: 'query', role: 'viewer', rateClass: 'reads' },
  search: {
    kind: 'query', role: 'analyst', rateClass: 'search',
    cost: { sizeArgument: 'topK', defaultSize: CAPS.search.defaultTopK },
  },
  document: { kind: 'query', role: 'analyst', rateClass: 'reads' },
  ingestDocument: { kind: 'mutation', role: 'admin', rateClass: 'search' },
  summarize: { kind: 'mutation', role: 'analyst', rateClass: 'ai', onePerRequest: true },
  compare: { kind: 'mutation', role: 'analyst', rateClass: 'ai', onePerRequest: true },
  chat: { kind: 'subscription', role: 'analyst', rateClass: 'ai', onePerRequest: true },
  apiKeys: { kind: 'query', role: 'admin', rateClass: 'reads' },
  createApiKey: { kind: 'mutation', role: 'admin', rateClass: 'reads' },
  revokeApiKey: { kind: 'mutation', role: 'admin', rateClass: 'reads' },
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof OPERATIONS;

export const CATALOG: Readonly<Record<OperationName, OperationSpec>> = OPERATIONS;

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];

/** The entry of a root field, or undefined for a field the catalog does not know (meta fields such as `__typename`). */
export function operationSpec(field: string): OperationSpec | undefined {
  return Object.prototype.hasOwnProperty.call(OPERATIONS, field) ? CATALOG[field as OperationName] : undefined;
}

/** The entry of a root field that must be in the catalog; a missing one is a programming error, said at start-up. */
export function requireOperation(field: string): OperationSpec {
  const spec = operationSpec(field);
  if (!spec) throw new Error(`Operation "${field}" is not declared in src/operations/catalog.ts`);
  return spec;
}

/** Rate classes from the cheapest budget to the dearest: a request with several root fields pays the dearest. */
const CLASS_ORDER: readonly LimitClass[] = ['reads', 'search', 'ai'];

export function dearestClass(classes: Iterable<LimitClass>): LimitClass {
  let dearest: LimitClass = 'reads';
  for (const limitClass of classes) if (CLASS_ORDER.indexOf(limitClass) > CLASS_ORDER.indexOf(dearest)) dearest = limitClass;
  return dearest;
}
