import { ObjectType } from 'type-graphql';
import { Entity } from 'typeorm';
import { LineItem, StatementPeriodColumns } from './statement-fields';

@ObjectType({
  simpleResolvers: true,
  description: 'Balance sheet at the end of a fiscal period (a fiscal year shares the balance of its last quarter).',
})
@Entity('balance_sheets')
export class BalanceSheet extends StatementPeriodColumns {
  @LineItem('Cash and cash equivalents.')
  cashAndEquivalents!: number | null;

  @LineItem(
    'Restricted cash and restricted cash equivalents (not in cash and cash equivalents; the cash-flow statement rolls both forward).',
  )
  restrictedCash!: number | null;

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

  @LineItem('Short-term borrowings (including commercial paper when the filer reports them together).')
  shortTermBorrowings!: number | null;

  @LineItem('Commercial paper outstanding.')
  commercialPaper!: number | null;

  @LineItem('Current portion of long-term debt.')
  currentPortionOfLongTermDebt!: number | null;

  @LineItem('All current debt: short-term borrowings (or commercial paper) plus the current portion of long-term debt.')
  shortTermDebt!: number | null;

  @LineItem('Total current liabilities.')
  totalCurrentLiabilities!: number | null;

  @LineItem('Long-term debt, non-current portion.')
  longTermDebt!: number | null;

  @LineItem('Total debt: short-term debt plus non-current long-term debt.')
  totalDebt!: number | null;

  @LineItem('Total liabilities.')
  totalLiabilities!: number | null;

  @LineItem('Retained earnings (accumulated deficit).')
  retainedEarnings!: number | null;

  @LineItem("Total shareholders' equity attributable to the parent (excluding non-controlling interest).")
  totalEquity!: number | null;

  @LineItem('Non-controlling (minority) interest in consolidated subsidiaries, within equity.')
  nonControllingInterest!: number | null;

  @LineItem(
    'Temporary (mezzanine) equity: redeemable shares and redeemable non-controlling interests, between liabilities and equity.',
  )
  temporaryEquity!: number | null;

  @LineItem(
    'Total liabilities and equity: total liabilities + total equity + non-controlling interest + temporary equity; equals total assets.',
  )
  totalLiabilitiesAndEquity!: number | null;
}
