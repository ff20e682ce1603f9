import { expect } from 'chai';
import { coreName, findCompanies, type CompanyRef } from '../src/understanding/companies';
import { findMetrics } from '../src/understanding/metrics';
import { parsePeriods, type PeriodAsk } from '../src/ai/question/periods';

/** A range of periods, as parsePeriods reads "from … to …". */
type RangeAsk = Extract<PeriodAsk, { kind: 'range' }>;
import { parseConversation, parseQuestion } from '../src/ai/question/question';
import { separateInstructions } from '../src/ai/question/instructions';

/** A directory like the database's, with the names as the SEC spells them and the newest annual revenue. */
const DIRECTORY: CompanyRef[] = [
  { id: 1, ticker: 'MSFT', name: 'MICROSOFT CORP', size: 245e9 },
  { id: 2, ticker: 'GOOGL', name: 'Alphabet Inc.', size: 350e9 },
  { id: 3, ticker: 'AMZN', name: 'AMAZON COM INC', size: 638e9 },
  { id: 4, ticker: 'KO', name: 'The Coca-Cola Company', size: 47e9 },
  { id: 5, ticker: 'F', name: 'Ford Motor Co', size: 185e9 },
  { id: 6, ticker: 'MRVL', name: 'Marvell Technology, Inc.', size: 5.8e9 },
  { id: 7, ticker: 'GE', name: 'General Electric Company', size: 38e9 },
  { id: 8, ticker: 'SNOW', name: 'Snowflake Inc.', size: 3.6e9 },
];

const tickers = (question: string) => findCompanies(question, DIRECTORY).map((m) => m.company.ticker);
const labels = (text: string) => {
  const ask = parsePeriods(text);
  return ask?.kind === 'exact' ? ask.periods.map((p) => p.label) : ask;
};

