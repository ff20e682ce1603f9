import { expect } from 'chai';
import {
  answerFigures,
  askedDecimals,
  askedScale,
  citesGoldPage,
  goldOf,
  judge,
  type Gold,
} from '../bench/financebench-scoring';

const CAPEX =
  'What is the FY2018 capital expenditure amount (in USD millions) for 3M? Give a response by relying on the cash flow statement.';

function gold(question: string, answer: string): Gold {
  const read = goldOf(question, answer);
  if (!read) throw new Error(`no gold in ${answer}`);
  return read;
}

describe('the FinanceBench eval scorer (bench/financebench-scoring)', () => {
  it('reads the unit and the rounding a question asks for', () => {
    expect(askedScale(CAPEX)).to.equal(1e6);
    expect(askedScale('How much (in USD billions) did American Water Works pay out in cash dividends?')).to.equal(1e9);
    expect(askedScale('Answer in USD thousands.')).to.equal(1e3);
    expect(askedScale('How much does Pfizer expect to pay in USD million?')).to.equal(1e6);
    expect(askedScale('Figures are in millions of dollars.')).to.equal(1e6);
    expect(askedScale('What is the quick ratio?')).to.equal(null);
    expect(askedDecimals('Answer in units of percents and round to one decimal place.')).to.equal(1);
    expect(askedDecimals('Round your answer to two decimal places.')).to.equal(2);
    expect(askedDecimals('Round to the nearest whole number.')).to.equal(0);
    expect(askedDecimals('What is the ratio?')).to.equal(null);
  });

  it('takes a gold only from an answer that starts with a figure, in the units asked', () => {
    expect(gold(CAPEX, '$1577.00')).to.deep.equal({ value: 1577, kind: 'money', askedScale: 1e6, tolerance: 15.77 });
    expect(gold('Round to one decimal place.', '65.4%')).to.include({ value: 65.4, kind: 'percent' });
    expect(gold('What is the operating cash flow ratio?', '0.66')).to.include({ value: 0.66, kind: 'number' });
    expect(gold('What is the FY2022 return on assets? Round your answer to two decimal places.', '-0.02')).to.include({
      value: -0.02,
      tolerance: 0.005,
    });
    expect(
      gold(
        'What percent occurred in Q4?',
        '36%. The answer here assumes FY2023 refers to the 12 months ended on January 28, 2023',
      ),
    ).to.include({ value: 36, kind: 'percent' });
    expect(
      gold('By how much did Pepsico increase its revolving credit agreement?', '$400,000,000 increase.'),
    ).to.include({ value: 4e8, kind: 'money', askedScale: null });
    expect(gold('How much was paid (in USD billions)?', '$0.40')).to.include({ value: 0.4, askedScale: 1e9 });
    expect(gold('What is the gain (in USD billions)?', '$1.6 billion')).to.include({ value: 1.6 });
    for (const text of [
      'They could receive $66.56 per share.',
      'Yes. It decreased.',
      'No, American Water Works had negative working capital of -$1561M in FY 2022.',
    ]) {
      expect(goldOf('How much?', text), text).to.equal(null);
    }
  });

  it('reads scale words, currencies, parentheses and percentages, and leaves references and dates out', () => {
    const values = (text: string) => answerFigures(text).map((figure) => figure.value);
    expect(values('Capex was $1,577 million, or US$1.58 billion, or USD 1.6bn, or 1,577 mn.')).to.deep.equal([
      1577e6, 1.58e9, 1.6e9, 1577e6,
    ]);
    expect(values('Working capital was -$1561M; net loss ($2.0 billion); margin (2.0%).')).to.deep.equal([
      -1561e6, -2e9, -2,
    ]);
    expect(
      values(
        'As of May 26, 2023 [PepsiCo 8-K, chunk 8123], page 12 of the 10-K, in Q2 and FY2022: $8.4 billion over a 3-year span.',
      ),
    ).to.deep.equal([8.4e9]);
    expect(values('DPO was 42.7 days and 9.5 times.')).to.deep.equal([42.7, 9.5]);
    expect(values("3M's 3M Company capex: $1.6B")).to.deep.equal([1.6e9]);
  });

  const capex = gold(CAPEX, '$1577.00');
  it('judges the first figure of the gold kind: right within the rounding or 1%, another figure wrong', () => {
    expect(
      judge("3M's capital expenditure for FY2018 was $1,577 million [3M 10-K FY2018, page 60].", capex),
    ).to.deep.equal({ verdict: 'right', figure: '$1,577 million', goldAnywhere: true });
    expect(judge('Purchases of property, plant and equipment in fiscal 2018: $1.58 billion.', capex).verdict).to.equal(
      'right',
    );
    expect(judge('Capital expenditure for FY2018 was 1,577 (USD millions).', capex).verdict).to.equal('right');
    expect(judge("3M's capital expenditure for FY2018 was $1,373 million.", capex)).to.include({
      verdict: 'wrong',
      figure: '$1,373 million',
      goldAnywhere: false,
    });
    expect(judge('Revenue for FY2018 was $32,765 million; capital expenditure $1,577 million.', capex)).to.include({
      verdict: 'wrong',
      goldAnywhere: true,
    });
    expect(judge('Capex was $1.7 billion in FY2018.', capex).verdict).to.equal('wrong');

    const growth = gold('What is the change in operating income (in percents, round to one decimal place)?', '65.4%');
    expect(
      judge('Operating income rose from $903 million in FY2015 to $1,494 million in FY2016, up 65.4%.', growth).verdict,
    ).to.equal('right');
    expect(judge('Operating income grew 65.1%.', growth).verdict).to.equal('right');
    expect(judge('Operating income grew 64.0%.', growth).verdict).to.equal('wrong');

    const roa = gold('What is the FY2022 return on assets? Round your answer to two decimal places.', '-0.02');
    expect(judge("AES's return on assets for FY2022 was (2.0%).", roa).verdict).to.equal('right');
    expect(judge("AES's return on assets for FY2022 was 2.0%.", roa).verdict).to.equal('wrong');

    const credit = gold('By how much did Pepsico increase its credit agreement?', '$400,000,000 increase.');
    expect(judge('On May 26, 2023 PepsiCo increased it by $400 million.', credit).verdict).to.equal('right');
  });

  it('says not found when the answer has no figure or refuses before its first figure', () => {
    expect(
      judge(
        "3M's capital expenditure for FY2018 is not available: the data holds no statements for that period. For reference only, not the period asked: FY2017, $1,373 million.",
        capex,
      ).verdict,
    ).to.equal('not found');
    expect(
      judge(
        'No stored filing of MMM gives capital expenditure for FY2018: I looked for it among the figures of its 3 stored documents and found none.',
        capex,
      ).verdict,
    ).to.equal('not found');
    expect(judge('3M (MMM) is an industrial company.', capex)).to.deep.equal({
      verdict: 'not found',
      figure: null,
      goldAnywhere: false,
    });
    expect(judge('Capex for FY2018 was $1,577 million; the FY2019 figure is not available.', capex).verdict).to.equal(
      'right',
    );
  });

  it('finds the gold page among the citations, FinanceBench pages counting from 0', () => {
    const goldPages = [{ documentId: 7, page: 59 }];
    expect(citesGoldPage([{ documentId: 7, page: 60 }], goldPages)).to.equal(true);
    expect(
      citesGoldPage(
        [
          { documentId: 7, page: 59 },
          { documentId: 8, page: 60 },
          { documentId: null, page: null },
        ],
        goldPages,
      ),
    ).to.equal(false);
  });
});
