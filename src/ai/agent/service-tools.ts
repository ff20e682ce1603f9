/**
 * The service's own operations as tools for the language-model agent: periods, statements and series, ratios,
 * comparisons and document search. They run in-process with the request's loaders and only for a caller whose role
 * allows the catalog operation each tool wraps (as the API would check it), and
 * every figure or passage they return is added to the fact sheet, which the answer is then checked against.
 */
import type { DataSource } from 'typeorm';
import type { SearchBackend } from '../../search/search-backend.types';
import type { StatementLoaders } from '../../statements/statement.loaders';
import { findCompany } from '../../companies/company.service';
import { AppError, badUserInput } from '../../shared/errors';
import { companyFacts, relevantPassages, type CompanyFacts, type FactSheet, type StatementFact } from '../facts';
import { requireRole, type AccessContext } from '../../auth/access';
import { CAPS, CATALOG, type OperationName } from '../../operations/catalog';
import { formatFact, type ToolRunner } from '../writer';
import { askedFacts, type AskedFacts } from '../question/asked-facts';
import { findMetrics, metricByKey, type Metric } from '../../understanding/metrics';
import { parsePeriods } from '../question/periods';
import type { ParsedQuestion } from '../question/question';
import type { Company } from '../../companies/company.entity';
import { findDocumentFacts } from '../../documents/document-facts.repository';
import { findFigure } from '../../documents/fact-matching';
import { strongTerms } from '../../understanding/figure-terms';
import { figureAsk } from '../question/asked-figure';
import { figureFact } from '../question/figure-answer';

const MAX_PASSAGES_PER_CALL = 4;

/** The tools as the agent sees them: a name, what it does, and its arguments as JSON Schema. */
export const TOOL_DEFINITIONS = [
  {
    name: 'list_periods',
    description: 'The fiscal periods stored for a company (FY<yyyy> years and Q<n>-<yyyy> quarters), newest first.',
    schema: { type: 'object', properties: { ticker: { type: 'string' } }, required: ['ticker'] },
  },
  {
    name: 'get_figures',
    description:
      'Stored figures of one or more companies: statement fields and ratios (e.g. "revenue", "net income", "capex", "gross margin", "EPS") ' +
      'for periods written as FY2024, Q3-2025, "fiscal 2023 to fiscal 2025", "last 4 quarters", "TTM" or "latest". Says when a period or figure is not stored.',
    schema: {
      type: 'object',
      properties: {
        tickers: { type: 'array', items: { type: 'string' }, description: '1 to 5 tickers' },
        metrics: {
          type: 'array',
          items: { type: 'string' },
          description: 'metric names, e.g. ["revenue", "net margin"]',
        },
        periods: {
          type: 'string',
          description: 'the periods, e.g. "FY2024", "FY2022 to FY2024", "last 4 quarters", "latest"',
        },
      },
      required: ['tickers', 'metrics'],
    },
  },
  {
    name: 'compare',
    description:
      'Compares 2 to 5 companies on metrics (e.g. "revenue", "net margin") for one period ("FY2024", "latest-fy"), as the compare operation does.',
    schema: {
      type: 'object',
      properties: {
        tickers: { type: 'array', items: { type: 'string' }, description: '2 to 5 tickers' },
        metrics: { type: 'array', items: { type: 'string' } },
        period: { type: 'string', description: 'optional, e.g. FY2024 or latest-fy' },
      },
      required: ['tickers', 'metrics'],
    },
  },
  {
    name: 'search_documents',
    description:
      'Passages of a company\u2019s stored filings that match a query (e.g. "revenue increase driven by", "risk factors supply"), optionally of one period.',
    schema: {
      type: 'object',
      properties: {
        ticker: { type: 'string' },
        query: { type: 'string' },
        period: { type: 'string', description: 'optional, e.g. FY2024' },
      },
      required: ['ticker', 'query'],
    },
  },
  {
    name: 'get_document_figure',
    description:
      'A figure stated in a company\u2019s stored filings that is no statement field: a product, segment, region, KPI, headcount, ' +
      'backlog or guidance figure (e.g. "Data Center revenue", "Greater China operating income", "full-time employees"), for one period ' +
      '("FY2024", "Q2-2025") or the newest given. Answers the value with the label as the filing writes it and its chunk, or says that no filing gives it.',
    schema: {
      type: 'object',
      properties: {
        ticker: { type: 'string' },
        figure: { type: 'string', description: 'what is asked, e.g. "iPhone net sales"' },
        period: { type: 'string', description: 'optional, e.g. FY2024' },
      },
      required: ['ticker', 'figure'],
    },
  },
] as const;

