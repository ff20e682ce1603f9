import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { get, graphql, request, requestAs, post } from './helpers/http';
import type { Data, GraphQLAnswer, Page } from './helpers/http';
import type {
  BalanceSheet,
  CashFlow,
  ChatDoneEvent,
  CompanyProfile,
  DataQualityCheck,
  IncomeStatement,
  IngestedDocument,
  Ratios,
  Schema,
  ScreenRow,
} from '../sdk/typescript/src';
import { importCompanyFacts } from '../src/sec/companyfacts';
import { storeImport } from '../src/sec/sec-store';
import { fieldOfLabel, statementKindOf } from '../src/documents/statement-labels';
import { separateInstructions } from '../src/ai/question/instructions';
import { extractFacts } from '../src/documents/fact-extraction';
import { documentPeriod } from '../src/documents/fact-periods';
import { filedStatements } from '../src/documents/filed-statements';

describe('statement tables and labels (unit)', () => {
  it('knows a primary statement by its title, also when a PDF split its words, and no other table', () => {
    expect(statementKindOf('Consolidated Statement of Cash Flow s / Cash Flows from Operating Activities')).to.equal(
      'cashFlow',
    );
    expect(statementKindOf('Consolidated Balance Shee t / Current assets')).to.equal('balance');
    expect(statementKindOf('Consolidated Statements of Financial Position')).to.equal('balance');
    expect(statementKindOf('CONSOLIDATED STATEMENTS OF OPERATIONS')).to.equal('income');
    expect(statementKindOf('Consolidated Statement of Incom e')).to.equal('income');
    expect(statementKindOf('Consolidated Statements of Comprehensive Income')).to.equal(null);
    expect(statementKindOf('Revenue by Segment')).to.equal(null);
  });

  it('maps the labels filers write to statement fields, and leaves out what is not certainly one', () => {
    const field = (kind: Parameters<typeof fieldOfLabel>[0], label: string) => fieldOfLabel(kind, label)?.field ?? null;
    expect(field('cashFlow', 'Purchases of property, plant and equipment (PP&E)')).to.equal('capitalExpenditure');
    expect(field('cashFlow', 'Net cash provided by (used in) operating activities')).to.equal('operatingCashFlow');
    expect(field('income', 'Net sales')).to.equal('revenue');
    expect(field('income', 'Total revenues')).to.equal('revenue');
    expect(field('income', 'Net income attributable to 3M')).to.equal('netIncome');
    expect(field('income', 'Net income attributable to noncontrolling interest')).to.equal(null);
    expect(field('balance', "Total shareholders' equity")).to.equal('totalEquity');
    expect(field('balance', 'Total 3M Company shareholders’ equity')).to.equal('totalEquity');
    expect(field('balance', 'Accounts receivable — net of allowances of $95 and $103')).to.equal('receivables');
    expect(field('balance', 'Total liabilities and equity')).to.equal('totalLiabilitiesAndEquity');
    // Operating expenses are stored without cost of revenue; a filer's "total operating expenses" may include it.
    expect(field('income', 'Total operating expenses')).to.equal(null);
    expect(field('balance', 'Accounts payable and accrued liabilities')).to.equal(null);
    // The parent's equity is a better reading than the total with non-controlling interest.
    expect(fieldOfLabel('balance', 'Total stockholders’ equity')!.rank).to.be.below(
      fieldOfLabel('balance', 'Total equity')!.rank,
    );
  });

  it('reads text laid out with runs of spaces: unlabelled totals, parted parentheses, one row a line', () => {
    const page = [
      'CONSOLIDATED STATEMENTS OF OPERATIONS',
      '(In thousands)',
      '',
      'Year Ended December 31,',
      '2018  2017',
      'Revenues',
      'Casino  $  5,753,150  $  5,016,426',
      'Rooms  2,212,573  2,152,741',
      '7,965,723  7,169,167',
      'Expenses',
      'Casino  3,199,775  2,673,397',
      'Interest expense, net  (769,513 )  (668,745 )',
    ].join('\n');
    const facts = extractFacts(page, documentPeriod('FY2018')).map((fact) => [fact.label, fact.period, fact.value]);
    expect(facts).to.deep.include.members([
      ['Casino', 'FY2018', 5_753_150_000],
      ['Rooms', 'FY2017', 2_152_741_000],
      // The row of values alone under the last revenue line is the revenues' total, not more values of that line.
      ['Total Revenues', 'FY2018', 7_965_723_000],
      ['Interest expense, net', 'FY2017', -668_745_000],
    ]);
    expect(facts.filter(([label]) => label === 'Rooms')).to.have.length(2);
    expect(fieldOfLabel('income', 'Total Revenues')?.field).to.equal('revenue');
    // The parent's share of earnings, not the one of other holders, whatever words come between.
    expect(fieldOfLabel('income', 'Net earnings attributable to General Mills')?.field).to.equal('netIncome');
    expect(fieldOfLabel('income', 'Net earnings attributable to Best Buy Co., Inc. shareholders')?.field).to.equal(
      'netIncome',
    );
    expect(fieldOfLabel('income', 'Net earnings attributable to redeemable and noncontrolling interests')).to.equal(
      null,
    );
    for (const label of [
      'Capital spending',
      'Capital expenditures, net of construction payable',
      'Purchases of land, buildings, and equipment',
    ])
      expect(fieldOfLabel('cashFlow', label)?.field, label).to.equal('capitalExpenditure');
    expect(fieldOfLabel('cashFlow', 'Dividends')?.field).to.equal('dividendsPaid');
  });

  it('reads headers and rows as filers write them: dates over the years, an unbracketed scale, footnote marks', () => {
    const page = [
      'ADOBE SYSTEMS INCORPORATED',
      'CONSOLIDATED BALANCE SHEETS',
      '(In thousands)',
      '',
      'December 1,  December 2,',
      '2017  2016',
      'Total assets  $  14,535,556  $  12,697,246',
      'Total current liabilities  3,527,457  2,811,635',
      '',
      'Consolidated Statements of Earnings',
      'Fiscal Years Ended January 28, 2017 January 30, 2016',
      'Revenue  $  39,403  $  39,528',
      '',
      'Consolidated Statements of Operations',
      'In millions, except per share amounts  2018  2017',
      'Total revenues  194,579  184,786',
      'Total assets (1)  10,202,871  7,042,500',
    ].join('\n');
    const facts = extractFacts(page, documentPeriod('FY2017'));
    const liabilities = facts.find((fact) => fact.label === 'Total current liabilities');
    // The dates belong to the header: the table keeps its title, so it is known for a balance sheet.
    expect(liabilities?.context).to.match(/^ADOBE SYSTEMS INCORPORATED \/ CONSOLIDATED BALANCE SHEETS/);
    expect(facts.filter((fact) => fact.label === 'Total revenues').map((fact) => fact.value)).to.deep.equal([
      194_579_000_000, 184_786_000_000,
    ]);
    // Full dates head the columns, also one space apart.
    expect(facts.filter((fact) => fact.label === 'Revenue').map((fact) => [fact.period, fact.value])).to.deep.equal([
      ['FY2017', 39_403_000],
      ['FY2016', 39_528_000],
    ]);
    // "(1)" marks a footnote: the first column keeps its own value.
    expect(
      facts.filter((fact) => fact.label === 'Total assets' && fact.value > 1e12).map((fact) => fact.value),
    ).to.deep.equal([10_202_871_000_000, 7_042_500_000_000]);
  });

  it('takes a statement from one table of a report, never mixing in a subsidiary’s statement of the same period', () => {
    const report = [
      'ACME CORP',
      'CONSOLIDATED BALANCE SHEETS',
      '(In millions)  2018  2017',
      'Total current assets  2,527  2,376',
      'Accounts payable  303  255',
      '\f',
      'ACME VENTURES, LLC (an affiliate)',
      'CONSOLIDATED BALANCE SHEETS',
      '(In millions)  2018  2017',
      'Total current assets  364  709',
      'Total assets  9,100  9,500',
    ].join('\n');
    const facts = extractFacts(report, documentPeriod('FY2018')).map((fact, id) => ({
      ...fact,
      id,
      companyId: 1,
      documentId: 1,
      chunkId: 1,
      title: 'Acme 10-K',
      docType: '10-K',
      documentPeriod: 'FY2018',
      // The affiliate's statements are further on, in the notes.
      page: fact.context.startsWith('ACME VENTURES') ? 90 : 50,
      documentDate: '2019-02-27',
    }));
    const balance = filedStatements(facts, 12).statements.find(
      (s) => s.statement === 'balance' && s.period === 'FY2018',
    );
    expect(balance?.values).to.include({ totalCurrentAssets: 2_527_000_000, accountsPayable: 303_000_000 });
    // The affiliate's total assets is not the company's.
    expect(balance?.values.totalAssets).to.equal(undefined);
  });

  it('cites a value a later report shows unchanged from the report of its own period, a restated one from the later', () => {
    const report = (period: string, documentId: number, lines: string[]) =>
      extractFacts(['CONSOLIDATED BALANCE SHEETS', ...lines].join('\n'), documentPeriod(period)).map((fact, id) => ({
        ...fact,
        id: documentId * 100 + id,
        companyId: 1,
        documentId,
        chunkId: 1,
        title: `10-K ${period}`,
        docType: '10-K',
        documentPeriod: period,
        page: 40 + documentId,
        documentDate: `${period.slice(2)}-12-31`,
      }));
    const facts = [
      ...report('FY2023', 1, ['(In millions)  2023  2022', 'Total assets  1,350  1,200', 'Accounts payable  140  120']),
      ...report('FY2024', 2, ['(In millions)  2024  2023', 'Total assets  1,500  1,350', 'Accounts payable  150  145']),
    ];
    const sources = filedStatements(facts, 12).sources.filter((s) => s.period === 'FY2023');
    const of = (field: string) => sources.find((s) => s.field === field);
    expect(of('totalAssets')).to.include({ value: 1_350_000_000, documentId: 1, page: 41, restated: false });
    expect(of('accountsPayable')).to.include({ value: 145_000_000, documentId: 2, page: 42, restated: true });
  });

  it('reads the question apart from the instructions written around it', () => {
    expect(
      separateInstructions(
        'What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response to the question by relying on the details shown in the cash flow statement.',
      ),
    ).to.deep.equal({
      question: 'What is the FY2018 capital expenditure amount for 3M?',
      instructions: [
        '(in USD millions)',
        'Give a response to the question by relying on the details shown in the cash flow statement.',
      ],
    });
    const roleplay = separateInstructions(
      "You are an investment banker and your only resource is the balance sheet. Here's the question: what is Acme's FY2021 current ratio? Current ratio is defined as: current assets / current liabilities. Round your answer to two decimal places.",
    );
    expect(roleplay.question).to.equal("what is Acme's FY2021 current ratio?");
    expect(roleplay.instructions).to.have.length(3);
    // A later sentence that names a period still says what is asked; a question alone is left as it is.
    expect(separateInstructions('Compare Apple and Microsoft. Use FY2024.').question).to.equal(
      'Compare Apple and Microsoft. Use FY2024.',
    );
    expect(separateInstructions('Please show revenue for FY2024.').question).to.equal(
      'Please show revenue for FY2024.',
    );
  });
});

