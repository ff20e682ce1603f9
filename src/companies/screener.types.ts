import { Field, Float, Int, ObjectType } from 'type-graphql';

@ObjectType({
  simpleResolvers: true,
  description: 'One value a screen returns: a statement field or ratio of the screened period.',
})
export class ScreenValue {
  @Field({ description: 'The field or ratio (camelCase in GraphQL, snake_case in REST).' })
  field!: string;

  @Field(() => Float, { nullable: true, description: 'Null when not reported, or when the ratio is undefined.' })
  value!: number | null;
}

@ObjectType({
  simpleResolvers: true,
  description: 'A company that passes a screen, with the chosen values of its screened period.',
})
export class ScreenRow {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;

  @Field()
  ticker!: string;

  @Field()
  sector!: string;

  @Field({ description: 'ISO 4217 reporting currency: the values are in its units.' })
  currency!: string;

  @Field({ description: 'The period screened for this company: FY<yyyy>, Q<n>-<yyyy> or TTM.' })
  period!: string;

  @Field(() => [ScreenValue], { description: 'The chosen fields, in the order asked.' })
  values!: ScreenValue[];
}

@ObjectType({
  simpleResolvers: true,
  description: 'One page of the companies that pass a screen, and how many pass in all.',
})
export class ScreenPage {
  @Field(() => [ScreenRow])
  items!: ScreenRow[];

  @Field(() => Int, { description: 'Number of companies that pass the screen, across all pages.' })
  total!: number;

  @Field(() => Int)
  limit!: number;

  @Field(() => Int)
  offset!: number;
}
