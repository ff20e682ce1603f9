import { ObjectType } from 'type-graphql';
import { Entity } from 'typeorm';
import { LineItem, StatementPeriodColumns } from './statement-fields';

@ObjectType({ description: 'Balance sheet at the end of a fiscal period (a fiscal year shares the balance of its last quarter).' })
@Entity('balance_sheets')
export class BalanceSheet extends StatementPeriodColumns {
  @LineItem('Cash and cash equivalents.')
  cashAndEquivalents!: number | null;

  @LineItem('Short-term (marketable) investments.')
  shortTermInvestments!: number | null;

  @LineItem('Accounts receivable, net.')
  receivables!: number | null;

  @LineItem('Inventories.')
  inventory!: number | null;

  @LineItem('Total current assets.')
  totalCurrentAssets!: number | null;

  @LineItem('Property, plant and equipment, net.')
  ppeNet!: number | null;

  @LineItem('Goodwill and intangible assets, net.')
  goodwillAndIntangibles!: number | null;

  @LineItem('Total assets.')
  totalAssets!: number | null;

  @LineItem('Accounts payable.')
  accountsPayable!: number | null;

  @LineItem('Short-term debt and current portion of long-term debt.')
  shortTermDebt!: number | null;

  @LineItem('Total current liabilities.')
  totalCurrentLiabilities!: number | null;

  @LineItem('Long-term debt, non-current portion.')
  longTermDebt!: number | null;

  @LineItem('Total liabilities.')
  totalLiabilities!: number | null;

  @LineItem('Retained earnings (accumulated deficit).')
  retainedEarnings!: number | null;

  @LineItem("Total shareholders' equity.")
  totalEquity!: number | null;
}
