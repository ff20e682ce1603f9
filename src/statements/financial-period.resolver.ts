import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../graphql/context';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import { FinancialPeriod, Ratios } from './statement.types';
import { loadRatios, loadStatement } from './statement.service';
import type { StatementKind, StatementLoaders } from './statement.loaders';

/** The statement read ahead with this period (answered at once), else through the loaders. */
function statementOf(loaders: StatementLoaders, period: FinancialPeriod, kind: StatementKind) {
  const prefetched = loaders.prefetched.statement(period, kind);
  return prefetched !== undefined ? prefetched : loadStatement(loaders, kind, period.companyId, period.period);
}

/** Statements nested under a period of a company's history, batched by the same per-request loaders. */
@Resolver(() => FinancialPeriod)
export class FinancialPeriodResolver {
  @FieldResolver(() => IncomeStatement, { nullable: true })
  incomeStatement(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return statementOf(loaders, period, 'income');
  }

  @FieldResolver(() => BalanceSheet, { nullable: true })
  balanceSheet(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return statementOf(loaders, period, 'balance');
  }

  @FieldResolver(() => CashFlowStatement, { nullable: true })
  cashFlow(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return statementOf(loaders, period, 'cashFlow');
  }

  @FieldResolver(() => Ratios, { nullable: true })
  ratios(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return loadRatios(loaders, period.companyId, period.period);
  }
}