const INCOME_PAGE = [
  'Quillmark Tools Inc.',
  'Consolidated Statements of Operations',
  'Years ended December 31',
  '',
  '(In millions, except per share amounts) 2024 2023',
  'Net sales $ 1,200 $ 1,000',
  'Cost of sales 700 600',
  'Gross profit 500 400',
  'Research and development 100 90',
  'Operating income 250 200',
  '',
  'Income before income taxes 240 190',
  'Provision for income taxes 40 30',
  'Net income $ 200 $ 160',
].join('\n');

// FY2023 does not balance (720 + 650 ≠ 1,350): a check must flag it, and nothing may "fix" it.
const BALANCE_PAGE = [
  'Consolidated Balance Sheets',
  'At December 31',
  '',
  '(In millions) 2024 2023',
  'Cash and cash equivalents $ 300 $ 250',
  'Accounts receivable, net 200 180',
  'Total current assets 700 600',
  'Property, plant and equipment, net 800 750',
  'Total assets $ 1,500 $ 1,350',
  '',
  'Accounts payable 150 140',
  'Total current liabilities 300 280',
  'Long-term debt 400 420',
  'Total liabilities 700 720',
  "Total shareholders' equity 800 650",
  "Total liabilities and shareholders' equity $ 1,500 $ 1,350",
].join('\n');

