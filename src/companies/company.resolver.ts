import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import { CAPS } from '../operations/catalog';
import type { RequestContext } from '../graphql/context';
import { IncomeStatement } from '../statements/income-statement.entity';
import { BalanceSheet } from '../statements/balance-sheet.entity';
import { CashFlowStatement } from '../statements/cash-flow-statement.entity';
import { FinancialPeriod, PeriodTypeEnum, Ratios } from '../statements/statement.types';
import { loadRatios, loadStatement } from '../statements/statement.service';
import { PERIOD_FORMS, type PeriodType } from '../statements/fiscal-period';
import { plannedHistories } from '../statements/history-prefetch';
import { plannedStatementReads, statementReadAhead } from '../statements/statement-read-ahead';
import { selectedFields } from '../shared/graphql-selection';
import { badUserInput } from '../shared/errors';
import { Company } from './company.entity';
import { CompanyPage, CreateCompanyInput, UpdateCompanyInput } from './company.types';
import { createCompany, updateCompany } from './company-writing.service';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, findCompany, listCompanies, listSectors } from './company.service';

const PERIOD_ARGUMENT = { nullable: true, description: `Fiscal period: ${PERIOD_FORMS}. Omitted means "latest".` };
const { maxPeriods: MAX_HISTORY } = CAPS.history;

