import { Field, Int, ObjectType } from 'type-graphql';
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
