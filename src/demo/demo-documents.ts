import type { DemoDataset, Row } from './demo-data';
import type { IncomeStatement } from '../statements/income-statement.entity';
import type { CashFlowStatement } from '../statements/cash-flow-statement.entity';
import type { BalanceSheet } from '../statements/balance-sheet.entity';

/** A document of the demo data, before it is tied to a company id. */
export interface DemoDocument {
  ticker: string;
  title: string;
  docType: string;
  period: string | null;
  content: string;
}

/** What each sector's filings talk about; the risk paragraphs differ by sector so search has something to tell apart. */
const SECTOR_TEXT: Record<string, { business: string; risks: string[] }> = {
  'Information Technology': {
    business:
      'Demand follows enterprise IT budgets and data-center build-outs; products are sold through distributors, cloud marketplaces and a direct enterprise sales force.',
    risks: [
      'We depend on a small number of contract foundries and component suppliers; capacity constraints or export controls on advanced chips could delay shipments.',
      'Rapid technological change could make our products obsolete if our research and development does not keep pace with competitors.',
      'A cybersecurity incident or data breach affecting our software platform could harm customer trust and expose us to litigation.',
    ],
  },
  'Health Care': {
    business:
      'Revenue comes from prescription products, diagnostics and services reimbursed by public and private payers.',
    risks: [
      'Clinical trials may fail to show efficacy or safety, and regulators such as the FDA may not approve our product candidates.',
      'Drug pricing reform and changes in reimbursement by government payers could reduce our net prices.',
      'Patent expirations expose our key products to generic and biosimilar competition.',
    ],
  },
  Financials: {
    business:
      'Income comes from fees on payments, asset management and lending, and from net interest on client balances.',
    risks: [
      'Changes in interest rates affect our net interest income and the value of our investment portfolio.',
      'Credit losses could rise if borrowers default during an economic downturn.',
      'We are subject to extensive banking and capital regulation, and new capital requirements could limit dividends and buybacks.',
    ],
  },
  'Consumer Discretionary': {
    business:
      'Sales are seasonal, with the holiday quarter the largest, and depend on consumer confidence and discretionary spending.',
    risks: [
      'A slowdown in consumer spending or higher unemployment would reduce demand for our products.',
      'Inventory markdowns could be required if fashion trends or holiday demand differ from our forecasts.',
      'Tariffs on imported goods and disruptions at overseas factories could raise our costs.',
    ],
  },
  'Consumer Staples': {
    business:
      'Branded household and food products are sold to grocers, mass merchants and club stores, with steady demand through the cycle.',
    risks: [
      'Commodity cost inflation in packaging, grains and edible oils may not be fully offset by price increases.',
      'Retailer consolidation and private-label brands put pressure on our shelf space and pricing.',
      'Product recalls or contamination could damage our brands.',
    ],
  },
  Energy: {
    business:
      'Earnings follow crude oil and natural gas prices; capital spending funds drilling, pipelines and refinery maintenance.',
    risks: [
      'Volatile oil and natural gas prices directly affect our revenue and the value of our reserves.',
      'Climate regulation and carbon emission limits could raise compliance costs and reduce demand for fossil fuels.',
      'Operational hazards such as well blowouts, spills and refinery outages could cause losses and environmental liability.',
    ],
  },
  Industrials: {
    business:
      'Products are sold under multi-year contracts with a large order backlog; aftermarket services provide recurring revenue.',
    risks: [
      'Supply chain disruptions for castings, electronics and steel could delay deliveries against our backlog.',
      'Fixed-price contracts expose us to cost overruns.',
      'Cyclical downturns in construction and aerospace reduce new orders.',
    ],
  },
  Materials: {
    business:
      'Output is sold to construction, packaging and automotive customers; energy and raw materials are the largest costs.',
    risks: [
      'Prices of our commodities are cyclical and can fall sharply when global capacity exceeds demand.',
      'Energy costs for our smelters and kilns are a large share of production costs.',
      'Environmental permits for mines and plants could be delayed or revoked.',
    ],
  },
  Utilities: {
    business:
      'Regulated electric and gas networks earn an allowed return on rate base; large capital programs modernize the grid.',
    risks: [
      'Rate cases may not allow us to recover our capital investments and operating costs in customer rates.',
      'Severe weather, wildfires and storms can damage our grid and lead to liability claims.',
      'Rising interest rates increase the cost of financing our capital program.',
    ],
  },
  'Communication Services': {
    business: 'Revenue comes from subscriptions and advertising across streaming, wireless and online platforms.',
    risks: [
      'Subscriber churn could rise as competitors offer cheaper bundles and exclusive content.',
      'Advertising revenue is sensitive to the economy and to changes in privacy rules that limit targeting.',
      'Content and spectrum costs require large, long-term financial commitments.',
    ],
  },
  'Real Estate': {
    business:
      'Rental income comes from long leases on warehouses, offices and data centers; occupancy and rent escalators drive growth.',
    risks: [
      'Tenant bankruptcies or lower occupancy would reduce rental income.',
      'Higher interest rates raise our cost of capital and can lower property valuations.',
      'Oversupply of new space in our markets could pressure rents.',
    ],
  },
};

const SCALES: Array<[number, string]> = [
  [1e12, 'trillion'],
  [1e9, 'billion'],
  [1e6, 'million'],
  [1e3, 'thousand'],
];

