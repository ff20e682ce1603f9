import { expect } from 'chai';
import { get, graphql, post, request } from './helpers/http';
import type { Data, GraphQLAnswer, GraphQLFailure, Page, Refusal } from './helpers/http';
import type { ChatDoneEvent, Company, Period, Schema, ScreenRow as Row } from '../sdk/typescript/src';
import type { App } from '../src/app';
import { createTestKeys } from './helpers/keys';
import { freshDataDir, startTestApp, TARGET } from './helpers/test-app';

/** A statement's or ratios' data as a route answers it: figures by snake_case name (and the period's label). */
type Figures = Record<string, number | null>;

const screen = <T = Page<Row>>(query: string) => get<T>(`/v1/screener?${query}`);
const valueOf = (row: Row, field: string) => row.values.find((value) => value.field === field)?.value ?? null;

/** Every company of the demo data, read through the companies route. */
async function allCompanies(): Promise<Company[]> {
  const { body } = await get<Page<Company>>('/v1/companies?limit=100');
  expect(body.meta.total).to.be.at.most(100);
  return body.data;
}

/** A route's data for every company, in one map by id (null where the company has none for the period). */
async function perCompany(route: string, period: string): Promise<Map<number, Figures | null>> {
  const companies = await allCompanies();
  const answers = await Promise.all(
    companies.map((company) => get<Data<Figures>>(`/v1/companies/${company.id}/${route}?period=${period}`)),
  );
  return new Map(companies.map((company, i) => [company.id, answers[i].status === 200 ? answers[i].body.data : null]));
}