/** The catalog operation each tool wraps: a tool runs only for a caller whose role that operation allows. */
const TOOL_OPERATIONS: Record<ToolName, OperationName> = {
  list_periods: 'company',
  get_figures: 'company',
  compare: 'compare',
  search_documents: 'search',
  get_document_figure: 'search',
};
type ToolName = (typeof TOOL_DEFINITIONS)[number]['name'];
const isToolName = (name: string): name is ToolName => name in TOOL_OPERATIONS;

export class ServiceTools implements ToolRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly search: SearchBackend,
    private readonly loaders: StatementLoaders,
    private readonly sheet: FactSheet,
    private readonly caller: AccessContext,
  ) {}

  async run(name: string, args: Record<string, unknown>): Promise<string> {
    try {
      if (!isToolName(name)) throw badUserInput(`unknown tool ${name}`);
      requireRole(this.caller, CATALOG[TOOL_OPERATIONS[name]].role);
      if (name === 'compare') return await this.compare(args);
      if (name === 'list_periods') return await this.listPeriods(String(args.ticker ?? ''));
      if (name === 'get_figures') return await this.figures(args);
      if (name === 'get_document_figure')
        return await this.documentFigure(
          String(args.ticker ?? ''),
          String(args.figure ?? ''),
          args.period ? String(args.period) : null,
        );
      return await this.documents(
        String(args.ticker ?? ''),
        String(args.query ?? ''),
        args.period ? String(args.period) : null,
      );
    } catch (error) {
      // A tool's failure is the agent's to read (a wrong ticker, a bad period), not the request's end.
      if (error instanceof AppError) return JSON.stringify({ error: error.message });
      throw error;
    }
  }

  private async company(ticker: string): Promise<Company> {
    const company = await findCompany(this.dataSource, null, ticker.trim());
    if (!company) throw new AppError('NOT_FOUND', `No company with ticker ${ticker} in the data (an unknown company)`);
    return company;
  }

  private async listPeriods(ticker: string): Promise<string> {
    const company = await this.company(ticker);
    const periods = await this.loaders.periods.load(company.id);
    return JSON.stringify({
      ticker: company.ticker,
      fiscal_year_end_month: company.fiscalYearEnd,
      currency: company.currency,
      periods: periods.map((p) => p.period),
    });
  }

  private async figures(args: Record<string, unknown>): Promise<string> {
    const tickers = (Array.isArray(args.tickers) ? args.tickers : [args.tickers]).map(String).slice(0, 5);
    const companies: Company[] = [];
    for (const ticker of tickers) companies.push(await this.company(ticker));
    const names = (Array.isArray(args.metrics) ? args.metrics : [args.metrics]).map(String);
    const metrics = names
      .flatMap((name) => metricByKey(name) ?? findMetrics(name))
      .filter((m, i, all): m is Metric => !!m && all.findIndex((o) => o?.key === m.key) === i);
    if (metrics.length === 0) throw badUserInput(`no known metric in ${JSON.stringify(names)}`);
    const period = parsePeriods(String(args.periods ?? 'latest fiscal year'));
    const question: ParsedQuestion = {
      text: '',
      intent: period?.kind === 'range' || period?.kind === 'last' ? 'series' : 'value',
      companies: companies.map((c) => ({ id: c.id, ticker: c.ticker, name: c.name })),
      unknownCompany: null,
      ambiguousCompany: null,
      screen: null,
      period,
      metrics,
      figure: null,
      inherited: [],
      definitionGap: null,
      defined: null,
    };
    const asked = await askedFacts(this.loaders, companies, question);
    this.keep(asked);
    return JSON.stringify(
      asked.companies.map((c) => ({
        ticker: c.company.ticker,
        currency: c.company.currency,
        fiscal_year_end_month: c.company.fiscalYearEnd,
        not_stored_periods: c.missingPeriods,
        stored_range: c.storedRange,
        figures: [...c.values, ...c.ttmValues].map((v) => ({
          period: v.period,
          metric: v.metric.label,
          value: v.fact ? formatFact(v.fact, c.company.currency) : 'not stored',
        })),
      })),
    );
  }

  private async compare(args: Record<string, unknown>): Promise<string> {
    const tickers = (Array.isArray(args.tickers) ? args.tickers : [args.tickers]).map(String);
    if (tickers.length < CAPS.compare.minCompanies || tickers.length > CAPS.compare.maxCompanies) {
      throw badUserInput(`compare needs ${CAPS.compare.minCompanies} to ${CAPS.compare.maxCompanies} tickers`);
    }
    const metrics = (Array.isArray(args.metrics) ? args.metrics : [args.metrics])
      .map(String)
      .flatMap((name) => metricByKey(name) ?? findMetrics(name))
      .filter((m): m is Metric => !!m);
    if (metrics.length === 0) throw badUserInput('no known metric to compare');
    const companies: CompanyFacts[] = [];
    for (const ticker of tickers)
      companies.push(
        await companyFacts(
          this.dataSource,
          this.loaders,
          (await this.company(ticker)).id,
          args.period ? String(args.period) : null,
        ),
      );
    const facts = companies.flatMap((c) => metrics.flatMap((m) => c.current.get(m.key) ?? []));
    (this.sheet.toolFacts ??= []).push(...facts);
    return JSON.stringify(
      companies.map((c) => ({
        ticker: c.company.ticker,
        period: c.period,
        figures: metrics.map((m) => {
          const fact = c.current.get(m.key);
          return { metric: m.label, value: fact ? formatFact(fact, c.company.currency) : 'not stored' };
        }),
      })),
    );
  }

  private keep(asked: AskedFacts): void {
    const facts: StatementFact[] = asked.companies.flatMap((c) =>
      [...c.values, ...c.ttmValues].flatMap((v) => (v.fact ? [v.fact] : [])),
    );
    (this.sheet.toolFacts ??= []).push(...facts);
  }

  /** The same figures, and the same matching, as the built-in analyst answers document figures from. */
  private async documentFigure(ticker: string, wording: string, period: string | null): Promise<string> {
    const company = await this.company(ticker);
    if (!wording.trim()) throw badUserInput('figure must not be empty');
    const ref = { id: company.id, ticker: company.ticker, name: company.name };
    const ask = figureAsk(wording.slice(0, 300), [ref], findMetrics(wording), { followUp: true }) ?? {
      qualifier: [],
      measure: strongTerms(wording),
      optional: [],
      wording,
      unit: null,
    };
    const asked = period ? parsePeriods(period) : null;
    const label = asked?.kind === 'exact' && asked.periods.length === 1 ? asked.periods[0].label : null;
    if (period && !label) throw badUserInput(`period must be one period such as FY2024 or Q2-2025, got "${period}"`);
    const facts = await findDocumentFacts(this.dataSource.manager, [company.id]);
    const { figure, periods } = findFigure(ask, facts, label);
    if (!figure)
      return JSON.stringify({
        ticker: company.ticker,
        figure: wording,
        period: label ?? 'newest',
        not_found: `no stored filing of ${company.ticker} gives ${wording}${label ? ` for ${label}` : ''}`,
        periods_given: periods,
      });
    (this.sheet.toolFacts ??= []).push(figureFact(figure, company.ticker));
    return JSON.stringify({
      ticker: company.ticker,
      figure: wording,
      period: figure.period,
      value: figure.value,
      unit: figure.unit,
      scale: figure.scale,
      label_in_filing: figure.label,
      under: figure.kind === 'table' ? figure.context : null,
      document: figure.title,
      page: figure.page,
      chunk_id: figure.chunkId,
    });
  }

  private async documents(ticker: string, query: string, period: string | null): Promise<string> {
    const company = await this.company(ticker);
    if (!query.trim()) throw badUserInput('query must not be empty');
    const wanted = period ? parsePeriods(period) : null;
    const years = wanted?.kind === 'exact' ? new Set(wanted.periods.map((p) => p.fiscalYear)) : null;
    const passages = await relevantPassages(
      this.search,
      query.slice(0, 500),
      [company.id],
      MAX_PASSAGES_PER_CALL,
      (p) => {
        if (!years) return true;
        const year = /(\d{4})$/.exec(p.period ?? '')?.[1];
        return year !== undefined && years.has(Number(year));
      },
    );
    for (const passage of passages)
      if (!this.sheet.passages.some((p) => p.chunkId === passage.chunkId)) this.sheet.passages.push(passage);
    return JSON.stringify(
      passages.map((p) => ({
        chunk_id: p.chunkId,
        title: p.title,
        period: p.period,
        page: p.page,
        text: p.content.slice(0, 1500),
      })),
    );
  }
}