/** "USD 8.95 billion": amounts as a reader writes them, in the company's currency. */
export function formatAmount(value: number, currency: string): string {
  const sign = value < 0 ? '-' : '';
  const magnitude = Math.abs(value);
  for (const [size, word] of SCALES) {
    if (magnitude >= size) return `${sign}${currency} ${(magnitude / size).toFixed(2)} ${word}`;
  }
  return `${sign}${currency} ${magnitude.toFixed(0)}`;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function latestFiscalYear(rows: Array<Row<IncomeStatement>>, ticker: string): number {
  return Math.max(
    ...rows.filter((row) => row.ticker === ticker && row.fiscalQuarter === null).map((row) => row.fiscalYear),
  );
}

function find<T extends { ticker: string; period: string }>(rows: T[], ticker: string, period: string): T | undefined {
  return rows.find((row) => row.ticker === ticker && row.period === period);
}

/** Management's discussion of the newest fiscal year, written from the company's own figures. */
function discussion(
  name: string,
  currency: string,
  year: number,
  income: Row<IncomeStatement>,
  prior: Row<IncomeStatement>,
  cash: Row<CashFlowStatement>,
  balance: Row<BalanceSheet>,
): string {
  const revenue = income.revenue as number;
  const growth = (revenue - (prior.revenue as number)) / Math.abs(prior.revenue as number);
  const grossMargin = (income.grossProfit as number) / revenue;
  const priorGross = (prior.grossProfit as number) / (prior.revenue as number);
  const operatingMargin = (income.operatingIncome as number) / revenue;
  const netIncome = income.netIncome as number;
  const debt = (balance.shortTermDebt ?? 0) + (balance.longTermDebt ?? 0);
  const returned = -((cash.dividendsPaid ?? 0) + (cash.shareRepurchases ?? 0));
  return [
    `Results of operations, fiscal ${year}`,
    `${name} reported revenue of ${formatAmount(revenue, currency)} for fiscal ${year}, ${growth >= 0 ? 'an increase' : 'a decrease'} of ${percent(Math.abs(growth))} from ${formatAmount(prior.revenue as number, currency)} in fiscal ${year - 1}. ` +
      `Gross margin was ${percent(grossMargin)}, ${grossMargin >= priorGross ? 'up' : 'down'} from ${percent(priorGross)} a year earlier, and operating margin was ${percent(operatingMargin)}.`,
    netIncome >= 0
      ? `Net income was ${formatAmount(netIncome, currency)}, or ${currency} ${(income.epsDiluted as number).toFixed(2)} per diluted share.`
      : `The net loss was ${formatAmount(-netIncome, currency)}, or ${currency} ${(-(income.epsDiluted as number)).toFixed(2)} per diluted share.`,
    `Liquidity and capital resources`,
    `Net cash provided by operating activities was ${formatAmount(cash.operatingCashFlow as number, currency)} and capital expenditures were ${formatAmount(-(cash.capitalExpenditure as number), currency)}, leaving free cash flow of ${formatAmount(cash.freeCashFlow as number, currency)}. ` +
      (returned > 0
        ? `We returned ${formatAmount(returned, currency)} to shareholders through dividends and share repurchases. `
        : 'We did not return cash to shareholders during the year. ') +
      `At fiscal year end we held cash and cash equivalents of ${formatAmount(balance.cashAndEquivalents as number, currency)} and total debt of ${formatAmount(debt, currency)}.`,
  ].join('\n\n');
}

/** Three documents per demo company: business overview, management's discussion of its newest year, risk factors. */
export function generateDemoDocuments(data: DemoDataset): DemoDocument[] {
  const documents: DemoDocument[] = [];
  for (const company of data.companies) {
    const sector = SECTOR_TEXT[company.sector];
    const year = latestFiscalYear(data.incomeStatements, company.ticker);
    const period = `FY${year}`;
    const income = find(data.incomeStatements, company.ticker, period);
    const prior = find(data.incomeStatements, company.ticker, `FY${year - 1}`);
    const cash = find(data.cashFlowStatements, company.ticker, period);
    const balance = find(data.balanceSheets, company.ticker, period);
    documents.push({
      ticker: company.ticker,
      title: `${company.name}: business overview`,
      docType: 'note',
      period: null,
      content: `${company.name} (${company.ticker}) is a ${company.industry ?? company.sector} company in the ${company.sector} sector, listed on ${company.exchange}.\n\n${company.description}\n\n${sector.business}\n\nThe company employs about ${company.employees?.toLocaleString('en-US')} people and reports in ${company.currency}; its fiscal year ends in month ${company.fiscalYearEnd}.`,
    });
    if (income && prior && cash && balance) {
      documents.push({
        ticker: company.ticker,
        title: `${company.name} fiscal ${year} annual report: management's discussion and analysis`,
        docType: '10-K',
        period,
        content: discussion(company.name, company.currency, year, income, prior, cash, balance),
      });
    }
    documents.push({
      ticker: company.ticker,
      title: `${company.name} fiscal ${year} annual report: risk factors`,
      docType: '10-K',
      period,
      content: `Risk factors\n\n${sector.risks.join('\n\n')}\n\nMacroeconomic conditions, foreign exchange movements and changes in tax law could also affect ${company.name}'s results.`,
    });
  }
  return documents;
}
