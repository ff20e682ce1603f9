import type { ResolveTree } from 'graphql-parse-resolve-info';
import type { EntityManager } from 'typeorm';
import { CAPS } from '../operations/catalog';
import { compareNewestFirst, type PeriodType } from './fiscal-period';
import { financialPeriodOf } from './available-period';
import {
  recentStatements,
  statementColumnNames,
  type RecentStatementsRead,
  type StatementKind,
} from './statement.repository';
import type { ReadAhead } from '../db/read-ahead';
import { FinancialPeriod } from './statement.types';

/**
 * The statement histories of a page of companies (`companies { items { statements(type, last) { incomeStatement {…} } } }`),
 * read with the page in its own SQL statement, planned from the selection before graphql-js walks the page, instead of one look-up per
 * company, period and statement through the loaders (whose cost is mostly promises, rows and columns nobody asked
 * for). Only what the selection names is read: the periods of each
 * `(type, last)` asked for and, of each statement kind selected under them, the selected columns.
 *
 * The resolvers of `Company.statements` and of the statements under a period look here first and answer at once
 * (no promise per field); whatever the plan did not cover (another argument, ratios, a period from elsewhere) goes
 * through the loaders as before, so the answers are the same either way.
 */

/** Which statement columns a selection reads: listed property names, or every column when a resolver needs the row. */
type ColumnChoice = Set<string> | 'all';

interface HistoryRequest {
  type: PeriodType;
  last: number;
  kinds: Map<StatementKind, ColumnChoice>;
}

/** The GraphQL field of a company or a period that holds each statement kind, and the kind's GraphQL type. */
export const KIND_FIELDS: Record<string, StatementKind> = {
  incomeStatement: 'income',
  balanceSheet: 'balance',
  cashFlow: 'cashFlow',
};
export const TYPE_NAMES: Record<StatementKind, string> = {
  income: 'IncomeStatement',
  balance: 'BalanceSheet',
  cashFlow: 'CashFlowStatement',
};
const { maxPeriods: MAX_HISTORY } = CAPS.history;

const historyKey = (type: PeriodType, last: number) => `${type}|${last}`;

/** The columns a selection of a statement type needs: its column fields, or all when it selects a computed field. */
function columnsOf(fields: Record<string, ResolveTree>, columns: ReadonlySet<string>): ColumnChoice {
  const wanted = new Set<string>();
  for (const field of Object.values(fields)) {
    if (field.name === '__typename') continue;
    if (!columns.has(field.name)) return 'all';
    wanted.add(field.name);
  }
  return wanted;
}

function merge(into: Map<StatementKind, ColumnChoice>, kind: StatementKind, choice: ColumnChoice): void {
  const present = into.get(kind);
  if (present === 'all' || choice === 'all') into.set(kind, 'all');
  else into.set(kind, new Set([...(present ?? []), ...choice]));
}

/**
 * The histories a selection of companies asks of each company, with the statements selected under them: `fields` are
 * the selected fields of the Company type, as graphql-parse-resolve-info gives them (fragments and directives applied).
 */
export function plannedHistories(fields: ResolveTree[], manager: EntityManager): HistoryRequest[] {
  const requests = new Map<string, HistoryRequest>();
  const columns = statementColumnNames(manager);
  for (const field of fields) {
    if (field.name !== 'statements') continue;
    const { type, last } = field.args as { type: PeriodType; last: number };
    // An argument out of range is the resolver's error to give, not a query to plan.
    if (!Number.isInteger(last) || last < 1 || last > MAX_HISTORY) continue;
    const request = requests.get(historyKey(type, last)) ?? { type, last, kinds: new Map() };
    requests.set(historyKey(type, last), request);
    for (const periodField of Object.values(field.fieldsByTypeName.FinancialPeriod ?? {})) {
      const kind = KIND_FIELDS[periodField.name];
      if (!kind || Object.keys(periodField.args).length > 0) continue;
      merge(request.kinds, kind, columnsOf(periodField.fieldsByTypeName[TYPE_NAMES[kind]] ?? {}, columns[kind]));
    }
  }
  return [...requests.values()];
}

type PrefetchedStatements = Partial<Record<StatementKind, Record<string, unknown> | null>>;

/**
 * One request's prefetched histories, by the company object of the page that read them: two pages of one request
 * (aliases) may select different columns of the same company's history, so each answers from its own read.
 */
export class HistoryPrefetch {
  private readonly histories = new WeakMap<object, Map<string, FinancialPeriod[]>>();
  /** The statements read with each period object handed out (and only those: other objects go to the loaders). */
  private readonly statements = new WeakMap<FinancialPeriod, PrefetchedStatements>();

  /**
   * The planned histories as a read-ahead of the company page: each company's histories come in the page's own
   * statement, one JSON value per company with every planned `(type, last)`, and land here by the company object.
   */
  readAhead(manager: EntityManager, requests: HistoryRequest[]): ReadAhead<{ id: number }> {
    let reads: RecentStatementsRead[] = [];
    return {
      expression: () => {
        reads = requests.map((request) => recentStatements(manager, 'c.id', request));
        return `json_build_array(${reads.map((read) => read.expression).join(', ')})`;
      },
      receive: (company, value) => {
        const histories = new Map<string, FinancialPeriod[]>();
        this.histories.set(company, histories);
        requests.forEach(({ type, last }, index) => {
          const periods: FinancialPeriod[] = [];
          for (const row of reads[index].read(company.id, (value as unknown[])[index])) {
            const fields = financialPeriodOf(row);
            if (!fields) continue;
            // An instance of the GraphQL type, so type-graphql hands the resolvers this very object (it copies others).
            const period = Object.assign(new FinancialPeriod(), fields);
            periods.push(period);
            this.statements.set(period, row.statements);
          }
          histories.set(historyKey(type, last), periods.sort(compareNewestFirst).slice(0, last));
        });
      },
    };
  }

  /** The last `last` periods of `type` of a company of a page, newest first, when that page read them. */
  history(company: object, type: PeriodType, last: number): FinancialPeriod[] | undefined {
    return this.histories.get(company)?.get(historyKey(type, last));
  }

  /** The statement of `kind` read with this period (null when the company has none), or undefined when not read. */
  statement(period: FinancialPeriod, kind: StatementKind): Record<string, unknown> | null | undefined {
    return this.statements.get(period)?.[kind];
  }
}
