import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import type { RequestContext } from '../graphql/context';
import { PERIOD_FORMS } from '../statements/fiscal-period';
import { ScreenPage } from './screener.types';
import { MAX_SCREEN_PAGE_SIZE, SCREEN_PAGE_SIZE, screenCompanies } from './screener.service';
import { SIZE_BUCKETS } from './screen-query';

/** The options of an optional text argument. */
function text(description: string) {
  return { nullable: true, description };
}

@Resolver()
export class ScreenerResolver {
  @CatalogAuthorized()
  @Query(() => ScreenPage, {
    description:
      'Companies whose statement fields and ratios of a period pass a filter, sorted, one page with the total (see the screener in docs/api.md).',
  })
  screen(
    @Ctx() { dataSource, loaders }: RequestContext,
    @Arg(
      'filter',
      () => String,
      text(
        'Conditions joined by commas: name>value (>=, <, <=, =, !=) or name=low..high; a value may end in %, K, M, B or T. E.g. "grossMargin>0.5,revenueGrowth>20%".',
      ),
    )
    filter: string | null,
    @Arg('period', () => String, text(`The period screened for each company: ${PERIOD_FORMS}. Default "latest-fy".`))
    period: string | null,
    @Arg(
      'sort',
      () => String,
      text('A field, ratio, name, ticker, sector, currency or size; "-" in front for descending. Default name.'),
    )
    sort: string | null,
    @Arg(
      'fields',
      () => String,
      text('The fields and ratios each row returns, joined by commas; default the filtered and sorted ones.'),
    )
    fields: string | null,
    @Arg('sector', () => String, text('Sectors joined by commas, any case.')) sector: string | null,
    @Arg('currency', () => String, text('Reporting currencies joined by commas (ISO 4217).')) currency: string | null,
    @Arg(
      'size',
      () => String,
      text(`Sizes by annual revenue joined by commas: ${Object.keys(SIZE_BUCKETS).join(', ')}.`),
    )
    size: string | null,
    @Arg('limit', () => Int, {
      defaultValue: SCREEN_PAGE_SIZE,
      description: `Page size, 1 to ${MAX_SCREEN_PAGE_SIZE}.`,
    })
    limit: number,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
  ): Promise<ScreenPage> {
    return screenCompanies(dataSource, loaders, {
      filter,
      period,
      sort,
      fields,
      sector,
      currency,
      size,
      limit,
      offset,
    });
  }
}
