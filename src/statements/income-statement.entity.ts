import { ObjectType } from 'type-graphql';
import { Entity } from 'typeorm';
import { LineItem, StatementPeriodColumns } from './statement-fields';

@ObjectType({
  simpleResolvers: true,
  description: 'Income statement for one fiscal period. Amounts in the reporting currency; per-share items per share.',
})
@Entity('income_statements')
export class IncomeStatement extends StatementPeriodColumns {
  @LineItem('Total revenue (net sales).')
  revenue!: number | null;

  @LineItem('Cost of revenue (cost of goods sold).')
  costOfRevenue!: number | null;

  @LineItem('Revenue minus cost of revenue.')
  grossProfit!: number | null;

  @LineItem('Research and development expense.')
  researchAndDevelopment!: number | null;

  @LineItem('Selling, general and administrative expense.')
  sellingGeneralAndAdministrative!: number | null;

  @LineItem('Total operating expenses excluding cost of revenue.')
  operatingExpenses!: number | null;

  @LineItem('Gross profit minus operating expenses.')
  operatingIncome!: number | null;

  @LineItem('Interest expense.')
  interestExpense!: number | null;

  @LineItem('Income before income taxes.')
  incomeBeforeTax!: number | null;

  @LineItem('Income tax expense (negative for a tax benefit).')
  incomeTaxExpense!: number | null;

  @LineItem('Net income attributable to shareholders.')
  netIncome!: number | null;

  @LineItem('Basic earnings per share.')
  epsBasic!: number | null;

  @LineItem('Diluted earnings per share.')
  epsDiluted!: number | null;

  @LineItem('Weighted average basic shares outstanding.')
  sharesBasic!: number | null;

  @LineItem('Weighted average diluted shares outstanding.')
  sharesDiluted!: number | null;

  @LineItem('Depreciation and amortization included in costs and expenses.')
  depreciationAndAmortization!: number | null;

  @LineItem('Operating income plus depreciation and amortization.')
  ebitda!: number | null;
}