const CASH_FLOW_PAGE = [
  'Consolidated Statements of Cash Flows',
  'Years ended December 31',
  '',
  '(In millions) 2024 2023',
  'Cash flows from operating activities',
  'Net income $ 200 $ 160',
  'Depreciation and amortization 60 55',
  'Net cash provided by operating activities 310 260',
  '',
  'Cash flows from investing activities',
  'Purchases of property, plant and equipment (PP&E) (90) (80)',
  'Net cash used in investing activities (95) (85)',
  '',
  'Cash flows from financing activities',
  'Dividends paid (40) (35)',
  'Net cash used in financing activities (165) (160)',
  '',
  'Net increase in cash and cash equivalents 50 15',
].join('\n');

// A note's table with statement labels is no statement.
const NOTE_PAGE = ['Note 5. Segment information', '', '(In millions) 2024 2023', 'Total assets 10 9'].join('\n');

describe('statements read from a stored filing', function () {
  this.timeout(60_000);
  const stamp = String(Date.now()).slice(-6);
  const ticker = `QM${stamp}`;
  let companyId: number;
  let documentId: number;

  before(async () => {
    const created = await requestAs<Data<CompanyProfile>>('admin', '/v1/companies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Quillmark Tools ${stamp}`, ticker, sector: 'Industrials' }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    companyId = created.body.data.id;
    const content = ['Annual report on Form 10-K.', INCOME_PAGE, BALANCE_PAGE, CASH_FLOW_PAGE, NOTE_PAGE].join('\f');
    const stored = await request<Data<IngestedDocument>>('/v1/documents', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        company_id: companyId,
        title: 'Form 10-K 2024',
        doc_type: '10-K',
        period: 'FY2024',
        content,
      }),
    });
    expect(stored.status, JSON.stringify(stored.body)).to.equal(201);
    documentId = stored.body.data.document.id;
  });

  // Other tests read the companies as seeded.
  after(async () => {
    if (companyId) await app().database.dataSource.query('DELETE FROM companies WHERE id = $1', [companyId]);
  });

  /** What each statement route answers. */
  interface Statements {
    'income-statement': IncomeStatement;
    'balance-sheet': BalanceSheet;
    'cash-flow': CashFlow;
    ratios: Ratios;
  }
  const statement = async <K extends keyof Statements>(kind: K, period: string) => {
    const response = await get<Data<Statements[K]>>(`/v1/companies/${companyId}/${kind}?period=${period}`);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    return response.body.data;
  };

  /** The company's row of a screen of its own sector, with the ratios route's values of the same fields. */
  const screenedAndRead = async (period: string, fields: Array<keyof Ratios>) => {
    const query = `period=${period}&sector=Industrials&fields=${fields.join(',')}&limit=100`;
    const response = await get<Page<ScreenRow>>(`/v1/screener?${query}`);
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const row = response.body.data.find((candidate) => candidate.id === companyId);
    const ratios = await statement('ratios', period);
    return { screened: row?.values, read: fields.map((field) => ({ field, value: ratios[field] })) };
  };

  it('become the company’s statements for every period their columns show, scaled, with derived totals', async () => {
    expect(await statement('income-statement', 'FY2024')).to.include({
      revenue: 1_200_000_000,
      cost_of_revenue: 700_000_000,
      gross_profit: 500_000_000,
      operating_income: 250_000_000,
      income_before_tax: 240_000_000,
      income_tax_expense: 40_000_000,
      net_income: 200_000_000,
      // The cash-flow statement's depreciation and amortization gives EBITDA.
      depreciation_and_amortization: 60_000_000,
      ebitda: 310_000_000,
    });
    expect((await statement('income-statement', 'FY2023')).revenue).to.equal(1_000_000_000);
    expect(await statement('balance-sheet', 'FY2024')).to.include({
      total_assets: 1_500_000_000,
      total_equity: 800_000_000,
      long_term_debt: 400_000_000,
    });
    // Parentheses are outflows; free cash flow is derived as for imported statements.
    expect(await statement('cash-flow', 'FY2024')).to.include({
      capital_expenditure: -90_000_000,
      dividends_paid: -40_000_000,
      operating_cash_flow: 310_000_000,
      free_cash_flow: 220_000_000,
    });
    const ratios = await statement('ratios', 'FY2024');
    expect(ratios.gross_margin).to.be.closeTo(500 / 1200, 1e-9);
    // A screen sees the new statements' ratios at once.
    const { screened, read } = await screenedAndRead('FY2024', ['gross_margin', 'revenue_growth', 'return_on_equity']);
    expect(screened).to.deep.equal(read);
    expect(read[1].value).to.be.closeTo(0.2, 1e-9);
  });

  it('say where each value was read: the document, its page and the label as written', async () => {
    const { body } = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
      `
        query ($id: Int) {
          company(id: $id) {
            cashFlow(period: "FY2024") {
              provenance {
                field
                concept
                accession
                form
                documentId
                page
                derived
              }
            }
          }
        }
      `,
      { id: companyId },
    );
    const sources = body.data.company.cashFlow!.provenance;
    expect(sources.find((s) => s.field === 'capitalExpenditure')).to.deep.equal({
      field: 'capitalExpenditure',
      concept: 'Purchases of property, plant and equipment (PP&E)',
      accession: null,
      form: '10-K',
      documentId,
      page: 4,
      derived: false,
    });
    expect(sources.find((s) => s.field === 'freeCashFlow')).to.include({ derived: true, page: 4 });
  });

  it('are checked like any statement: a sheet that does not balance is flagged, not fixed', async () => {
    const checks = async (period: string) => {
      const { body } = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
        `
          query ($id: Int, $p: String) {
            company(id: $id) {
              balanceSheet(period: $p) {
                totalLiabilities
                dataQuality {
                  check
                  passed
                }
              }
            }
          }
        `,
        { id: companyId, p: period },
      );
      return body.data.company.balanceSheet!;
    };
    const fy2024 = await checks('FY2024');
    expect(fy2024.dataQuality.find((c) => c.check === 'balance')!.passed).to.equal(true);
    const fy2023 = await checks('FY2023');
    expect(fy2023.dataQuality.find((c) => c.check === 'balance')!.passed).to.equal(false);
    expect(fy2023.totalLiabilities).to.equal(720_000_000);
  });

  it('answer the analyst, who cites the filing’s page', async () => {
    const response = await requestAs<Data<ChatDoneEvent>>('analyst', '/v1/ai/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        stream: false,
        messages: [
          {
            role: 'user',
            content: `What is the FY2024 capital expenditure amount (in USD millions) for Quillmark Tools ${stamp}? Give a response to the question by relying on the details shown in the cash flow statement.`,
          },
        ],
      }),
    });
    expect(response.status, JSON.stringify(response.body)).to.equal(200);
    const { answer, citations } = response.body.data;
    expect(answer).to.match(/capital expenditure/i);
    expect(answer).to.match(/\$90(?:\.0)? million/);
    expect(citations).to.deep.include.members([
      {
        kind: 'STATEMENT',
        company_id: companyId,
        ticker,
        period: 'FY2024',
        statement: 'cash_flow',
        field: 'capital_expenditure',
        value: -90_000_000,
        chunk_id: null,
        document_id: documentId,
        title: 'Form 10-K 2024',
        page: 4,
      },
    ]);
  });

  it('answer a metric the question defines as defined: the result first, the formula and each input with its period', async () => {
    const chat = async (content: string) => {
      const response = await post<Data<ChatDoneEvent>>(
        '/v1/ai/chat',
        { stream: false, messages: [{ role: 'user', content }] },
        'analyst',
      );
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      return response.body.data;
    };
    const workingCapital = await chat(
      `What is Quillmark Tools ${stamp}'s FY2024 net working capital? Define net working capital as total current assets less total current liabilities. Answer in USD millions.`,
    );
    expect(workingCapital.answer).to.match(
      new RegExp(`^${ticker}’s net working capital for FY2024, as the question defines it, is \\$400 million: `),
    );
    expect(workingCapital.answer).to.include('total current assets FY2024 $700 million');
    expect(workingCapital.grounding.numbers_unsupported).to.equal(0);
    // An average over two years, as defined, not the service's own asset turnover.
    const turnover = await chat(
      `What is the FY2024 fixed asset turnover ratio for Quillmark Tools ${stamp}? Fixed asset turnover ratio is defined as: FY2024 revenue / (average PP&E between FY2023 and FY2024). Round your answer to two decimal places.`,
    );
    expect(turnover.answer).to.match(/is 1\.55x: /);
    expect(turnover.answer)
      .to.include('property, plant and equipment FY2023 $750 million')
      .and.include('property, plant and equipment FY2024 $800 million');
    // An input the statements do not hold: said, and no figure given.
    const missing = await chat(
      `What is the FY2024 inventory turnover for Quillmark Tools ${stamp}? Inventory turnover is defined as: FY2024 COGS / (average inventory between FY2023 and FY2024).`,
    );
    expect(missing.answer).to.equal(
      `${ticker}’s Inventory turnover for FY2024 as the question defines it is not available: the stored statements do not give inventory for FY2023, inventory for FY2024.`,
    );
  });

  it('answer a measure the question composes of known ones: a share of revenue, a difference, an average over years', async () => {
    const answer = async (content: string) => {
      const response = await post<Data<ChatDoneEvent>>(
        '/v1/ai/chat',
        { stream: false, messages: [{ role: 'user', content }] },
        'analyst',
      );
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.data.grounding.numbers_unsupported, response.body.data.answer).to.equal(0);
      return response.body.data.answer;
    };
    const company = `Quillmark Tools ${stamp}`;
    // Cost of sales 700 of net sales 1,200.
    expect(await answer(`What is ${company}'s FY2024 COGS % margin?`)).to.match(
      new RegExp(`^${ticker}’s COGS margin for FY2024 is 58\\.3%: computed as cost of revenue / revenue, from`),
    );
    // Operating income 250 + D&A 60, less capex of 90 (stored as an outflow, read as its size).
    const lessCapex = await answer(
      `What is the FY2024 unadjusted EBITDA less capex for ${company}? Define unadjusted EBITDA as unadjusted operating income + depreciation and amortization [from cash flow statement]. Answer in USD millions.`,
    );
    expect(lessCapex).to.match(/ is \$220 million: /);
    expect(lessCapex).to.include('capital expenditure FY2024 $90 million paid');
    // Net margins of 16.0% (FY2023) and 16.7% (FY2024).
    const average = await answer(
      `What is the FY2023 - FY2024 2 year average net profit margin (as a %) for ${company}? Answer in units of percents and round to one decimal place.`,
    );
    expect(average).to.match(
      new RegExp(`^${ticker}’s 2 year average net profit margin for FY2023 to FY2024 is 16\\.3%: `),
    );
    expect(average).to.include('FY2023').and.include('FY2024');
    // Written as the question asks: three decimals of the percentage; an amount in USD thousands.
    expect(
      await answer(`What is ${company}'s FY2024 COGS % margin? Round your answer to three decimal places.`),
    ).to.match(/ is 58\.333%: /);
    expect(
      await answer(
        `What is the FY2024 unadjusted EBITDA less capex for ${company}? Define unadjusted EBITDA as unadjusted operating income + depreciation and amortization. Answer in USD thousands.`,
      ),
    ).to.match(/ is \$220,000 thousand: /);
    // Net sales from 1,000 to 1,200 in one year.
    expect(await answer(`What was ${company}'s revenue CAGR from FY2023 to FY2024?`)).to.match(
      new RegExp(
        `^${ticker}’s revenue CAGR for FY2023 to FY2024 is 20%: computed as \\(revenue in FY2024 / revenue in FY2023\\)\\^\\(1/1\\) - 1, `,
      ),
    );
    // (Net income 200 − dividends paid 40) / 200.
    expect(await answer(`What is ${company}'s FY2024 retention ratio?`)).to.match(/retention ratio .* is 80%: /);
    // A measure of something the statements do not hold is said to be missing, with no figure.
    expect(await answer(`What is ${company}'s FY2022 COGS % margin?`)).to.match(
      /is not available: the stored statements do not give/,
    );
  });

  it('leave a company without statements answerable: the analyst says none are stored, never a 404', async () => {
    const created = await requestAs<Data<CompanyProfile>>('admin', '/v1/companies', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Plainfield Mills ${stamp}`, ticker: `PF${stamp}`, sector: 'Industrials' }),
    });
    try {
      const response = await requestAs<Data<ChatDoneEvent>>('analyst', '/v1/ai/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          stream: false,
          messages: [{ role: 'user', content: `What was PF${stamp}’s revenue in FY2024?` }],
        }),
      });
      expect(response.status, JSON.stringify(response.body)).to.equal(200);
      expect(response.body.data.answer).to.match(new RegExp(`^PF${stamp}’s revenue for FY2024 is not available`));
    } finally {
      await app().database.dataSource.query('DELETE FROM companies WHERE id = $1', [created.body.data.id]);
    }
  });

  it('give way to XBRL facts for the periods those cover, and keep the others', async () => {
    const revenue = { start: '2024-01-01', end: '2024-12-31', val: 1_250_000_000, accn: `x-${stamp}`, fy: 2024 };
    await storeImport(
      app().database.dataSource,
      importCompanyFacts({
        cik: 970_000 + Number(stamp.slice(-4)),
        entityName: `QUILLMARK TOOLS ${stamp}`,
        facts: {
          'us-gaap': { Revenues: { units: { USD: [{ ...revenue, fp: 'FY', form: '10-K', filed: '2025-02-10' }] } } },
        },
      }),
      ticker,
    );
    const fy2024 = await statement('income-statement', 'FY2024');
    expect(fy2024.revenue).to.equal(1_250_000_000);
    expect(fy2024.net_income).to.equal(null);
    // The filing disagrees: flagged on the statement and in the company's summary, the XBRL value kept.
    const agreement = fy2024.data_quality.find((check) => check.check === 'filings_agree');
    expect(agreement).to.include({ passed: false, difference: 50_000_000 });
    expect(agreement!.detail).to.equal(
      `revenue is 1,250,000,000; document ${documentId}, page 2 shows 1,200,000,000 as “Net sales”`,
    );
    const summary = (await get<Data<DataQualityCheck[]>>(`/v1/companies/${companyId}/data-quality`)).body.data;
    expect(summary.find((check) => check.check === 'filings_agree')).to.include({ checked: 1, failed: 1 });
    // A statement the filing made is not compared with itself.
    const cashFlow = await statement('cash-flow', 'FY2024');
    expect(cashFlow.data_quality.map((check) => check.check)).not.to.include('filings_agree');
    expect((await statement('income-statement', 'FY2023')).revenue).to.equal(1_000_000_000);
    expect((await statement('cash-flow', 'FY2024')).capital_expenditure).to.equal(-90_000_000);
    // The screener's stored ratios follow the imported statement.
    const { screened, read } = await screenedAndRead('FY2024', ['revenue_growth', 'gross_margin', 'net_margin']);
    expect(screened).to.deep.equal(read);
    expect(read[0].value).to.be.closeTo(0.25, 1e-9);
  });
});
