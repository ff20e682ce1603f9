import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../graphql/context';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import { FinancialPeriod, Ratios } from './statement.types';
import { loadRatios, loadStatement } from './statement.service';

/** Statements nested under a period of a company's history, batched by the same per-request loaders. */
@Resolver(() => FinancialPeriod)
export class FinancialPeriodResolver {
  @FieldResolver(() => IncomeStatement, { nullable: true })
  incomeStatement(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return loadStatement(loaders, 'income', period.companyId, period.period);
  }

  @FieldResolver(() => BalanceSheet, { nullable: true })
  balanceSheet(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return loadStatement(loaders, 'balance', period.companyId, period.period);
  }

  @FieldResolver(() => CashFlowStatement, { nullable: true })
  cashFlow(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return loadStatement(loaders, 'cashFlow', period.companyId, period.period);
  }

  @FieldResolver(() => Ratios, { nullable: true })
  ratios(@Root() period: FinancialPeriod, @Ctx() { loaders }: RequestContext) {
    return loadRatios(loaders, period.companyId, period.period);
  }
}
