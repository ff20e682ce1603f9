import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { RequestContext } from '../graphql/context';
import { IncomeStatement } from './income-statement.entity';
import { BalanceSheet } from './balance-sheet.entity';
import { CashFlowStatement } from './cash-flow-statement.entity';
import { ValueSource } from './value-source.type';

const DESCRIPTION = 'Sources of the values of an imported (SEC) statement, one per field; empty for demo data.';

@Resolver(() => IncomeStatement)
export class IncomeStatementProvenanceResolver {
  @FieldResolver(() => [ValueSource], { description: DESCRIPTION })
  provenance(@Root() statement: IncomeStatement, @Ctx() { loaders }: RequestContext) {
    return loaders.provenance.income.load({ companyId: statement.companyId, period: statement.period });
  }
}

@Resolver(() => BalanceSheet)
export class BalanceSheetProvenanceResolver {
  @FieldResolver(() => [ValueSource], { description: DESCRIPTION })
  provenance(@Root() statement: BalanceSheet, @Ctx() { loaders }: RequestContext) {
    return loaders.provenance.balance.load({ companyId: statement.companyId, period: statement.period });
  }
}

@Resolver(() => CashFlowStatement)
export class CashFlowProvenanceResolver {
  @FieldResolver(() => [ValueSource], { description: DESCRIPTION })
  provenance(@Root() statement: CashFlowStatement, @Ctx() { loaders }: RequestContext) {
    return loaders.provenance.cashFlow.load({ companyId: statement.companyId, period: statement.period });
  }
}
