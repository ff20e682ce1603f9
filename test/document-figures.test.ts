import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { graphql, request, requestAs } from './helpers/http';
import type { Data, GraphQLAnswer } from './helpers/http';
import { importCompanyFacts, type RawFact } from '../src/sec/companyfacts';
import { storeImport } from '../src/sec/sec-store';
import { checkAskedFigure, type AttributedFact, type Claim } from '../src/ai/grounding';
import type { IncomeStatement, IngestedDocument, Schema } from '../sdk/typescript/src';

interface ChatData {
  answer: string;
  conversation_id: string;
  citations: Array<{
    kind: string;
    chunk_id: number | null;
    document_id: number | null;
    period: string | null;
    value: number | null;
    page: number | null;
  }>;
  claims: Array<{ text: string; verdict: string }>;
  grounding: { claims_flagged: number; numbers_unsupported: number };
}

const ask = async (content: string, conversationId?: string): Promise<ChatData> => {
  const response = await requestAs<Data<ChatData>>('analyst', '/v1/ai/chat', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      messages: [{ role: 'user', content }],
      stream: false,
      ...(conversationId ? { conversation_id: conversationId } : {}),
    }),
  });
  expect(response.status, JSON.stringify(response.body)).to.equal(200);
  return response.body.data;
};

