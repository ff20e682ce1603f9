import { expect } from 'chai';
import { score } from '../bench/eval-ai';

type Question = Parameters<typeof score>[0];
const question = (kind: string, period: string, metric: string, gold: number[] | null): Question => ({
  id: 'q',
  kind,
  messages: [],
  ticker: 'TSLA',
  period,
  metric,
  gold,
  unit: 'usd',
  answerable: gold !== null,
});

describe('the analyst eval scorer (bench/eval-ai)', () => {
  const loss = question('value-fy', 'FY2019', 'net_income', [-862e6]);
  it('matches a negative gold only with a sign, parentheses or a loss word next to the figure', () => {
    expect(score(loss, "TSLA's net income for FY2019 was $862 million.").right).to.equal(false);
    expect(score(loss, 'TSLA had a net loss of $862 million in fiscal 2019.').right).to.equal(true);
    expect(score(loss, 'TSLA net income in fiscal year 2019: ($862 million).').right).to.equal(true);
    expect(score(loss, 'TSLA net income for FY2019 was -$862 million.').right).to.equal(true);
  });

  const quarter = question('value-q', 'Q3-2024', 'net_income', [21448e6]);
  it('reads the written forms of a period and flags figures given for another period or for none', () => {
    expect(score(quarter, "Apple's profit in the third quarter of fiscal 2024 was $21.45 billion.")).to.include({
      right: true,
      otherPeriod: false,
    });
    expect(score(quarter, "Apple's profit in Q3 FY24 was $21.45 billion.")).to.include({
      right: true,
      otherPeriod: false,
    });
    expect(score(quarter, "Apple's profit was $21.45 billion.")).to.include({ right: false, otherPeriod: true });
    expect(
      score(quarter, "Apple's profit in Q3 FY24 was $21.45 billion. In Q2 2024 net income was $23.6 billion.")
        .otherPeriod,
    ).to.equal(true);
  });

  const missing = question('missing', 'FY2005', 'revenue', null);
  it('counts a missing answer right only when "not available" comes first and later figures are labelled as another period', () => {
    expect(score(missing, 'Revenue was $13.9 billion in FY2005. Actually that is not available.').right).to.equal(
      false,
    );
    expect(score(missing, 'Revenue for FY2005 is not available. Revenue in FY2007 was $24.58 billion.')).to.include({
      right: false,
      otherPeriod: true,
    });
    expect(score(missing, 'Apple has no debt; revenue was $24.58 billion in 2007.').right).to.equal(false);
    expect(
      score(
        missing,
        'Revenue for FY2005 is not available. The nearest stored period is FY2007: revenue $24.58 billion.',
      ),
    ).to.include({ right: true, otherPeriod: false });
  });
});
