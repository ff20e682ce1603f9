import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({
  description:
    'Where an imported value came from: the SEC filing and its us-gaap or ifrs-full concept, or the stored document, page and line label it was read from; and whether it was derived or restated.',
})
export class ValueSource {
  @Field({ description: 'The statement field, camelCase (e.g. revenue).' })
  field!: string;

  @Field({
    description:
      'us-gaap or ifrs-full concept, e.g. RevenueFromContractWithCustomerExcludingAssessedTax; for a value read from a stored document, the line label as the document writes it; for a derived value its formula, e.g. Revenues − CostOfRevenue.',
  })
  concept!: string;

  @Field(() => String, {
    nullable: true,
    description:
      'Accession number of the SEC filing the value was taken from (the newest that reports it); null for a value read from a stored document.',
  })
  accession!: string | null;

  @Field({ description: '10-K, 10-Q, 10-K/A…; for a stored document, its document type.' })
  form!: string;

  @Field({
    description: 'Filing date, YYYY-MM-DD; for a stored document, its publication date (else the day it was stored).',
  })
  filed!: string;

  @Field(() => Int, {
    nullable: true,
    description: 'The stored document the value was read from; null for XBRL facts.',
  })
  documentId!: number | null;

  @Field(() => Int, { nullable: true, description: 'The page of that document (from 1); null for XBRL facts.' })
  page!: number | null;

  @Field({
    description:
      'Computed from filed values (Q2 = H1 − Q1, Q4 = FY − 9M, gross profit, total debt, free cash flow…) rather than filed as such.',
  })
  derived!: boolean;

  @Field({ description: 'A later filing changed the value first reported; the later value is the one stored.' })
  restated!: boolean;

  @Field(() => Float, { description: 'The value as filed (payments are stored negated as cash outflows).' })
  reportedValue!: number;
}