describe('question understanding', () => {
  describe('companies', () => {
    it('strips legal suffixes and punctuation from registered names', () => {
      expect(coreName('MICROSOFT CORP')).to.equal('microsoft');
      expect(coreName('Marvell Technology, Inc.')).to.equal('marvell');
      expect(coreName('The Coca-Cola Company')).to.equal('coca cola');
    });

    it('finds companies by ticker, name and brand, ignoring punctuation, in the order named', () => {
      expect(tickers('How did Microsoft, Inc. do?')).to.deep.equal(['MSFT']);
      expect(tickers('Google versus Amazon.com on capex')).to.deep.equal(['GOOGL', 'AMZN']);
      expect(tickers('Is coca-cola more profitable than MSFT?')).to.deep.equal(['KO', 'MSFT']);
      expect(tickers("Marvell's R&D and Snowflake's margins")).to.deep.equal(['MRVL', 'SNOW']);
      expect(tickers('what about amzn')).to.deep.equal(['AMZN']);
      // A one-word name counts written as a name: "target" and "block" are words too.
      const withWords = [
        ...DIRECTORY,
        { id: 10, ticker: 'TGT', name: 'TARGET CORP' },
        { id: 11, ticker: 'XYZ', name: 'Block, Inc.' },
      ];
      const named = (question: string) => findCompanies(question, withWords).map((m) => m.company.ticker);
      expect(named('Did Microsoft beat its margin target in the block of quarters?')).to.deep.equal(['MSFT']);
      expect(named('How did Target and Block do in FY2023?')).to.deep.equal(['TGT', 'XYZ']);
      // A ticker in lower case only for a company with figures ("apps" is a word first); in capitals always.
      const withApps = [...DIRECTORY, { id: 12, ticker: 'APPS', name: 'Digital Turbine, Inc.', size: null }];
      expect(findCompanies('Which apps drove Microsoft revenue?', withApps).map((m) => m.company.ticker)).to.deep.equal(
        ['MSFT'],
      );
      expect(findCompanies('What about APPS?', withApps).map((m) => m.company.ticker)).to.deep.equal(['APPS']);
    });

    it('picks the company a name fits best among thousands, and lists the candidates when several fit alike', () => {
      const market: CompanyRef[] = [
        { id: 1, ticker: 'AAPL', name: 'Apple Inc.', size: 391e9 },
        { id: 2, ticker: 'APLE', name: 'Apple Hospitality REIT, Inc.', size: 1.4e9 },
        { id: 3, ticker: 'META', name: 'Meta Platforms, Inc.', size: 164e9 },
        { id: 4, ticker: 'MTA', name: 'Metalla Royalty & Streaming Ltd.', size: null },
        { id: 5, ticker: 'DAL', name: 'DELTA AIR LINES, INC.', size: null },
        { id: 6, ticker: 'DLA', name: 'DELTA APPAREL, INC', size: null },
        { id: 7, ticker: 'FSLR', name: 'First Solar, Inc.', size: 4.2e9 },
        { id: 8, ticker: 'FCNCA', name: 'FIRST CITIZENS BANCSHARES INC /DE/', size: 9e9 },
      ];
      const read = (question: string) => {
        const reading = parseQuestion(question, market);
        return {
          companies: reading.companies.map((c) => c.ticker),
          ambiguous: reading.ambiguousCompany?.candidates.map((c) => c.ticker) ?? null,
        };
      };
      // The whole name before its first word; the larger of two companies a name fits alike.
      expect(read('What was Apple revenue in FY2024?')).to.deep.equal({ companies: ['AAPL'], ambiguous: null });
      expect(read('How did Meta do in 2024?')).to.deep.equal({ companies: ['META'], ambiguous: null });
      expect(read('What is First Solar gross margin?')).to.deep.equal({ companies: ['FSLR'], ambiguous: null });
      // A word right after a company's name qualifies it: "Apple Hospitality" is named whole, "Meta Apple" is not.
      expect(read('What was Apple Hospitality revenue?').companies).to.deep.equal(['APLE']);
      // "Delta" fits two companies alike and neither size is known: no silent pick.
      expect(read('What was Delta operating income in 2023?')).to.deep.equal({
        companies: [],
        ambiguous: ['DAL', 'DLA'],
      });
      expect(parseQuestion('What was Delta operating income in 2023?', market).unknownCompany).to.equal(null);
      // "First" is no company's name by itself.
      expect(read('What was the first quarter revenue of First Citizens?')).to.deep.equal({
        companies: ['FCNCA'],
        ambiguous: null,
      });
    });

    it('does not take common words for tickers or generic first names', () => {
      expect(tickers('Give me a general view of free cash flow')).to.deep.equal([]);
      expect(tickers('if the margin rose, go on')).to.deep.equal([]);
      const withCostco = [...DIRECTORY, { id: 9, ticker: 'COST', name: 'COSTCO WHOLESALE CORP /NEW' }];
      expect(
        findCompanies('What was the cost of revenue at MSFT?', withCostco).map((m) => m.company.ticker),
      ).to.deep.equal(['MSFT']);
      expect(findCompanies('COST and costco margins', withCostco).map((m) => m.company.ticker)).to.deep.equal(['COST']);
      // One-letter tickers (Ford's "F") are too ambiguous to find in prose; two letters in capitals count.
      expect(tickers('GE and F in FY2023')).to.deep.equal(['GE']);
    });

    it('calls a company that is not in the data unknown', () => {
      const reading = parseQuestion("What was Brightwater Dynamics' operating income in 2023?", DIRECTORY);
      expect(reading.companies).to.deep.equal([]);
      expect(reading.unknownCompany).to.equal('Brightwater Dynamics');
      expect(parseQuestion('And what about EBITDA?', DIRECTORY).unknownCompany).to.equal(null);
    });

    it('names an unknown company listed beside known ones instead of dropping it', () => {
      const reading = parseQuestion('Compare Microsoft and Quillfeather revenue', DIRECTORY);
      expect(reading.companies.map((c) => c.ticker)).to.deep.equal(['MSFT']);
      expect(reading.unknownCompany).to.equal('Quillfeather');
      expect(parseQuestion('MSFT vs Quillfeather Robotics net income in FY2024', DIRECTORY).unknownCompany).to.equal(
        'Quillfeather Robotics',
      );
      expect(
        parseQuestion("Compare Microsoft's and Alphabet's revenue and net income in fiscal 2024", DIRECTORY)
          .unknownCompany,
      ).to.equal(null);
    });
  });

  describe('periods', () => {
    it('reads fiscal years as people write them', () => {
      for (const text of [
        'in fiscal 2023',
        'for FY 2023',
        'FY23 numbers',
        'the 2023 fiscal year',
        'in fiscal year 2023',
        "FY'23",
      ]) {
        expect(labels(text), text).to.deep.equal(['FY2023']);
      }
    });

    it('reads fiscal quarters as people write them', () => {
      for (const text of [
        'Q1 2026',
        'in Q1 FY26',
        'the first quarter of fiscal 2026',
        'Q1-2026',
        'fiscal Q1 2026',
        'Q1 of fiscal year 2026',
        '2026 Q1',
      ]) {
        expect(labels(text), text).to.deep.equal(['Q1-2026']);
      }
    });

    it('reads ranges, the last n periods, every quarter of a year, TTM and latest', () => {
      expect(parsePeriods('from 2019 to 2022')).to.deep.include({ kind: 'range' });
      expect((parsePeriods('between FY2021 and FY2019') as RangeAsk).from.label).to.equal('FY2019');
      expect(parsePeriods('over the last 5 years')).to.deep.equal({ kind: 'last', count: 5, type: 'ANNUAL' });
      expect(parsePeriods('in the past eight quarters')).to.deep.equal({ kind: 'last', count: 8, type: 'QUARTER' });
      const quarters = parsePeriods('each quarter of fiscal 2022') as RangeAsk;
      expect([quarters.from.label, quarters.to.label]).to.deep.equal(['Q1-2022', 'Q4-2022']);
      expect(parsePeriods('TTM free cash flow')).to.deep.equal({ kind: 'ttm' });
      expect(parsePeriods('the latest quarter')).to.deep.equal({ kind: 'latest', type: 'QUARTER', said: true });
      expect(parsePeriods('how is it doing')).to.equal(null);
    });
  });

  describe('metrics', () => {
    it('finds statement fields and ratios by their common names, longest name first', () => {
      const keys = (text: string) => findMetrics(text).map((m) => m.key);
      expect(keys('net sales and profit')).to.deep.equal(['revenue', 'netIncome']);
      expect(keys('capex vs R&D')).to.deep.equal(['capitalExpenditure', 'researchAndDevelopment']);
      expect(keys('its cash position')).to.deep.equal(['cashAndEquivalents']);
      expect(keys('diluted EPS')).to.deep.equal(['epsDiluted']);
      expect(keys('gross profit margin')).to.deep.equal(['grossMargin']);
      expect(keys('stockholders\u2019 equity and ROE')).to.deep.equal(['totalEquity', 'returnOnEquity']);
      expect(keys('cash from operations and free cash flow')).to.deep.equal(['operatingCashFlow', 'freeCashFlow']);
      expect(keys('How is it doing on cash flow?')).to.deep.equal([]);
    });
  });

  describe('intents and follow-ups', () => {
    const intent = (text: string) => parseQuestion(text, DIRECTORY).intent;
    it('tells a value, a series, a change, a comparison, drivers and risks apart', () => {
      expect(intent('Microsoft revenue FY2022')).to.equal('value');
      expect(intent('How did Ford net income develop from 2019 to 2021?')).to.equal('series');
      expect(intent('How much did MSFT operating income grow in fiscal 2022?')).to.equal('change');
      expect(intent('Compare Google and Amazon capex in 2023')).to.equal('comparison');
      expect(intent('Why did Snowflake revenue grow?')).to.equal('drivers');
      expect(intent('What are the main risks for Marvell?')).to.equal('risks');
    });

    it('lets a follow-up inherit company, period and metric from the turns before', () => {
      const reading = parseConversation(
        ['What was Coca-Cola net income in Q2 2023?', 'And its revenue?', 'What about fiscal 2021?'],
        DIRECTORY,
      );
      expect(reading?.companies.map((c) => c.ticker)).to.deep.equal(['KO']);
      expect(reading?.metrics.map((m) => m.key)).to.deep.equal(['revenue']);
      expect(labels(reading?.text ?? '')).to.deep.equal(['FY2021']);
      expect(reading?.inherited).to.include.members(['companies', 'metrics']);
    });

    it('reads a question apart from where it says to look and how to answer', () => {
      const ask = (text: string) => separateInstructions(text).question;
      expect(
        ask(
          'Using the cash flow statement, answer the following question to the best of your abilities: how much did Block (formerly known as Square) generate in cash flow from operating activities in FY2020? Answer in USD millions.',
        ),
      ).to.equal('how much did Block generate in cash flow from operating activities in FY2020?');
      expect(
        ask(
          'Answer the following question as if you are an equity research analyst. According to the details clearly outlined within the balance sheet, what is the FY2015 current ratio (CR) for AMD?',
        ),
      ).to.equal('what is the FY2015 current ratio for AMD?');
      // A leading clause that names a period or a company's document says what is asked: it stays.
      expect(ask('Based on FY2023 results, how did Coca-Cola do?')).to.equal(
        'Based on FY2023 results, how did Coca-Cola do?',
      );
      expect(ask("According to Apple's income statement, what was revenue?")).to.equal(
        "According to Apple's income statement, what was revenue?",
      );
    });

    it('gives no figure for a metric the question defines otherwise than the service computes it', () => {
      const reading = (text: string) => parseQuestion(text, DIRECTORY);
      const dpo = reading(
        'What is FY2018 days payable outstanding (DPO) for Coca-Cola? DPO is defined as: 365 * (average accounts payable between FY2017 and FY2018) / (FY2018 COGS + change in inventory between FY2017 and FY2018).',
      );
      // Its definition is read over stored fields: evaluated as defined, not with the service's own formula.
      expect(dpo.defined?.name).to.equal('DPO');
      expect(dpo.definitionGap).to.equal(null);
      // A definition with words that name no stored field cannot be evaluated, nor known to be the service's.
      const unreadable = reading(
        'What is FY2018 days payable outstanding for Coca-Cola? DPO is defined as: 365 * average trade payables / purchases from suppliers.',
      );
      expect(unreadable.metrics.map((m) => m.key)).to.deep.equal(['daysPayablesOutstanding']);
      expect(unreadable.defined).to.equal(null);
      expect(unreadable.definitionGap?.computed).to.equal('365 × avg accounts_payable / annualized cost_of_revenue');
      // The same fields, averaged as the service does: its figure is the one defined.
      const roa = reading(
        "What is Coca-Cola's FY2022 return on assets (ROA)? ROA is defined as: FY2022 net income / (average total assets between FY2021 and FY2022).",
      );
      expect(roa.definitionGap).to.equal(null);
      // The year-end balance where the service averages: another figure.
      const roaAtYearEnd = reading("What is Coca-Cola's FY2022 ROA? ROA is defined as: net income / total assets.");
      expect(roaAtYearEnd.defined?.expression).to.include({ kind: 'operation', operator: '/' });
      expect(
        reading(
          "What is Coca-Cola's FY2016 working capital ratio? Define working capital ratio as total current assets divided by total current liabilities.",
        ).definitionGap,
      ).to.equal(null);
    });

    it('reads a measure composed of known ones, for one company at one period or averaged over the years named', () => {
      const composed = (text: string) => {
        const { defined } = parseQuestion(text, DIRECTORY);
        return defined?.composed ? { name: defined.name, formula: defined.formula, unit: defined.unit } : null;
      };
      expect(composed("What is Coca-Cola's FY2021 COGS % margin?")).to.deep.equal({
        name: 'COGS margin',
        formula: 'cost of revenue / revenue',
        unit: 'fraction',
      });
      expect(composed('What was Coca-Cola’s SG&A as a percentage of net sales in FY2023?')?.formula).to.equal(
        'selling, general and administrative expense / revenue',
      );
      expect(
        composed('What is the FY2018 - FY2020 3 year average of capex as a % of revenue for Coca-Cola?'),
      ).to.deep.equal({
        name: '3 year average of capex as a % of revenue',
        formula: 'the mean over FY2018, FY2019, FY2020 of capital expenditure / revenue',
        unit: 'fraction',
      });
      expect(composed('What is the average net profit margin of Coca-Cola from FY2019 to FY2021?')?.formula).to.equal(
        'the mean over FY2019, FY2020, FY2021 of net margin',
      );
      expect(
        composed('What was the compound annual growth rate of Coca-Cola net sales from FY2019 to FY2022?'),
      ).to.deep.equal({
        name: 'net sales CAGR',
        formula: '(revenue in FY2022 / revenue in FY2019)^(1/3) - 1',
        unit: 'fraction',
      });
      expect(composed("What is Coca-Cola's FY2022 earnings retention ratio?")?.formula).to.equal(
        '(net income - dividends paid) / net income',
      );
      // A name the question defines stands for its definition.
      expect(
        composed(
          'What is the FY2022 unadjusted EBITDA less capex for Coca-Cola? Define unadjusted EBITDA as unadjusted operating income + depreciation and amortization.',
        )?.formula,
      ).to.equal('(operating income + depreciation and amortization) - capital expenditure');
      // The question's own definition of a measure wins over the service's reading of its name.
      const defined = parseQuestion(
        'What is the FY2018 fixed asset turnover ratio for Coca-Cola? Fixed asset turnover ratio is defined as: FY2018 revenue / (average PP&E between FY2017 and FY2018).',
        DIRECTORY,
      ).defined;
      expect(defined?.composed).to.equal(undefined);
      expect(defined?.name).to.equal('Fixed asset turnover ratio');
      // Not composed: one stored field or ratio, a series, several companies, a change.
      expect(composed('What was Coca-Cola’s gross margin in FY2023?')).to.equal(null);
      expect(composed('What was Coca-Cola’s COGS margin from FY2021 to FY2023?')).to.equal(null);
      expect(composed('Compare the COGS % margin of Coca-Cola and General Electric in FY2023.')).to.equal(null);
      expect(composed('What was Coca-Cola’s revenue from FY2021 to FY2023?')).to.equal(null);
    });

    it('reads a question about the whole market into a screen: the ranking measure, conditions and how many', () => {
      const screen = (text: string) => {
        const ask = parseQuestion(text, DIRECTORY).screen;
        return ask
          ? {
              rankBy: ask.rankBy.key,
              descending: ask.descending,
              conditions: ask.conditions.map((c) => [c.metric.key, c.op, c.value]),
              limit: ask.limit,
            }
          : null;
      };
      expect(screen('Which company has the highest net margin in fiscal 2024?')).to.deep.equal({
        rankBy: 'netMargin',
        descending: true,
        conditions: [],
        limit: 5,
      });
      expect(screen('Show me companies with gross margin above 60% and revenue over $10 billion')).to.deep.equal({
        rankBy: 'grossMargin',
        descending: true,
        conditions: [
          ['grossMargin', '>', 0.6],
          ['revenue', '>', 10e9],
        ],
        limit: 10,
      });
      expect(screen('Top 3 companies by lowest debt to equity')?.descending).to.equal(false);
      // The largest capex is the most negative stored value (an outflow).
      expect(screen('Which companies had the largest capex in FY2024?')?.descending).to.equal(false);
      // Not about the market: a named company, or no measure, or nothing to rank or filter by.
      expect(screen('Which segment of Microsoft has the highest margin?')).to.equal(null);
      expect(screen('Which companies are the biggest?')).to.equal(null);
      expect(screen('Which companies report revenue?')).to.equal(null);
    });

    it('answers a follow-up on a topic ("And its debt?") from the statements, not as a figure of the filings', () => {
      const reading = parseConversation(['How is Coca-Cola doing on cash flow?', 'And its debt?'], DIRECTORY);
      expect(reading?.companies.map((c) => c.ticker)).to.deep.equal(['KO']);
      expect(reading?.figure).to.equal(null);
      const narrowed = parseConversation(
        ['What was Coca-Cola revenue in 2024?', 'And its debt in Latin America?'],
        DIRECTORY,
      );
      expect(narrowed?.figure?.qualifier).to.include.members(['latin', 'america']);
    });
  });
});
