import { Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { LocalDate } from '../shared/local-date';
import type { PeriodType } from './fiscal-period';
import { RATIO_DEFINITIONS } from './ratios';

export const PeriodTypeEnum = { QUARTER: 'QUARTER', ANNUAL: 'ANNUAL' } as const satisfies Record<
  PeriodType,
  PeriodType
>;
registerEnumType(PeriodTypeEnum, {
  name: 'PeriodType',
  description: 'QUARTER for Q<n>-<yyyy> periods, ANNUAL for FY<yyyy> periods.',
});

/** What ratios are computed over: a stored period, or the trailing twelve months (computed, never stored). */
export type RatioPeriodType = PeriodType | 'TTM';
export const RatioPeriodTypeEnum = { QUARTER: 'QUARTER', ANNUAL: 'ANNUAL', TTM: 'TTM' } as const satisfies Record<
  RatioPeriodType,
  RatioPeriodType
>;
registerEnumType(RatioPeriodTypeEnum, {
  name: 'RatioPeriodType',
  description: 'QUARTER or ANNUAL for a stored period, TTM for the trailing twelve months (period "ttm").',
});

/** Fields that say which period a row describes (shared by FinancialPeriod and Ratios; not itself in the schema). */
@ObjectType({ simpleResolvers: true })
export abstract class PeriodFields {
  @Field(() => Int)
  companyId!: number;

  @Field({ description: 'Q<n>-<yyyy> or FY<yyyy>; TTM for the trailing twelve months ending at periodEnd.' })
  period!: string;

  @Field(() => Int)
  fiscalYear!: number;

  @Field(() => Int, { nullable: true })
  fiscalQuarter!: number | null;

  @Field(() => LocalDate)
  periodStart!: string;

  @Field(() => LocalDate)
  periodEnd!: string;
}

@ObjectType({
  simpleResolvers: true,
  description: 'A fiscal period for which a company has data, with its statements and ratios.',
})
export class FinancialPeriod extends PeriodFields {
  @Field(() => PeriodTypeEnum)
  type!: PeriodType;
}

/** Financial ratios of one period; one nullable Float per definition in ratios.ts, described by its formula. */
@ObjectType({
  simpleResolvers: true,
  description:
    'Financial ratios computed from the stored statements. Fractions, not percentages; null when an input is missing or a denominator is zero.',
})
export class Ratios extends PeriodFields {
  [ratio: string]: unknown;

  @Field(() => RatioPeriodTypeEnum)
  type!: RatioPeriodType;
}
for (const definition of RATIO_DEFINITIONS) {
  Field(() => Float, { nullable: true, description: `${definition.label}: ${definition.formula}.` })(
    Ratios.prototype,
    definition.key,
  );
}

@ObjectType('RatioDefinition', { description: 'How a ratio is computed.' })
export class RatioDefinitionType {
  @Field({ description: 'Field name in GraphQL (camelCase); REST uses the snake_case form.' })
  key!: string;

  @Field()
  category!: string;

  @Field()
  label!: string;

  @Field()
  formula!: string;
}