describe('REST /v1/screener and GraphQL screen', () => {
  it('filters on a ratio of the latest fiscal year and sorts by another, as the ratios route computes them', async () => {
    const ratios = await perCompany('ratios', 'latest-fy');
    const expected = [...ratios.entries()]
      .filter(([, r]) => r !== null && (r.gross_margin ?? 0) > 0.5)
      .sort(([, a], [, b]) => (b?.net_margin ?? -Infinity) - (a?.net_margin ?? -Infinity));
    expect(expected.length, 'demo companies with a gross margin above 50%').to.be.at.least(3);
    const { status, body } = await screen(
      'filter=gross_margin%3E0.5&sort=-net_margin&fields=gross_margin,net_margin&period=latest-fy&limit=100',
    );
    expect(status).to.equal(200);
    expect(body.meta).to.deep.equal({ total: expected.length, limit: 100, offset: 0 });
    const rows = body.data;
    expect(rows.map((row) => row.id)).to.deep.equal(expected.map(([id]) => id));
    for (const row of rows) {
      const own = ratios.get(row.id) as Figures;
      expect(row.period).to.equal(own.period);
      expect(row.values).to.deep.equal([
        { field: 'gross_margin', value: own.gross_margin },
        { field: 'net_margin', value: own.net_margin },
      ]);
    }
  });

  it('filters on statement fields with a range and scale suffixes, and on several conditions at once', async () => {
    const incomes = await perCompany('income-statement', 'latest-fy');
    const ratios = await perCompany('ratios', 'latest-fy');
    const expected = [...incomes.entries()]
      .filter(
        ([id, i]) =>
          (i?.revenue ?? 0) >= 1e9 && (i?.revenue ?? 0) <= 50e9 && (ratios.get(id)?.operating_margin ?? -1) >= 0.1,
      )
      .map(([id]) => id);
    expect(expected.length, 'demo companies in the range').to.be.at.least(2);
    const { status, body } = await screen(
      'filter=revenue%3D1B..50B,operating_margin%3E%3D10%25&fields=revenue,operating_margin&limit=100',
    );
    expect(status).to.equal(200);
    expect(body.data.map((row) => row.id).sort((a, b) => a - b)).to.deep.equal(expected.sort((a, b) => a - b));
    expect(body.meta.total).to.equal(expected.length);
    for (const row of body.data) {
      expect(valueOf(row, 'revenue')).to.equal(incomes.get(row.id)?.revenue);
      expect(valueOf(row, 'operating_margin')).to.be.at.least(0.1);
    }
    // Sorted by name by default.
    const names = body.data.map((row) => row.name);
    expect(names).to.deep.equal([...names].sort((a, b) => a.localeCompare(b)));
  });

  it('screens a named fiscal year, a named quarter, each newest quarter and the trailing twelve months', async () => {
    const periods = (await get<Data<Period[]>>(`/v1/companies/${(await allCompanies())[0].id}/periods`)).body.data;
    const quarter = periods.find((p) => p.period.startsWith('Q'))!.period;
    const year = periods.find((p) => p.period.startsWith('FY'))!.period;
    for (const period of [year, quarter, 'latest']) {
      const incomes = await perCompany('income-statement', period);
      const { body } = await screen(`period=${period}&fields=revenue,net_income&limit=100`);
      expect(body.meta.total, period).to.equal([...incomes.values()].filter((i) => i !== null).length);
      for (const row of body.data) {
        expect(row.period).to.equal(incomes.get(row.id)?.period);
        if (period !== 'latest') expect(row.period).to.equal(period);
        expect(valueOf(row, 'net_income')).to.equal(incomes.get(row.id)?.net_income);
      }
    }
    const ttm = await perCompany('income-statement', 'ttm');
    const { body } = await screen('period=ttm&filter=revenue%3E0&fields=revenue&sort=-revenue&limit=5');
    expect(body.data.length).to.be.greaterThan(0);
    for (const row of body.data) {
      expect(row.period).to.equal('TTM');
      expect(valueOf(row, 'revenue')).to.equal(ttm.get(row.id)?.revenue);
    }
    const revenues = body.data.map((row) => valueOf(row, 'revenue') as number);
    expect(revenues).to.deep.equal([...revenues].sort((a, b) => b - a));
  });

  it('filters on sector (any case), currency and size, and sorts by them', async () => {
    const companies = await allCompanies();
    const sector = companies[0].sector;
    const inSector = companies.filter((c) => c.sector === sector).map((c) => c.id);
    const { body } = await screen(`sector=${encodeURIComponent(sector.toUpperCase())}&currency=usd&limit=100`);
    expect(body.data.every((row) => row.sector === sector && row.currency === 'USD')).to.equal(true);
    expect(body.data.every((row) => inSector.includes(row.id))).to.equal(true);
    const none = await screen('currency=XYZ');
    expect(none.body).to.deep.equal({ success: true, data: [], meta: { total: 0, limit: 20, offset: 0 } });

    const incomes = await perCompany('income-statement', 'latest-fy');
    const large = [...incomes.entries()]
      .filter(([, i]) => (i?.revenue ?? 0) >= 10e9 && (i?.revenue ?? 0) < 200e9)
      .map(([id]) => id);
    expect(large.length, 'large demo companies').to.be.at.least(2);
    const sized = await screen('size=large&sort=-size&fields=revenue&limit=100');
    expect(sized.body.data.map((row) => row.id).sort()).to.deep.equal(large.sort());
    const revenues = sized.body.data.map((row) => valueOf(row, 'revenue') as number);
    expect(revenues).to.deep.equal([...revenues].sort((a, b) => b - a));
    const bySector = await screen('sort=-sector&limit=100');
    const sectors = bySector.body.data.map((row) => row.sector);
    expect(sectors).to.deep.equal([...sectors].sort((a, b) => b.localeCompare(a)));
  });

  it('pages without gaps or overlaps, with the same total on every page, also through ties', async () => {
    // Many companies have no inventory: a tie of missing values, last either way and ordered by name, spans pages.
    for (const sort of ['-net_margin', 'inventory_turnover', '-inventory_turnover']) {
      const all = await screen(`sort=${sort}&fields=inventory_turnover&limit=100`);
      const total = all.body.meta.total;
      expect(total).to.be.at.least(10);
      const rows = all.body.data;
      if (sort.endsWith('inventory_turnover')) {
        const missing = rows.filter((row) => valueOf(row, 'inventory_turnover') === null).map((row) => row.name);
        expect(missing.length, 'companies without inventory').to.be.at.least(8);
        expect(rows.slice(-missing.length).map((row) => row.name)).to.deep.equal(missing);
        expect(missing).to.deep.equal([...missing].sort((a, b) => a.localeCompare(b)));
      }
      const seen: number[] = [];
      for (let offset = 0; offset < total; offset += 7) {
        const page = await screen(`sort=${sort}&fields=inventory_turnover&limit=7&offset=${offset}`);
        expect(page.body.meta).to.deep.equal({ total, limit: 7, offset });
        seen.push(...page.body.data.map((row) => row.id));
      }
      expect(seen, sort).to.deep.equal(rows.map((row) => row.id));
    }
  });

  it('answers the same through GraphQL, with camelCase names', async () => {
    const rest = await screen(
      'filter=gross_margin%3E0.4&sort=-net_margin&fields=gross_margin,net_margin,revenue&limit=5',
    );
    const { status, body } = await graphql<GraphQLAnswer<{ screen: Schema.ScreenPage }>>(`
      {
        screen(filter: "grossMargin>0.4", sort: "-netMargin", fields: "grossMargin,netMargin,revenue", limit: 5) {
          total
          limit
          offset
          items {
            id
            ticker
            period
            values {
              field
              value
            }
          }
        }
      }
    `);
    expect(status).to.equal(200);
    expect(body.data.screen.total).to.equal(rest.body.meta.total);
    expect(body.data.screen.items.map((row) => row.id)).to.deep.equal(rest.body.data.map((row) => row.id));
    expect(body.data.screen.items[0].values.map((v) => v.field)).to.deep.equal(['grossMargin', 'netMargin', 'revenue']);
    expect(body.data.screen.items[0].values.map((v) => v.value)).to.deep.equal(
      rest.body.data[0].values.map((v) => v.value),
    );
  });

  it('refuses a bad filter with a 400 that names the field and lists the accepted names', async () => {
    const unknown = await screen<Refusal>('filter=gross_margn%3E0.5');
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.code).to.equal('BAD_USER_INPUT');
    expect(unknown.body.error.message).to.include('"gross_margn"');
    expect(unknown.body.error.details?.accepted).to.include.members([
      'gross_margin',
      'revenue',
      'total_assets',
      'free_cash_flow',
      'revenue_growth',
    ]);
    const graph = await graphql<GraphQLFailure>('{ screen(filter: "gross_margn>0.5") { total } }');
    expect(graph.body.errors[0].extensions.code).to.equal('BAD_USER_INPUT');
    expect(graph.body.errors[0].message).to.include('"gross_margn"');

    const cases: Array<[string, string, RegExp]> = [
      ['filter=revenue%3Eabc', 'filter', /Invalid value "abc" for "revenue"/],
      ['filter=revenue%3E0%3Bdrop%20table%20companies', 'filter', /Invalid value/],
      ['filter=revenue', 'filter', /Invalid filter term "revenue"/],
      ['filter=revenue%3D5..1', 'filter', /low end comes first/],
      ['sort=-popularity', 'sort', /Unknown field "popularity" in sort/],
      ['fields=revenue,ebit', 'fields', /Unknown field "ebit" in fields/],
      ['size=huge', 'size', /Unknown size "huge"/],
    ];
    for (const [query, field, message] of cases) {
      const { status, body } = await screen<Refusal>(query);
      expect(status, query).to.equal(400);
      expect(body.error.code, query).to.equal('BAD_USER_INPUT');
      expect(body.error.message, query).to.match(message);
      expect(body.error.details?.field, query).to.equal(field);
    }
    const period = await screen<Refusal>('period=2024');
    expect(period.status).to.equal(400);
    expect(period.body.error.details?.accepted).to.include('latest-fy');
    const unknownParameter = await screen('order=name');
    expect(unknownParameter.status).to.equal(400);
  });
});

