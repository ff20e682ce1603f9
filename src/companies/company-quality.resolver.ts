import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { LocalDate } from '../shared/local-date';
import type { RequestContext } from '../graphql/context';
import { summarizeChecks } from '../statements/data-quality';
import { DataQualitySummaryType } from '../statements/data-quality.resolver';
import { Company } from './company.entity';

type Values = Record<string, unknown>;
type Keyed = { companyId: number; period: string };

/** A company whose newest statement ends longer ago than this is stale (a quarter is filed within ~45 days). */
export const STALE_AFTER_DAYS = 183;

@Resolver(() => Company)
export class CompanyQualityResolver {
  @FieldResolver(() => [DataQualitySummaryType], {
    description:
      'Every data-quality check over all of the company\u2019s statements, with pass rates and the failing statements.',
  })
  async dataQuality(@Root() company: Company, @Ctx() { loaders }: RequestContext) {
    const periods = await loaders.periods.load(company.id);
    const wanted = periods.flatMap((period) =>
      [...period.statements].map((kind) => ({ kind, period: period.period, periodEnd: period.periodEnd })),
    );
    const [rows, filed] = await Promise.all([
      Promise.all(
        wanted.map(({ kind, period }) =>
          (loaders[kind] as unknown as { load(key: Keyed): Promise<Values | null> }).load({
            companyId: company.id,
            period,
          }),
        ),
      ),
      Promise.all(wanted.map(({ kind, period }) => loaders.filed[kind].load({ companyId: company.id, period }))),
    ]);
    return summarizeChecks(
      wanted.flatMap((w, i) => (rows[i] ? [{ ...w, values: rows[i] as Values, filed: filed[i] }] : [])),
    );
  }

  @FieldResolver(() => LocalDate, {
    nullable: true,
    description: 'End of the newest period with a statement; null when there is none.',
  })
  async latestPeriodEnd(@Root() company: Company, @Ctx() { loaders }: RequestContext): Promise<string | null> {
    const periods = await loaders.periods.load(company.id);
    return periods.reduce<string | null>(
      (latest, period) => (latest === null || period.periodEnd > latest ? period.periodEnd : latest),
      null,
    );
  }

  @FieldResolver(() => Boolean, {
    description: `True when the newest statement ends more than ${STALE_AFTER_DAYS} days ago: its figures are not current (false when it has no statements).`,
  })
  async stale(@Root() company: Company, @Ctx() context: RequestContext): Promise<boolean> {
    const latest = await this.latestPeriodEnd(company, context);
    return latest !== null && Date.now() - Date.parse(latest) > STALE_AFTER_DAYS * 86_400_000;
  }
}
