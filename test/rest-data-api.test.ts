import { expect } from 'chai';
import { toCsv, wantsCsv } from '../src/http/csv';
import { get, request, requestAs } from './helpers/http';
import type { Data, Page, Refusal } from './helpers/http';
import { app } from './helpers/shared-app';
import type { BalanceSheet, CashFlow, Company, IncomeStatement, RatioDefinition, Ratios } from '../sdk/typescript/src';

const companies = (query: string) => get<Page<Company>>(`/v1/companies${query}`);

const text = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
  const response = await fetch(`${app().url}${path}`, { method, headers });
  return { status: response.status, headers: response.headers, body: await response.text() };
};

describe('REST for data-API users', function () {
  this.timeout(60_000);

  describe('GET /v1/companies: ?ticker= and ?q=', () => {
    it('finds a company by ticker in any case, and nothing for an unknown one', async () => {
      const found = await companies('?ticker=nwsc');
      expect(found.body.data).to.deep.equal([
        { id: 1, name: 'Northwind Semiconductor', ticker: 'NWSC', sector: 'Information Technology' },
      ]);
      expect(found.body.meta.total).to.equal(1);
      expect((await companies('?ticker=NOPE')).body.data).to.deep.equal([]);
    });

    it('searches names and tickers, best match first', async () => {
      const north = await companies('?q=north');
      expect(north.body.data.map((c) => c.ticker)).to.deep.equal(['NCRF', 'NWSC']);
      // The exact ticker beats names that merely contain the letters; a word inside a name counts too.
      const byTicker = await companies('?q=nwsc');
      expect(byTicker.body.data[0].ticker).to.equal('NWSC');
      const ranked = (await companies('?q=b&limit=100')).body.data;
      const rank = (c: { name: string; ticker: string }) =>
        c.ticker.startsWith('B') ? 2 : c.name.startsWith('B') ? 3 : / B/.test(c.name) ? 4 : 5;
      expect(ranked.map(rank)).to.deep.equal([...ranked.map(rank)].sort());
      expect((await companies('?q=100%25')).body.data).to.deep.equal([]);
    });

    it('refuses overlong filters naming the field', async () => {
      const response = await get<Refusal>(`/v1/companies?q=${'x'.repeat(101)}`);
      expect(response.status).to.equal(400);
      expect(response.body.error).to.deep.include({
        message: 'q must be at most 100 characters',
        details: { field: 'q' },
      });
    });
  });

  describe('statements over several periods', () => {
    it('answers ?type=annual&limit=N with an array, newest first; a single period stays one object', async () => {
      const years = await get<Data<IncomeStatement[]>>('/v1/companies/1/income-statement?type=annual&limit=3');
      expect(years.status).to.equal(200);
      expect(years.body.data.map((s) => s.period)).to.deep.equal(['FY2025', 'FY2024', 'FY2023']);
      const single = await get<Data<IncomeStatement>>('/v1/companies/1/income-statement?period=FY2024');
      expect(single.body.data).to.deep.equal(years.body.data[1]);
      const quarters = await get<Data<Ratios[]>>('/v1/companies/1/ratios?type=quarter&limit=4');
      expect(quarters.body.data.map((r) => r.period)).to.deep.equal(['Q3-2026', 'Q2-2026', 'Q1-2026', 'Q4-2025']);
      expect(quarters.body.data[0]).to.have.property('gross_margin');
      const sheets = await get<Data<BalanceSheet[]>>('/v1/companies/1/balance-sheet?limit=2');
      expect(sheets.body.data.map((s) => s.period)).to.deep.equal(['Q3-2026', 'Q2-2026']);
      expect((await get<Data<CashFlow[]>>('/v1/companies/1/cash-flow?type=annual')).body.data).to.have.length.above(1);
    });

    it('refuses mixing one period with several, and bad type or limit, in REST words', async () => {
      expect((await get<Refusal>('/v1/companies/1/ratios?period=FY2024&limit=2')).body.error.details).to.deep.equal({
        field: 'period',
      });
      const type = await get<Refusal>('/v1/companies/1/ratios?type=weekly');
      expect(type.body.error).to.deep.include({
        message: 'type must be one of annual, quarter, got "weekly"',
        details: { field: 'type', accepted: ['annual', 'quarter'] },
      });
      expect((await get<Refusal>('/v1/companies/1/ratios?limit=41')).body.error.message).to.equal(
        'limit must be a whole number from 1 to 40, got 41',
      );
      expect((await get('/v1/companies/999999/ratios?limit=2')).status).to.equal(404);
    });
  });

  describe('text/csv', () => {
    it('answers lists and statements as CSV for ?format=csv or Accept: text/csv', async () => {
      const list = await text('/v1/companies?sector=energy&limit=2&format=csv');
      expect(list.status).to.equal(200);
      expect(list.headers.get('content-type')).to.match(/^text\/csv; charset=utf-8/);
      expect(list.headers.get('x-total-count')).to.equal('4');
      const lines = list.body.split('\r\n');
      expect(lines[0]).to.equal('id,name,ticker,sector');
      expect(lines).to.have.length(4);
      expect(lines[3]).to.equal('');

      const json = (await get<Data<IncomeStatement[]>>('/v1/companies/1/income-statement?type=annual&limit=2')).body
        .data;
      const csv = await text('/v1/companies/1/income-statement?type=annual&limit=2', { accept: 'text/csv' });
      const [header, first] = csv.body.split('\r\n');
      expect(header.split(',')).to.include.members(['period', 'revenue', 'net_income']).and.not.include('data_quality');
      expect(Number(first.split(',')[header.split(',').indexOf('revenue')])).to.equal(json[0].revenue);
      expect((await text('/v1/companies/1/ratios?period=FY2024&format=csv')).body.split('\r\n')).to.have.length(3);
      expect((await get<Refusal>('/v1/companies/1/ratios?period=FY2024&format=xml')).body.error.details).to.deep.equal({
        field: 'format',
        accepted: ['json', 'csv'],
      });
    });

    it('keeps errors in the JSON envelope and answers HEAD like GET without a body', async () => {
      const missing = await text('/v1/companies/999999/income-statement?format=csv');
      expect(missing.status).to.equal(404);
      expect(JSON.parse(missing.body).success).to.equal(false);
      const head = await text('/v1/companies?format=csv', {}, 'HEAD');
      expect(head.status).to.equal(200);
      expect(head.headers.get('content-type')).to.match(/^text\/csv/);
      expect(head.body).to.equal('');
      expect((await text('/v1/admin/keys', {}, 'HEAD')).status).to.equal(401);
    });

    it('writes RFC 4180 CSV, quoting what needs it and defusing formulas (unit)', () => {
      expect(
        toCsv([
          { a: 'x,y', b: 'say "hi"', c: null, d: true, nested: [1] },
          { a: '=SUM(A1)', b: 2, c: 3, d: false },
        ]),
      ).to.equal('a,b,c,d\r\n"x,y","say ""hi""",,true\r\n\'=SUM(A1),2,3,false\r\n');
      expect(toCsv({ id: 1 })).to.equal('id\r\n1\r\n');
      expect(wantsCsv(null, 'text/csv;q=0.9, application/json')).to.equal(true);
      expect(wantsCsv(null, 'application/json')).to.equal(false);
      expect(wantsCsv('json', 'text/csv')).to.equal(false);
    });
  });

  describe('snake_case everywhere', () => {
    it('names ratio definitions by the keys the ratios route uses', async () => {
      const definitions = (await get<Data<RatioDefinition[]>>('/v1/ratios/definitions')).body.data;
      const ratios = (await get<Data<Ratios>>('/v1/companies/1/ratios?period=FY2024')).body.data;
      for (const { key } of definitions) expect(ratios, key).to.have.property(key);
    });

    it('lists compare metrics in snake_case when one is unknown', async () => {
      const response = await request<Refusal>('/v1/ai/compare', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ company_ids: [1, 2], metrics: ['peRatio'] }),
      });
      expect(response.status).to.equal(400);
      expect(response.body.error.details?.field).to.equal('metrics');
      expect(response.body.error.details?.accepted).to.include('net_margin').and.not.include('netMargin');
      expect(response.body.error.message).not.to.match(/revenueChange|netMargin/);
    });

    it('names REST fields, never GraphQL variables, in errors', async () => {
      const response = await requestAs<Refusal>('analyst', '/v1/search', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'x', mode: 'BM25' }),
      });
      expect(response.body.error.message).to.equal('mode must be one of hybrid, text, vector, got "bm25"');
      expect(response.body.error.message).not.to.include('$');
    });
  });
});