@Resolver(() => Company)
export class CompanyResolver {
  @CatalogAuthorized()
  @Query(() => CompanyPage, {
    description:
      'Tracked companies ordered by name, optionally filtered by sector or ticker (any case); with `q`, the best matches of a name or ticker first.',
  })
  async companies(
    @Ctx() { dataSource, loaders }: RequestContext,
    @Info() info: GraphQLResolveInfo,
    @Arg('sector', () => String, { nullable: true }) sector: string | null,
    @Arg('ticker', () => String, { nullable: true, description: 'Exactly this ticker, any case.' })
    ticker: string | null,
    @Arg('q', () => String, {
      nullable: true,
      description:
        'Part of a name or the start of a ticker, any case; ranked: exact ticker, exact name, ticker prefix, name prefix, a word of the name, anywhere in the name.',
    })
    q: string | null,
    @Arg('limit', () => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` })
    limit: number,
    @Arg('offset', () => Int, { defaultValue: 0 }) offset: number,
  ): Promise<CompanyPage> {
    const selection = selectedFields(info, 'CompanyPage');
    // The total costs a count: only when asked for.
    const withTotal = selection.some((field) => field.name === 'total');
    // The statement histories the selection asks of every company on the page, read with it (see history-prefetch).
    const companyFields = selection
      .filter((field) => field.name === 'items')
      .flatMap((items) => Object.values(items.fieldsByTypeName.Company ?? {}));
    const histories = plannedHistories(companyFields, dataSource.manager);
    const readAhead = histories.length > 0 ? loaders.prefetched.readAhead(dataSource.manager, histories) : undefined;
    // Only the columns asked for (a long description is not read for a page of tickers); every other field of a
    // company is resolved from its id.
    const properties = new Set(companyFields.map((field) => field.name));
    return listCompanies(dataSource, { sector, ticker, q, limit, offset }, { withTotal, readAhead, properties });
  }

  @CatalogAuthorized()
  @Query(() => Company, { nullable: true, description: 'One company by id or by ticker (exactly one of them).' })
  company(
    @Ctx() { dataSource, loaders }: RequestContext,
    @Info() info: GraphQLResolveInfo,
    @Arg('id', () => Int, { nullable: true }) id: number | null,
    @Arg('ticker', () => String, { nullable: true }) ticker: string | null,
  ): Promise<Company | null> {
    const fields = selectedFields(info, 'Company');
    // The statements at exact periods the selection asks of the company, read with it in one statement, and only
    // the columns asked for (every other field of a company is resolved from its id).
    const statements = plannedStatementReads(fields);
    return findCompany(dataSource, id, ticker, {
      readAhead:
        statements.statements.size > 0 ? statementReadAhead(dataSource.manager, loaders, statements) : undefined,
      properties: new Set(fields.map((field) => field.name)),
    });
  }

  @CatalogAuthorized()
  @Mutation(() => Company, {
    description: 'Starts tracking a company; CONFLICT when its ticker or CIK is already another company\u2019s.',
  })
  createCompany(
    @Ctx() { dataSource }: RequestContext,
    @Arg('input', () => CreateCompanyInput) input: CreateCompanyInput,
  ): Promise<Company> {
    return createCompany(dataSource, input);
  }

  @CatalogAuthorized()
  @Mutation(() => Company, {
    description:
      'Changes the given fields of a company; NOT_FOUND for an unknown id, CONFLICT for a ticker or CIK of another company.',
  })
  updateCompany(
    @Ctx() { dataSource }: RequestContext,
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdateCompanyInput) input: UpdateCompanyInput,
  ): Promise<Company> {
    return updateCompany(dataSource, id, input);
  }

  @CatalogAuthorized()
  @Query(() => [String], { description: 'Sectors that have at least one tracked company.' })
  sectors(@Ctx() { dataSource }: RequestContext): Promise<string[]> {
    return listSectors(dataSource);
  }

  @FieldResolver(() => IncomeStatement, {
    nullable: true,
    description: 'Income statement; null when the company has none for the period.',
  })
  incomeStatement(
    @Root() company: Company,
    @Ctx() { loaders }: RequestContext,
    @Arg('period', () => String, PERIOD_ARGUMENT) period: string | null,
  ) {
    return loadStatement(loaders, 'income', company.id, period);
  }

  @FieldResolver(() => BalanceSheet, {
    nullable: true,
    description: 'Balance sheet at the end of the period; null when there is none.',
  })
  balanceSheet(
    @Root() company: Company,
    @Ctx() { loaders }: RequestContext,
    @Arg('period', () => String, PERIOD_ARGUMENT) period: string | null,
  ) {
    return loadStatement(loaders, 'balance', company.id, period);
  }

  @FieldResolver(() => CashFlowStatement, {
    nullable: true,
    description: 'Cash flow statement; null when there is none for the period.',
  })
  cashFlow(
    @Root() company: Company,
    @Ctx() { loaders }: RequestContext,
    @Arg('period', () => String, PERIOD_ARGUMENT) period: string | null,
  ) {
    return loadStatement(loaders, 'cashFlow', company.id, period);
  }

  @FieldResolver(() => Ratios, {
    nullable: true,
    description: 'Ratios computed from the statements; null when the period has no data.',
  })
  ratios(
    @Root() company: Company,
    @Ctx() { loaders }: RequestContext,
    @Arg('period', () => String, PERIOD_ARGUMENT) period: string | null,
  ) {
    return loadRatios(loaders, company.id, period);
  }

  @FieldResolver(() => [FinancialPeriod], {
    description: 'Periods with data, newest first (a fiscal year before its own Q4).',
  })
  async periods(
    @Root() company: Company,
    @Ctx() { loaders }: RequestContext,
    @Arg('type', () => PeriodTypeEnum, { nullable: true, description: 'Only quarters or only fiscal years.' })
    type: PeriodType | null,
  ): Promise<FinancialPeriod[]> {
    return type ? loaders.periodsOfType.load({ companyId: company.id, type }) : loaders.periods.load(company.id);
  }

  @FieldResolver(() => [FinancialPeriod], {
    description: 'The last `last` periods of a type, newest first, for history and charts.',
  })
  statements(
    @Root() company: Company,
    @Ctx() { loaders }: RequestContext,
    @Arg('type', () => PeriodTypeEnum, { defaultValue: 'QUARTER' }) type: PeriodType,
    @Arg('last', () => Int, {
      defaultValue: CAPS.history.defaultPeriods,
      description: `Number of periods, 1 to ${MAX_HISTORY}.`,
    })
    last: number,
  ): FinancialPeriod[] | Promise<FinancialPeriod[]> {
    if (last < 1 || last > MAX_HISTORY) throw badUserInput(`last must be from 1 to ${MAX_HISTORY}, got ${last}`);
    // Answered at once when the page read it ahead: no promise per company.
    const prefetched = loaders.prefetched.history(company, type, last);
    if (prefetched) return prefetched;
    return loaders.periodsOfType.load({ companyId: company.id, type }).then((periods) => periods.slice(0, last));
  }
}