describe('the analyst answers questions about the whole market with the screener', function () {
  this.timeout(60_000);
  const ask = async (content: string) => {
    const response = await post<Data<ChatDoneEvent>>(
      '/v1/ai/chat',
      { stream: false, messages: [{ role: 'user', content }] },
      'analyst',
    );
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const data = response.body.data;
    // Every listed value is a stored one; the thresholds restate the question.
    expect(data.grounding.numbers_unsupported, data.answer).to.equal(0);
    expect(data.grounding.claims_flagged, data.answer).to.equal(0);
    return data;
  };
  const companies = async () => new Map((await allCompanies()).map((c) => [c.id, c]));

  it('names the company with the highest value of a period, then the next ones, each with its value', async () => {
    const ratios = await perCompany('ratios', 'FY2024');
    const byName = await companies();
    const ranked = [...ratios.entries()]
      .filter(([, r]) => typeof r?.net_margin === 'number')
      .sort(([, a], [, b]) => (b?.net_margin as number) - (a?.net_margin as number));
    const { body } = await get<Data<Company>>(`/v1/companies/${ranked[0][0]}`);
    const { answer, citations } = await ask('Which company has the highest net margin in fiscal 2024?');
    expect(answer).to.match(
      new RegExp(
        `^${body.data.ticker} \\(${byName.get(ranked[0][0])?.name}\\) has the highest net margin of the stored companies for FY2024: `,
      ),
    );
    // The next four follow in rank order.
    const order = ranked.slice(0, 5).map(([id]) => answer.indexOf(`(${byName.get(id)?.name})`, answer.indexOf('1. ')));
    expect(order.every((at) => at > 0)).to.equal(true);
    expect([...order].sort((a, b) => a - b)).to.deep.equal(order);
    expect(citations.filter((c) => c.field === 'net_margin' && c.period === 'FY2024').length).to.be.at.least(4);
  });

  it('lists the companies that meet conditions, with how many do, as the screener finds them', async () => {
    const { body } = await screen('filter=gross_margin%3E0.6&sort=-gross_margin&period=latest-fy&limit=100');
    const { answer } = await ask('Show me companies with gross margin above 60%');
    expect(answer).to.match(
      new RegExp(`^${body.meta.total} stored companies have gross margin above 60% in their newest fiscal year\\.`),
    );
    for (const row of body.data.slice(0, 10)) expect(answer).to.include(`${row.ticker} (${row.name}) `);
    // Amounts rank among one currency only, and a question with no company it fits says so.
    expect((await ask('Top 3 companies by revenue')).answer).to.include('among the companies reporting in US dollars');
    expect((await ask('Which companies have gross margin above 99%?')).answer).to.equal(
      'No stored company has gross margin above 99% in their newest fiscal year.',
    );
  });
});

