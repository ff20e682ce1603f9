import { AppError } from '../src/shared/errors';
import type { RequestParams } from './params';

/** One `/v1` endpoint: which stored GraphQL operation serves it, with which variables, and which part of the result. */
export interface RestRoute {
  method: 'GET' | 'POST';
  /** Path pattern; `:name` segments are parameters. */
  path: string;
  /** Name of the operation in `operations/<name>.graphql`. */
  operation: string;
  /** Query parameters the endpoint accepts; anything else is a 400. */
  query?: readonly string[];
  variables(params: RequestParams): Record<string, unknown>;
  /** Picks the response `data` out of the operation's result; throws NOT_FOUND for a missing resource. */
  data(result: any, variables: Record<string, any>): unknown;
  /** Optional `meta` next to `data` (e.g. paging totals). */
  meta?(result: any): unknown;
}

/** A value the caller asked for by id or period; null means it does not exist. */
function found<T>(value: T | null | undefined, message: string): T {
  if (value === null || value === undefined) throw new AppError('NOT_FOUND', message);
  return value;
}

const companyNotFound = (variables: Record<string, unknown>) => `No company with id ${variables.id}`;

function periodText(variables: Record<string, unknown>): string {
  const period = variables.period as string | undefined;
  return period ? `period ${period}` : 'any quarter';
}

/** A statement route: the company must exist and have the statement for the period asked for. */
function statementRoute(path: string, operation: string, field: string, noun: string): RestRoute {
  return {
    method: 'GET',
    path,
    operation,
    query: ['period'],
    variables: (params) => ({ id: params.pathInt('id'), period: params.queryString('period') }),
    data: (result, variables) =>
      found(
        found(result.company, companyNotFound(variables))[field],
        `Company ${variables.id} has no ${noun} for ${periodText(variables)}`,
      ),
  };
}

export const ROUTES: readonly RestRoute[] = [
  {
    method: 'GET',
    path: '/v1/companies',
    operation: 'ListCompanies',
    query: ['sector', 'limit', 'offset'],
    variables: (params) => ({
      sector: params.queryString('sector'),
      limit: params.queryInt('limit'),
      offset: params.queryInt('offset'),
    }),
    data: (result) => result.companies.items,
    meta: (result) => ({ total: result.companies.total, limit: result.companies.limit, offset: result.companies.offset }),
  },
  {
    method: 'GET',
    path: '/v1/companies/:id',
    operation: 'GetCompany',
    variables: (params) => ({ id: params.pathInt('id') }),
    data: (result, variables) => found(result.company, companyNotFound(variables)),
  },
  statementRoute('/v1/companies/:id/income-statement', 'GetIncomeStatement', 'incomeStatement', 'income statement'),
  statementRoute('/v1/companies/:id/balance-sheet', 'GetBalanceSheet', 'balanceSheet', 'balance sheet'),
  statementRoute('/v1/companies/:id/cash-flow', 'GetCashFlow', 'cashFlow', 'cash flow statement'),
  statementRoute('/v1/companies/:id/ratios', 'GetRatios', 'ratios', 'ratios'),
  {
    method: 'GET',
    path: '/v1/companies/:id/periods',
    operation: 'ListPeriods',
    query: ['type'],
    variables: (params) => ({ id: params.pathInt('id'), type: params.queryString('type')?.toUpperCase() }),
    data: (result, variables) => found(result.company, companyNotFound(variables)).periods,
  },
  {
    method: 'GET',
    path: '/v1/ratios/definitions',
    operation: 'ListRatioDefinitions',
    variables: () => ({}),
    data: (result) => result.ratioDefinitions,
  },
];
