import { ObjectType } from 'type-graphql';
import { Entity } from 'typeorm';
import { LineItem, StatementPeriodColumns } from './statement-fields';

@ObjectType({
  simpleResolvers: true,
  description:
    'Cash flow statement for one fiscal period. Amounts are signed as they move cash: outflows are negative.',
})
@Entity('cash_flow_statements')
export class CashFlowStatement extends StatementPeriodColumns {
  @LineItem('Net income (the starting point of operating cash flow).')
  netIncome!: number | null;

  @LineItem('Depreciation and amortization added back.')
  depreciationAndAmortization!: number | null;

  @LineItem('Stock-based compensation added back.')
  stockBasedCompensation!: number | null;

  @LineItem('Change in working capital (negative when working capital absorbed cash).')
  changeInWorkingCapital!: number | null;

  @LineItem('Net cash provided by operating activities.')
  operatingCashFlow!: number | null;

  @LineItem('Purchases of property, plant and equipment (negative).')
  capitalExpenditure!: number | null;

  @LineItem('Net cash used in investing activities.')
  investingCashFlow!: number | null;

  @LineItem('Dividends paid (negative).')
  dividendsPaid!: number | null;

  @LineItem('Repurchases of common stock (negative).')
  shareRepurchases!: number | null;

  @LineItem('Net cash from financing activities.')
  financingCashFlow!: number | null;

  @LineItem('Net change in cash and cash equivalents.')
  netChangeInCash!: number | null;

  @LineItem('Operating cash flow plus capital expenditure (capital expenditure is negative).')
  freeCashFlow!: number | null;
}
