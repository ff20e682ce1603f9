import { Field, Float, ObjectType } from 'type-graphql';

@ObjectType({ description: 'Where an imported value came from: the SEC filing and its us-gaap or ifrs-full concept, and whether it was derived or restated.' })
export class ValueSource {
  @Field({ description: 'The statement field, camelCase (e.g. revenue).' })
  field!: string;

  @Field({ description: 'us-gaap or ifrs-full concept, e.g. RevenueFromContractWithCustomerExcludingAssessedTax; for a derived value its formula, e.g. Revenues − CostOfRevenue.' })
  concept!: string;

  @Field({ description: 'Accession number of the filing the value was taken from (the newest that reports it).' })
  accession!: string;

  @Field({ description: '10-K, 10-Q, 10-K/A…' })
  form!: string;

  @Field({ description: 'Filing date, YYYY-MM-DD.' })
  filed!: string;

  @Field({ description: 'Computed from filed values (Q2 = H1 − Q1, Q4 = FY − 9M, gross profit, total debt, free cash flow…) rather than filed as such.' })
  derived!: boolean;

  @Field({ description: 'A later filing changed the value first reported; the later value is the one stored.' })
  restated!: boolean;

  @Field(() => Float, { description: 'The value as filed (payments are stored negated as cash outflows).' })
  reportedValue!: number;
}