describe('stored ratios across versions', function () {
  this.timeout(120_000);
  let app: App | null = null;
  afterEach(async () => {
    await app?.close();
    app = null;
  });

  const screenOf = async (running: App) => {
    await createTestKeys(running);
    const query =
      'filter=gross_margin%3E0.3&sort=-net_margin&fields=gross_margin,net_margin,return_on_equity&limit=100';
    const { status, body } = await request<Page<Row>>(`/v1/screener?${query}`, {}, running.url);
    expect(status).to.equal(200);
    return body;
  };

  it('are computed again when the ratio definitions a version stored them by differ from the running ones', async function () {
    // Restarts on one embedded data folder; on a server the suite's database is shared with the other tests.
    if (TARGET !== 'embedded') this.skip();
    const dataDir = freshDataDir();
    app = await startTestApp({ dataDir });
    const before = await screenOf(app);
    expect(before.data.length).to.be.at.least(3);
    // As an older version would have left them: every array, and the layout they follow, in another order.
    const sql = app.database.dataSource;
    await sql.query(`UPDATE statement_ratios
      SET ratios = ARRAY(SELECT value FROM unnest(ratios) WITH ORDINALITY AS u(value, n) ORDER BY n DESC)`);
    await sql.query(`UPDATE stored_ratio_layout
      SET keys = ARRAY(SELECT key FROM unnest(keys) WITH ORDINALITY AS u(key, n) ORDER BY n DESC)`);
    await app.close();
    app = await startTestApp({ dataDir });
    expect(await screenOf(app)).to.deep.equal(before);
  });
});
