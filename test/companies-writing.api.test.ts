import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { get, graphql, requestAs } from './helpers/http';
import type { Data, GraphQLAnswer, GraphQLFailure, Page, Refusal } from './helpers/http';
import type { Company, CompanyProfile, IncomeStatement, Schema } from '../sdk/typescript/src';
import { importCompanyFacts, type CompanyFactsFile } from '../src/sec/companyfacts';
import { storeImport } from '../src/sec/sec-store';
import type { Role } from '../src/auth/roles';

/** Sends a JSON body; the answer is read as a company's profile unless the caller names another shape. */
const send = <T = Data<CompanyProfile>>(
  method: 'POST' | 'PATCH',
  path: string,
  body: unknown,
  as: Role | null = 'admin',
) => requestAs<T>(as, path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A minimal SEC companyfacts file: one fiscal year of revenue. */
function companyFacts(cik: number, entityName: string): CompanyFactsFile {
  const revenue = {
    start: '2024-01-01',
    end: '2024-12-31',
    val: 5_000_000,
    accn: `a-${cik}`,
    fy: 2024,
    fp: 'FY',
    form: '10-K',
    filed: '2025-02-10',
  };
  return { cik, entityName, facts: { 'us-gaap': { Revenues: { units: { USD: [revenue] } } } } };
}

const countCompanies = async (): Promise<number> => (await get<Page<Company>>('/v1/companies?limit=1')).body.meta.total;

describe('companies by API (POST /v1/companies, PATCH /v1/companies/:id, createCompany, updateCompany)', function () {
  this.timeout(60_000);
  const stamp = String(Date.now()).slice(-6);
  // Each test's companies are removed afterwards: other tests read the demo companies as they were seeded.
  const created: number[] = [];
  const create = async <T = Data<CompanyProfile>>(body: Record<string, unknown>) => {
    const response = await send<T>('POST', '/v1/companies', body);
    if (response.status === 201) created.push((response.body as Data<CompanyProfile>).data.id);
    return response;
  };

  after(async () => {
    if (created.length > 0)
      await app().database.dataSource.query('DELETE FROM companies WHERE id = ANY($1::int[])', [created]);
  });

  it('creates a company with 201 and its profile, readable like any other', async () => {
    const response = await create({
      name: ` Ashgrove Kilns ${stamp} `,
      ticker: `ak${stamp}`,
      sector: 'industrials',
      fiscal_year_end_month: 6,
      currency: 'eur',
      description: 'Kilns.',
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(201);
    const company = response.body.data;
    expect(company).to.include({
      name: `Ashgrove Kilns ${stamp}`,
      ticker: `AK${stamp}`,
      sector: 'Industrials',
      currency: 'EUR',
      fiscal_year_end: 6,
      cik: null,
      description: 'Kilns.',
      latest_period_end: null,
    });
    const read = await get<Data<CompanyProfile>>(`/v1/companies/${company.id}`);
    expect(read.body.data).to.deep.equal(company);
    const listed = await get<Page<Company>>(`/v1/companies?ticker=ak${stamp}`);
    expect(listed.body.data).to.deep.equal([
      { id: company.id, name: company.name, ticker: company.ticker, sector: 'Industrials' },
    ]);

    const defaults = await create({
      name: `Birchfold ${stamp}`,
      ticker: `BF${stamp}`,
      sector: 'Space Mining',
      cik: 880_000 + Number(stamp.slice(-4)),
    });
    expect(defaults.status).to.equal(201);
    expect(defaults.body.data).to.include({
      currency: 'USD',
      fiscal_year_end: 12,
      sector: 'Space Mining',
      description: null,
    });
  });

  it('lets only an admin create or change a company', async () => {
    const body = { name: `Nobody ${stamp}`, ticker: `NB${stamp}`, sector: 'Energy' };
    expect((await send('POST', '/v1/companies', body, 'analyst')).status).to.equal(403);
    expect((await send('POST', '/v1/companies', body, null)).status).to.equal(401);
    expect((await send('PATCH', '/v1/companies/1', { sector: 'Energy' }, 'analyst')).status).to.equal(403);
    const viaGraphql = await requestAs<GraphQLFailure>('viewer', '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation { createCompany(input: { name: "x", ticker: "XNOPE", sector: "Energy" }) { id } }',
      }),
    });
    expect(viaGraphql.body.errors[0].extensions.code).to.equal('FORBIDDEN');
    expect((await get<Page<Company>>(`/v1/companies?ticker=NB${stamp}`)).body.data).to.deep.equal([]);
  });

  it('answers a ticker (any case) or CIK of another company with 409 naming the field and that company', async () => {
    const first = await create({
      name: `Cobalt Reach ${stamp}`,
      ticker: `CR${stamp}`,
      sector: 'Materials',
      cik: 770_000 + Number(stamp.slice(-4)),
    });
    expect(first.status).to.equal(201);
    const before = await countCompanies();
    const sameTicker = await create<Refusal>({ name: 'Another', ticker: `cr${stamp}`, sector: 'Materials' });
    expect(sameTicker.status).to.equal(409);
    expect(sameTicker.body.error).to.deep.equal({
      code: 'CONFLICT',
      message: `ticker CR${stamp} is already company ${first.body.data.id} (Cobalt Reach ${stamp})`,
      details: { field: 'ticker', company_id: first.body.data.id },
    });
    const sameCik = await create<Refusal>({
      name: 'Another',
      ticker: `CX${stamp}`,
      sector: 'Materials',
      cik: first.body.data.cik,
    });
    expect(sameCik.status).to.equal(409);
    expect(sameCik.body.error.details).to.deep.equal({ field: 'cik', company_id: first.body.data.id });
    const demoTicker = await create({ name: 'Copycat', ticker: 'nwsc', sector: 'Energy' });
    expect(demoTicker.status).to.equal(409);
    expect(await countCompanies()).to.equal(before);
  });

  it('answers a bad field with 400 naming it, over REST and GraphQL', async () => {
    const good = { name: `Delta ${stamp}`, ticker: `DL${stamp}`, sector: 'Energy' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...good, ticker: 'AB CD' }, 'ticker'],
      [{ ...good, ticker: 'X'.repeat(17) }, 'ticker'],
      [{ ...good, name: '' }, 'name'],
      [{ ...good, currency: 'dollars' }, 'currency'],
      [{ ...good, fiscal_year_end_month: 13 }, 'fiscal_year_end_month'],
      [{ ...good, cik: 0 }, 'cik'],
      [{ ...good, cik: 'ten' }, 'cik'],
      [{ name: good.name, ticker: good.ticker }, 'sector'],
    ];
    for (const [body, field] of cases) {
      const response = await create<Refusal>(body);
      expect(response.status, JSON.stringify(body)).to.equal(400);
      expect(response.body.error.code).to.equal('BAD_USER_INPUT');
      expect(response.body.error.details?.field, JSON.stringify(response.body)).to.equal(field);
    }
    const unknown = await create<Refusal>({ ...good, sectorr: 'Energy' });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.error.message).to.match(/^Unknown field "sectorr": accepted are name, ticker, sector/);
    const graphqlCases: Array<[string, string]> = [
      [`{ name: "x", ticker: "T${stamp}", sector: "Energy", fiscalYearEndMonth: 0 }`, 'fiscal_year_end_month'],
      [`{ name: "x", ticker: "T ${stamp}", sector: "Energy" }`, 'ticker'],
      [`{ name: "  ", ticker: "T${stamp}", sector: "Energy" }`, 'name'],
      [`{ name: "x", ticker: "T${stamp}", sector: "Energy", currency: "EURO" }`, 'currency'],
    ];
    for (const [input, field] of graphqlCases) {
      const response = await graphql<GraphQLFailure>(`mutation { createCompany(input: ${input}) { id } }`);
      expect(response.body.errors?.[0].extensions, input).to.deep.include({
        code: 'BAD_USER_INPUT',
        details: { field },
      });
    }
    expect((await get<Page<Company>>(`/v1/companies?ticker=DL${stamp}`)).body.data).to.deep.equal([]);
  });

  it('changes the given fields with PATCH, keeping the others', async () => {
    const { body } = await create({
      name: `Elmstead ${stamp}`,
      ticker: `EL${stamp}`,
      sector: 'Utilities',
      description: 'Water.',
    });
    const id = body.data.id;
    const patched = await send('PATCH', `/v1/companies/${id}`, { sector: 'real estate', fiscal_year_end_month: 3 });
    expect(patched.status, JSON.stringify(patched.body)).to.equal(200);
    expect(patched.body.data).to.deep.equal({ ...body.data, sector: 'Real Estate', fiscal_year_end: 3 });
    const cleared = await send('PATCH', `/v1/companies/${id}`, { description: '', ticker: `el${stamp}x` });
    expect(cleared.body.data).to.include({ description: null, ticker: `EL${stamp}X`, name: `Elmstead ${stamp}` });

    expect((await send<Refusal>('PATCH', `/v1/companies/${id}`, { ticker: 'NWSC' })).body.error).to.deep.include({
      code: 'CONFLICT',
      details: { field: 'ticker', company_id: 1 },
    });
    // Its own ticker again is no conflict.
    expect((await send('PATCH', `/v1/companies/${id}`, { ticker: `EL${stamp}X` })).status).to.equal(200);
    const empty = await send<Refusal>('PATCH', `/v1/companies/${id}`, {});
    expect(empty.status).to.equal(400);
    expect(empty.body.error.message).to.match(/^give at least one field to change/);
    const badCurrency = await send<Refusal>('PATCH', `/v1/companies/${id}`, { currency: 'x' });
    expect(badCurrency.body.error.details?.field).to.equal('currency');
    const missing = await send<Refusal>('PATCH', '/v1/companies/987654', { name: 'Nobody' });
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.deep.equal({ code: 'NOT_FOUND', message: 'No company with id 987654' });
    const wrongMethod = await send('POST', `/v1/companies/${id}`, { name: 'x' });
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get('allow')).to.equal('GET, HEAD, PATCH');
  });

  it('keeps the list totals, all and by sector, equal to a count as companies come, change sector and go', async () => {
    const total = async (path: string) => (await get<Page<Company>>(path)).body.meta.total;
    const totals = async () => ({
      all: await total('/v1/companies?limit=1'),
      utilities: await total('/v1/companies?limit=1&sector=utilities'),
      materials: await total('/v1/companies?limit=1&sector=Materials'),
    });
    const counted = async () => {
      const [row] = await app().database.dataSource.query(
        `SELECT count(*)::int AS "all", count(*) FILTER (WHERE lower(sector) = 'utilities')::int AS utilities,
                count(*) FILTER (WHERE lower(sector) = 'materials')::int AS materials FROM companies`,
      );
      return row;
    };
    const before = await totals();
    expect(before).to.deep.equal(await counted());
    const { body } = await create({ name: `Fenwick ${stamp}`, ticker: `FW${stamp}`, sector: 'Utilities' });
    expect(await totals()).to.deep.equal({ ...before, all: before.all + 1, utilities: before.utilities + 1 });
    await send('PATCH', `/v1/companies/${body.data.id}`, { sector: 'materials' });
    expect(await totals()).to.deep.equal({ ...before, all: before.all + 1, materials: before.materials + 1 });
    await app().database.dataSource.query('DELETE FROM companies WHERE id = $1', [body.data.id]);
    expect(await totals()).to.deep.equal(before);
    expect(await totals()).to.deep.equal(await counted());
  });

  it('creates and changes a company through the GraphQL mutations', async () => {
    const made = await graphql<GraphQLAnswer<{ createCompany: Schema.Company }>>(
      'mutation($input: CreateCompanyInput!) { createCompany(input: $input) { id ticker sector cik fiscalYearEnd } }',
      {
        input: {
          name: `Fennick ${stamp}`,
          ticker: `FN${stamp}`,
          sector: 'Health Care',
          cik: 660_000 + Number(stamp.slice(-4)),
          fiscalYearEndMonth: 9,
        },
      },
    );
    expect(made.body.errors).to.equal(undefined);
    const company = made.body.data.createCompany;
    created.push(company.id);
    expect(company).to.include({ ticker: `FN${stamp}`, sector: 'Health Care', fiscalYearEnd: 9 });
    const changed = await graphql<GraphQLAnswer<{ updateCompany: Schema.Company }>>(
      'mutation($id: Int!) { updateCompany(id: $id, input: { name: "Fennick Labs" }) { id name ticker cik } }',
      { id: company.id },
    );
    expect(changed.body.data.updateCompany).to.deep.equal({
      id: company.id,
      name: 'Fennick Labs',
      ticker: company.ticker,
      cik: company.cik,
    });
    const duplicate = await graphql<GraphQLFailure>(
      `mutation { createCompany(input: { name: "x", ticker: "fn${stamp}", sector: "Energy" }) { id } }`,
    );
    expect(duplicate.body.errors[0].extensions).to.deep.include({
      code: 'CONFLICT',
      details: { field: 'ticker', company_id: company.id },
    });
  });

  describe('a later SEC import', () => {
    const cik = 990_000 + Number(stamp.slice(-4));

    it('fills the company made by API with the same ticker, never a second one', async () => {
      const { body } = await create({
        name: `Gantry ${stamp}`,
        ticker: `GT${stamp}`,
        sector: 'Industrials',
        description: 'Cranes.',
      });
      const before = await countCompanies();
      const imported = await storeImport(
        app().database.dataSource,
        importCompanyFacts(companyFacts(cik, `GANTRY ${stamp} CORP`)),
        `GT${stamp}`,
      );
      expect(imported.companyId).to.equal(body.data.id);
      expect(await countCompanies()).to.equal(before);
      const profile = (await get<Data<CompanyProfile>>(`/v1/companies/${body.data.id}`)).body.data;
      // The import fills what the SEC says; what only the user said (sector, description) stays.
      expect(profile).to.include({ cik, name: `GANTRY ${stamp} CORP`, sector: 'Industrials', description: 'Cranes.' });
      const income = await get<Data<IncomeStatement>>(`/v1/companies/${body.data.id}/income-statement?period=FY2024`);
      expect(income.body.data.revenue).to.equal(5_000_000);
      // Again, by its CIK: the same company.
      expect(
        (
          await storeImport(
            app().database.dataSource,
            importCompanyFacts(companyFacts(cik, `GANTRY ${stamp} CORP`)),
            `GT${stamp}`,
          )
        ).companyId,
      ).to.equal(body.data.id);
    });

    it('fills the company made by API with the same CIK under its SEC ticker', async () => {
      const otherCik = cik + 1;
      const { body } = await create({ name: `Harrow ${stamp}`, ticker: `HW${stamp}`, sector: 'Energy', cik: otherCik });
      const imported = await storeImport(
        app().database.dataSource,
        importCompanyFacts(companyFacts(otherCik, `HARROW ${stamp}`)),
        `HWX${stamp}`,
      );
      expect(imported.companyId).to.equal(body.data.id);
      expect((await get<Data<CompanyProfile>>(`/v1/companies/${body.data.id}`)).body.data).to.include({
        ticker: `HWX${stamp}`,
        cik: otherCik,
      });
    });

    it('refuses to merge two companies: a CIK of one and a ticker of another, or a ticker whose company has another CIK', async () => {
      const one = (await create({ name: `Ivybridge ${stamp}`, ticker: `IV${stamp}`, sector: 'Energy', cik: cik + 2 }))
        .body.data;
      const two = (await create({ name: `Juniper ${stamp}`, ticker: `JP${stamp}`, sector: 'Energy' })).body.data;
      const before = await countCompanies();
      const crossed = await storeImport(
        app().database.dataSource,
        importCompanyFacts(companyFacts(cik + 2, 'X')),
        `JP${stamp}`,
      ).then(
        () => null,
        (error) => error,
      );
      expect(crossed).to.include({ code: 'CONFLICT' });
      expect(crossed.message).to.equal(
        `CIK ${cik + 2} is company ${one.id} (Ivybridge ${stamp}) but ticker JP${stamp} is company ${two.id} (Juniper ${stamp}): change the ticker of one of them first`,
      );
      const otherCik = await storeImport(
        app().database.dataSource,
        importCompanyFacts(companyFacts(cik + 3, 'Y')),
        `IV${stamp}`,
      ).then(
        () => null,
        (error) => error,
      );
      expect(otherCik.message).to.equal(
        `ticker IV${stamp} is company ${one.id} (Ivybridge ${stamp}), whose CIK is ${cik + 2}, not ${cik + 3}`,
      );
      expect(await countCompanies()).to.equal(before);
      const profile = async (id: number) => (await get<Data<CompanyProfile>>(`/v1/companies/${id}`)).body.data;
      expect(await profile(one.id)).to.include({ name: `Ivybridge ${stamp}`, cik: cik + 2 });
      expect(await profile(two.id)).to.include({ name: `Juniper ${stamp}`, cik: null });
    });
  });
});
