import { Field, Int, ObjectType } from 'type-graphql';
import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A tracked company and its profile. The entity doubles as the GraphQL type; statement fields live in the resolver. */
@ObjectType({
  simpleResolvers: true,
  description: 'A tracked company with its profile; statements and ratios hang off it.',
})
@Entity('companies')
export class Company {
  @Field(() => Int)
  @PrimaryGeneratedColumn()
  id!: number;

  @Field()
  @Column('varchar', { length: 200 })
  name!: string;

  @Field({ description: 'Exchange ticker; a string, since some are all digits (e.g. "2330").' })
  @Index({ unique: true })
  @Column('varchar', { length: 16 })
  ticker!: string;

  @Field({ description: 'GICS sector, e.g. "Information Technology".' })
  @Index()
  @Column('varchar', { length: 64 })
  sector!: string;

  @Field(() => String, { nullable: true })
  @Column('varchar', { length: 120, nullable: true })
  industry!: string | null;

  @Field(() => String, { nullable: true, description: 'Listing exchange, e.g. "NASDAQ".' })
  @Column('varchar', { length: 32, nullable: true })
  exchange!: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-2 country code of the headquarters.' })
  @Column('varchar', { length: 2, nullable: true })
  country!: string | null;

  @Field({ description: 'ISO 4217 reporting currency.' })
  @Column('varchar', { length: 3 })
  currency!: string;

  @Field(() => Int, { description: 'Month (1–12) in which the fiscal year ends.' })
  @Column('smallint')
  fiscalYearEnd!: number;

  @Field(() => String, { nullable: true })
  @Column('text', { nullable: true })
  description!: string | null;

  @Field(() => String, { nullable: true })
  @Column('varchar', { length: 300, nullable: true })
  website!: string | null;

  @Field(() => Int, { nullable: true })
  @Column('integer', { nullable: true })
  employees!: number | null;

  @Field(() => Int, { nullable: true, description: 'SEC Central Index Key, for a company that files with the SEC.' })
  @Column('integer', { nullable: true })
  cik!: number | null;

  @Field(() => [String], {
    nullable: true,
    description: 'Names the company filed under before, newest first (from its SEC submissions); null when not known.',
  })
  @Column('jsonb', { nullable: true })
  formerNames!: string[] | null;
}
