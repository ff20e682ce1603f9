import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { Company } from './company.entity';

@ObjectType({ simpleResolvers: true, description: 'One page of companies and the total that match the filter.' })
export class CompanyPage {
  @Field(() => [Company])
  items!: Company[];

  @Field(() => Int, { description: 'Number of companies matching the filter, across all pages.' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  offset!: number;
}

@InputType({ description: 'A company to track: its profile; statements come from an SEC import or its documents.' })
export class CreateCompanyInput {
  @Field({ description: 'Full name, 1 to 200 characters.' })
  name!: string;

  @Field({ description: 'Exchange ticker, 1 to 16 letters, digits, "." or "-"; stored in upper case, unique.' })
  ticker!: string;

  @Field({
    description:
      'Sector, e.g. a GICS sector ("Information Technology"); an existing sector in any case is written as stored.',
  })
  sector!: string;

  @Field(() => Int, {
    nullable: true,
    description: 'SEC Central Index Key: a later SEC import of this CIK fills this company.',
  })
  cik?: number | null;

  @Field(() => String, { nullable: true, description: 'ISO 4217 reporting currency (default USD).' })
  currency?: string | null;

  @Field(() => Int, { nullable: true, description: 'Month (1–12) in which the fiscal year ends (default 12).' })
  fiscalYearEndMonth?: number | null;

  @Field(() => String, { nullable: true })
  description?: string | null;
}

@InputType({ description: 'The fields of a company to change; those left out keep their value.' })
export class UpdateCompanyInput {
  @Field(() => String, { nullable: true })
  name?: string | null;

  @Field(() => String, { nullable: true })
  ticker?: string | null;

  @Field(() => String, { nullable: true })
  sector?: string | null;

  @Field(() => Int, { nullable: true })
  cik?: number | null;

  @Field(() => String, { nullable: true })
  currency?: string | null;

  @Field(() => Int, { nullable: true })
  fiscalYearEndMonth?: number | null;

  @Field(() => String, { nullable: true, description: 'An empty description removes it.' })
  description?: string | null;
}
