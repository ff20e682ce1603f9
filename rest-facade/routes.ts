import { AppError } from '../src/shared/errors';
import { snakeCase } from '../src/shared/case';
import { ROUTE_DECLARATIONS, type OperationDeclaration, type RestDeclaration } from '../src/operations/catalog';

type Json = Record<string, unknown>;

/**
 * One `/v1` endpoint: its declaration (src/operations/declarations.ts), and how its answer is read from the result
 * of its stored operation. The declaration's `data`, `missing`, `page` and `status` say that for most routes; the few
 * whose answer needs more are below, by declaration name.
 */
export interface RestRoute extends RestDeclaration {
  /** The operation the route serves: its role and rate class. */
  declaration: OperationDeclaration;
  /** Variables of the stored operation beyond those read from the input. */
  extraVariables(input: Json): Json;
  /** Picks the response `data` out of the operation's result; throws NOT_FOUND for a missing resource. */
  pick(result: Json, input: Json): unknown;
  /** The `meta` next to `data` (a page's total, limit and offset). */
  meta?(result: Json): unknown;
  /** HTTP status of a success. */
  statusOf(result: Json): number;
}

type Behaviour = Partial<Pick<RestRoute, 'extraVariables' | 'pick' | 'statusOf'>>;

/** The value, or NOT_FOUND with the message (worded only then: most reads find what they ask for). */
function found<T>(value: T | null | undefined, message: () => string): T {
  if (value === null || value === undefined) throw new AppError('NOT_FOUND', message());
  return value;
}

/** A declaration's message with `{name}` replaced by the input's value. */
const fill = (template: string, input: Json) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => String(input[name]));

/** The value at a dotted path; the first field null is the declared 404. */
function pickPath(declared: RestDeclaration, result: Json, input: Json): unknown {
  const [first, ...deeper] = declared.data.split('.');
  const head = declared.missing ? found(result[first], () => fill(declared.missing as string, input)) : result[first];
  return deeper.reduce<unknown>((value, field) => (value as Json | null | undefined)?.[field], head);
}

/**
 * A statement route: one statement for a period (the company must have it), or with `type` or `limit` the last
 * periods of that type, newest first, as an array (periods without this statement are left out).
 */
function statementBehaviour(field: string, noun: string): Behaviour {
  const history = (input: Json) => input.type !== undefined || input.limit !== undefined;
  return {
    extraVariables: (input) => {
      if (history(input) && input.period !== undefined) {
        throw new AppError('BAD_USER_INPUT', 'Ask for one period (period) or several (type and limit), not both', {
          field: 'period',
        });
      }
      return { history: history(input) };
    },
    pick: (result, input) => {
      const company = found(result.company as Json | null, () => fill('No company with id {id}', input));
      if (history(input))
        return (company.statements as Json[]).map((period) => period[field]).filter((row) => row !== null);
      const period = () => (input.period === undefined ? 'any quarter' : `period ${String(input.period)}`);
      return found(company[field], () => `Company ${String(input.id)} has no ${noun} for ${period()}`);
    },
  };
}

const BEHAVIOURS: Readonly<Record<string, Behaviour>> = {
  'company.incomeStatement': statementBehaviour('incomeStatement', 'income statement'),
  'company.balanceSheet': statementBehaviour('balanceSheet', 'balance sheet'),
  'company.cashFlow': statementBehaviour('cashFlow', 'cash flow statement'),
  'company.ratios': statementBehaviour('ratios', 'ratios'),
  // Ingestion is idempotent: the document already stored is a 200, a new one 201.
  ingestDocument: { statusOf: (result) => ((result.ingestDocument as Json).created ? 201 : 200) },
  // A ratio's key as REST names it everywhere else (the ratios route's keys).
  ratioDefinitions: {
    pick: (result) =>
      (result.ratioDefinitions as Array<{ key: string }>).map((definition) => ({
        ...definition,
        key: snakeCase(definition.key),
      })),
  },
};

function routeOf(declaration: OperationDeclaration): RestRoute {
  const rest = declaration.rest!;
  const page = (result: Json) => pickPath(rest, result, {}) as Json;
  return {
    ...rest,
    declaration,
    extraVariables: () => ({}),
    pick: rest.page
      ? (result, input) => (pickPath(rest, result, input) as Json).items
      : (result, input) => pickPath(rest, result, input),
    ...(rest.page
      ? { meta: (result: Json) => Object.fromEntries(Object.entries(page(result)).filter(([key]) => key !== 'items')) }
      : {}),
    statusOf: () => rest.status ?? 200,
    ...BEHAVIOURS[declaration.name],
  };
}

export const ROUTES: readonly RestRoute[] = ROUTE_DECLARATIONS.map(routeOf);

/** The GraphQL root field a route's stored operation runs (its first data field). */
export function rootFieldOf(route: RestRoute): string {
  return route.declaration.name.split('.')[0];
}
