import { Field, Float, Int, ObjectType } from 'type-graphql';
import { Column, Index, PrimaryGeneratedColumn, ValueTransformer } from 'typeorm';
import { LocalDate } from '../shared/local-date';

/** PostgreSQL returns `numeric` as a string to keep precision; statement figures fit a double exactly. */
export const numericToNumber: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * One statement line item: a nullable `numeric` column and a nullable GraphQL Float with its description.
 * Null means "not reported", never zero. The entity doubles as the GraphQL type so the ~50 line items are
 * declared once.
 */
export function LineItem(description: string): PropertyDecorator {
  return (target, key) => {
    Field(() => Float, { nullable: true, description })(target, key);
    Column('numeric', { nullable: true, transformer: numericToNumber })(target, key as string);
  };
}

/** The columns of a statement row that say which company and period it is, as opposed to the figures it reports. */
export const STATEMENT_KEY_COLUMNS: ReadonlySet<string> = new Set([
  'id',
  'companyId',
  'period',
  'fiscalYear',
  'fiscalQuarter',
  'periodStart',
  'periodEnd',
  'currency',
]);

/**
 * Columns every statement row carries: which company and which fiscal period it describes.
 * `simpleResolvers` (here and on the other types of a nested page): their plain fields need no middleware, and
 * graphql-js's own property read skips the wrapper type-graphql would otherwise run for each of them.
 */
@ObjectType({
  simpleResolvers: true,
  description: 'Columns shared by every statement (not itself part of the schema).',
})
@Index(['companyId', 'period'], { unique: true })
export abstract class StatementPeriodColumns {
  @PrimaryGeneratedColumn()
  id!: number;

  @Field(() => Int)
  @Column('integer')
  companyId!: number;

  @Field({
    description:
      "Fiscal period label: Q<n>-<yyyy> or FY<yyyy>; TTM for the trailing twelve months (the four quarters ending at periodEnd; balance sheets are the newest quarter's).",
  })
  @Column('varchar', { length: 10 })
  period!: string;

  @Field(() => Int, { description: 'Fiscal year, named by the calendar year in which it ends.' })
  @Column('integer')
  fiscalYear!: number;

  @Field(() => Int, { nullable: true, description: 'Quarter of the fiscal year (1–4); null for a full fiscal year.' })
  @Column('integer', { nullable: true })
  fiscalQuarter!: number | null;

  @Field(() => LocalDate, { description: 'First day of the period.' })
  @Column('date')
  periodStart!: string;

  @Field(() => LocalDate, {
    description: 'Last day of the period (the balance sheet date for balance sheets).',
  })
  @Column('date')
  periodEnd!: string;

  @Field({ description: 'ISO 4217 code of the reporting currency; amounts are in its units, not thousands.' })
  @Column('varchar', { length: 3 })
  currency!: string;
}