const ingest = (body: Record<string, unknown>) =>
  request<Data<IngestedDocument>>('/v1/documents', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A 10-K section as filings are converted to text: a segment table with a title and row groups, and prose. */
const ANNUAL_REPORT = [
  'Item 7. Management’s Discussion and Analysis',
  'Our business is organized in three reportable segments, and results are discussed below for each of them in turn with the drivers behind the changes.',
  '',
  'Revenue by Segment',
  'Year Ended December 31, | 2024 vs. 2023 Change',
  '(Dollars in millions) | 2024 | 2023 | 2022 | $%',
  'Grid Storage | $12,480 | $10,509 | $8,210 | $1,971 | 19%',
  'Field Services | 2,763 | 2,790 | 1,776 | (27) | (1)%',
  'Charging Network | 1,827 | 2,120 | 2,476 | (293) | (14)%',
  'Total revenues | $17,070 | $15,419 | $12,462 | $1,651 | 11%',
  '',
  'Operating income (loss) by Segment',
  'Year Ended December 31, | 2024 | 2023',
  '(Dollars in millions) | 2024 | 2023',
  'Grid Storage | $3,120 | $2,480',
  'Charging Network | (412) | (388)',
  '',
  'Grid Storage revenue increased $1.97 billion, or 19%, in 2024 compared to 2023, primarily due to higher deployments. As of December 31, 2024, we had approximately 21,450 full-time employees worldwide.',
  '',
  'Contractual obligations',
  '(in millions) | 2025 | 2026 | 2027 | 2028',
  'Purchase obligations | 900 | 800 | 700 | 600',
].join('\n');

/** A text-layout table from a PDF: a label, then one value per column, the scale above, negatives in parentheses. */
const QUARTERLY_REPORT = [
  'Part I, Item 2. Results of operations for the quarter, compared with the same quarter a year before, are discussed below.',
  '\f',
  'Other items (in millions)',
  'Three Months Ended June 30, Six Months Ended June 30,',
  '2025 2024 2025 2024',
  'Restructuring charges (12) (8) (20) (15)',
  'Warranty provisions 41 37 80 71',
  '',
  'Grid Storage revenue was $3.4 billion, up 22% from the prior year.',
].join('\n');

describe('figures from the documents', function () {
  this.timeout(120_000);
  let companyId: number;
  let totalRevenue: number;

  before(async () => {
    const { body } = await graphql<GraphQLAnswer<{ company: Schema.Company }>>(
      'query { company(ticker: "VLTM") { id } }',
    );
    companyId = body.data.company.id;
    const stored = await request<Data<IncomeStatement>>(`/v1/companies/${companyId}/income-statement?period=latest-fy`);
    totalRevenue = stored.body.data.revenue!;
    for (const [title, docType, period, content] of [
      ['VLTM 10-K FY2024: Item 7', '10-K', 'FY2024', ANNUAL_REPORT],
      ['VLTM 10-Q Q2-2025: Item 2', '10-Q', 'Q2-2025', QUARTERLY_REPORT],
    ]) {
      const response = await ingest({ company_id: companyId, title, doc_type: docType, period, content });
      expect(response.status, JSON.stringify(response.body)).to.be.oneOf([200, 201]);
    }
  });

  it('answers a segment figure with its value, scale, period, label as written and its document and chunk', async () => {
    const { answer, citations, claims, grounding } = await ask(
      'What was Voltaris Motors’ Grid Storage revenue in fiscal 2024?',
    );
    expect(answer).to.match(/^VLTM’s Grid Storage revenue for FY2024 was \$12\.48 billion \(\$12,480 million\)/);
    expect(answer)
      .to.include('“Grid Storage”')
      .and.include('“Revenue by Segment”')
      .and.match(/chunk \d+\]/);
    const cited = citations.find((c) => c.kind === 'DOCUMENT' && c.value === 12_480_000_000);
    expect(cited, JSON.stringify(citations)).to.not.equal(undefined);
    expect(cited?.period).to.equal('FY2024');
    expect(cited?.page).to.equal(1);
    expect(answer).to.include(`page 1, chunk ${cited?.chunk_id}]`);
    expect(
      claims.every((c) => c.verdict === 'SUPPORTED'),
      JSON.stringify(claims),
    ).to.equal(true);
    expect(grounding.claims_flagged).to.equal(0);
  });

  it('never answers a narrowed figure with the unqualified total, and follows up on document figures', async () => {
    const first = await ask('What was VLTM’s Charging Network revenue in 2024?');
    expect(first.answer).to.include('$1.83 billion').and.include('FY2024');
    expect(first.answer).to.not.include(
      `${Math.round(totalRevenue / 1e9)}`.length > 0 ? `$${(totalRevenue / 1e9).toFixed(2)} billion` : 'never',
    );
    const earlier = await ask('and in 2023?', first.conversation_id);
    expect(earlier.answer).to.match(/Charging Network revenue for FY2023 was \$2\.12 billion/);
    const other = await ask('and Field Services?', earlier.conversation_id);
    expect(other.answer).to.match(/Field Services revenue for FY2023 was \$2\.79 billion/);
  });

  it('reads a segment named after the company ("Voltaris Europe") under its heading, not a geographic line holding part of its name', async () => {
    const segments = [
      'Voltaris Europe Segment',
      '(Amounts in millions) | 2024 | 2023',
      'Net sales | $4,215 | $3,980',
      'Operating income | 512 | 470',
      '',
      'Disaggregated revenues',
      '(Amounts in millions) | 2024 | 2023',
      'Europe operations | $5,030 | $4,770',
      'Asia operations | 1,120 | 1,010',
    ].join('\n');
    const stored = await ingest({
      company_id: companyId,
      title: 'VLTM 10-K FY2024: Item 8',
      doc_type: '10-K',
      period: 'FY2024',
      content: segments,
    });
    expect(stored.status, JSON.stringify(stored.body)).to.be.oneOf([200, 201]);
    const { answer } = await ask('What were Voltaris Europe segment net sales in fiscal 2024?');
    expect(answer).to.match(/\$4\.2\d* billion|\$4,215 million/);
    expect(answer).to.not.include('5,030');
  });

  it('reads a segment’s operating loss in parentheses as negative, under its own heading', async () => {
    const { answer } = await ask('What was VLTM’s Charging Network operating income in fiscal 2024?');
    expect(answer).to.match(/Charging Network operating income for FY2024 was -\$412(\.0)? million/);
    expect(answer).to.include('“Operating income (loss) by Segment”');
  });

  it('reads a headcount from a sentence and a text-layout table of a quarterly report', async () => {
    const people = await ask('How many full-time employees did VLTM have in fiscal 2024?');
    expect(people.answer).to.match(/full-time employees for FY2024 was 21,450/);
    const charges = await ask('What were VLTM’s restructuring charges in Q2 2025?');
    expect(charges.answer).to.match(/restructuring charges for Q2-2025 was -\$12(\.0)? million/);
    // The table stands after the report's first page break: the figure's page is its chunk's.
    expect(charges.answer).to.match(/page 2, chunk \d+\]/);
    expect(charges.citations.find((c) => c.kind === 'DOCUMENT')?.page).to.equal(2);
    const year = await ask('And in Q2 2024?', charges.conversation_id);
    expect(year.answer).to.match(/for Q2-2024 was -\$8(\.0)? million/);
  });

  it('says first that no filing gives a figure, naming what it looked for, and gives no figure as the answer', async () => {
    const { answer, claims } = await ask('How many Quasar home batteries did VLTM sell in fiscal 2024?');
    expect(answer).to.match(
      /^No stored filing of VLTM gives Quasar home batteries for FY2024: I looked for “Quasar home batteries”/,
    );
    expect(claims).to.deep.equal([]);
  });

  it('offers another period only after saying the asked one is not given, labelled as not the period asked', async () => {
    const { answer, grounding } = await ask('What was VLTM’s Grid Storage operating income in fiscal 2022?');
    expect(answer).to.match(/^No stored filing of VLTM gives Grid Storage operating income for FY2022/);
    expect(answer).to.match(/For reference only, not the period asked: FY2024, \$3\.12 billion/);
    expect(grounding.claims_flagged).to.equal(0);
  });

  it('takes no period from a schedule whose years run forward (a maturity table is no period of the filing)', async () => {
    const { answer } = await ask('What were VLTM’s purchase obligations in 2025?');
    expect(answer).to.match(/^No stored filing of VLTM gives purchase obligations/);
  });

  it('flags a stored total given as the answer to a narrowed figure (WRONG_METRIC), unless labelled as related (unit)', () => {
    const total: AttributedFact = {
      companyId: 1,
      ticker: 'VLTM',
      period: 'FY2024',
      field: 'revenue',
      unit: 'money',
      value: 17e9,
    };
    const segment: AttributedFact = {
      ...total,
      field: 'documentFigure',
      value: 12.48e9,
      terms: ['grid', 'storage', 'revenue'],
    };
    const claim = (factIndex: number, sentence: string): Claim => ({
      text: '$1',
      sentence,
      verdict: 'SUPPORTED',
      ticker: 'VLTM',
      period: 'FY2024',
      metric: 'revenue',
      factIndex,
      chunkId: null,
    });
    const claims = [
      claim(0, 'VLTM’s revenue for FY2024 was $17 billion.'),
      claim(1, 'Grid Storage revenue was $12.48 billion.'),
      claim(0, 'For reference only, a related figure: revenue of $17 billion.'),
    ];
    checkAskedFigure(claims, [total, segment], ['grid', 'storage'], /\b(?:for reference only|a related figure)\b/i);
    expect(claims.map((c) => c.verdict)).to.deep.equal(['WRONG_METRIC', 'SUPPORTED', 'SUPPORTED']);
    const other = [claim(1, 'Charging revenue was $12.48 billion.')];
    checkAskedFigure(other, [total, segment], ['charging', 'network'], /for reference only/i);
    expect(other[0].verdict, 'a document figure of another segment').to.equal('WRONG_METRIC');
  });

  it('answers a period an annual-only filer does not have with 200, "not available" and its nearest stored year', async () => {
    const year = (fy: number, val: number, form = '20-F'): RawFact => ({
      start: `${fy - 1}-01-01`,
      end: `${fy - 1}-12-31`,
      val,
      accn: `a${fy}`,
      fy,
      fp: 'FY',
      form,
      filed: `${fy}-03-01`,
    });
    const units = (values: number[]) => ({ USD: values.map((v, i) => year(2023 + i, v)) });
    const imported = await storeImport(
      app().database.dataSource,
      importCompanyFacts({
        cik: 999_777,
        entityName: 'Annual Only Foundry Ltd',
        facts: {
          'us-gaap': {
            Revenues: { units: units([500e6, 620e6]) },
            NetIncomeLoss: { units: units([50e6, 70e6]) },
            Assets: {
              units: {
                USD: [
                  {
                    end: '2022-12-31',
                    val: 900e6,
                    accn: 'a2023',
                    fy: 2023,
                    fp: 'FY',
                    form: '20-F',
                    filed: '2023-03-01',
                  },
                  {
                    end: '2023-12-31',
                    val: 990e6,
                    accn: 'a2024',
                    fy: 2024,
                    fp: 'FY',
                    form: '20-F',
                    filed: '2024-03-01',
                  },
                ],
              },
            },
          },
        },
      }),
      'AOFL',
    );
    try {
      const { answer } = await ask('What was AOFL’s revenue in fiscal 2013?');
      expect(answer).to.match(/^AOFL’s revenue for FY2013 is not available/);
      expect(answer).to.match(/nearest stored period is FY\d{4} \(not the period asked\)/);
    } finally {
      // Other tests read the companies as seeded.
      await app().database.dataSource.query('DELETE FROM companies WHERE id = $1', [imported.companyId]);
    }
  });
});
