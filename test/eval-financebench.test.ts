import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { evaluateFinanceBench, readOptions, type Question } from '../bench/eval-financebench';
import { fiscalYearEndMonth, type Filing } from '../bench/financebench-corpus';

/** A FinanceBench folder in small: one company's annual report of four pages (the third blank, as the corpus drops such pages). */
function writeFolder(): string {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-financebench-'));
  fs.mkdirSync(path.join(folder, 'financebench'));
  const page = (number: number, text: string) => ({
    doc_name: 'ACMEKILNS_2023_10K',
    company: 'Acme Kilns',
    doc_type: '10k',
    doc_period: 2023,
    gics_sector: 'Industrials',
    page: number,
    text,
  });
  const pages = [
    page(0, 'ANNUAL REPORT PURSUANT TO SECTION 13\nFor the fiscal year ended June 30, 2023\nAcme Kilns, Inc.'),
    page(1, 'Item 7. Management discussion. Net sales grew on kiln demand in every region.'),
    page(
      3,
      'Consolidated Statement of Cash Flows (Millions)  2023  2022\nPurchases of property, plant and equipment  (412)  (388)',
    ),
  ];
  fs.writeFileSync(path.join(folder, 'financebench', 'corpus.jsonl'), pages.map((p) => JSON.stringify(p)).join('\n'));
  const question = (id: string, text: string, answer: string, type: string, reasoning: string | null): Question => ({
    id,
    question: text,
    company: 'Acme Kilns',
    doc_name: 'ACMEKILNS_2023_10K',
    gics_sector: 'Industrials',
    answer,
    question_type: type,
    question_reasoning: reasoning,
    gold_passage_ids: ['ACMEKILNS_2023_10K#p3'],
  });
  const questions = [
    question(
      'q1',
      'What is the FY2023 capital expenditure amount (in USD millions) for Acme Kilns?',
      '$412.00',
      'metrics-generated',
      'Information extraction',
    ),
    question(
      'q2',
      'What is Acme Kilns year-over-year change in capital expenditure from FY2022 to FY2023 (in percents, round to one decimal place)?',
      '6.2%',
      'metrics-generated',
      'Numerical reasoning',
    ),
    question(
      'q3',
      'Does Acme Kilns sell in every region?',
      'Yes, kiln demand grew in every region.',
      'novel-generated',
      null,
    ),
  ];
  fs.writeFileSync(
    path.join(folder, 'financebench', 'queries_dev.jsonl'),
    questions.map((q) => JSON.stringify(q)).join('\n'),
  );
  return folder;
}

describe('npm run eval:financebench (bench/eval-financebench), end to end on a small folder', function () {
  this.timeout(90_000);

  it("reads the month a fiscal year ends from an annual report's cover, a 52/53-week year in the month it closes", () => {
    const filing = (cover: string): Filing => ({
      docName: 'X_2022_10K',
      company: 'X',
      sector: 'Industrials',
      docType: '10k',
      docPeriod: 2022,
      pages: [cover],
    });
    expect(fiscalYearEndMonth([filing('For the fiscal year ended May 31, 2019')])).to.equal(5);
    expect(fiscalYearEndMonth([filing('For the fiscal year ended January 28, 2023')])).to.equal(1);
    expect(fiscalYearEndMonth([filing('For the fiscal year ended January 1, 2023')])).to.equal(12);
    expect(fiscalYearEndMonth([filing('Annual report')])).to.equal(null);
  });

  it('reads its options and refuses what it does not know', () => {
    expect(readOptions(['data', '--limit', '3', '--only', 'a,b'])).to.include({ folder: 'data', limit: 3 });
    expect(() => readOptions([])).to.throw(/usage/);
    expect(() => readOptions(['data', '--fast'])).to.throw(/unknown argument --fast/);
  });

  it('creates the company and stores the filing through the API with its pages, asks every question and tallies the figures', async () => {
    const folder = writeFolder();
    const seen: { stored?: { fiscalYearEnd: number; pages: Array<{ page: number; content: string }> } } = {};
    try {
      const report = await evaluateFinanceBench(
        readOptions([folder]),
        () => undefined,
        async (app, key, documentIds) => {
          const get = async (route: string) =>
            (
              (await (await fetch(`${app.url}${route}`, { headers: { 'x-api-key': key } })).json()) as {
                data: Record<string, unknown>;
              }
            ).data;
          const document = await get(`/v1/documents/${documentIds.ACMEKILNS_2023_10K}`);
          const company = await get(`/v1/companies/${document.company_id}`);
          seen.stored = {
            fiscalYearEnd: company.fiscal_year_end as number,
            pages: document.passages as Array<{ page: number; content: string }>,
          };
        },
      );
      if (!seen.stored) throw new Error('the filing was not stored');
      const { fiscalYearEnd, pages } = seen.stored;
      expect(fiscalYearEnd, 'the fiscal year end read from the cover').to.equal(6);
      // FinanceBench page 3 is the document's page 4: the blank page 2 keeps its place.
      expect(pages.find((passage) => passage.content.includes('Purchases of property'))?.page).to.equal(4);
      expect(report).to.include({ companies: 1, filings: 1, pages: 4 });
      expect(report.results.map((result) => [result.id, result.numeric])).to.deep.equal([
        ['q1', true],
        ['q2', true],
        ['q3', false],
      ]);
      for (const result of report.results) expect(result.answer, result.id).to.be.a('string').and.not.equal('');
      const { questions, right, wrong, not_found: notFound } = report.numeric;
      expect(questions).to.equal(2);
      expect(right + wrong + notFound).to.equal(2);
      expect(Object.keys(report.by_question_type)).to.deep.equal(['metrics-generated']);
      expect(Object.keys(report.by_question_reasoning)).to.deep.equal([
        'Information extraction',
        'Numerical reasoning',
      ]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
