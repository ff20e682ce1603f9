/**
 * Deterministic demo dataset: fictional companies with linked income statements, balance sheets and cash flow
 * statements, so the service has something realistic to show without any licensed market data.
 *
 * The numbers come from a small three-statement model run quarter by quarter. Every balance-sheet change is
 * routed through the cash flow statement, so the balance sheet balances exactly in every period and the cash
 * balance moves by exactly the net change in cash. All money is simulated in whole thousands of the reporting
 * currency and only multiplied out at the end, so every identity holds with integer arithmetic.
 *
 * Pure data logic: entity classes are imported as types only (they carry ORM/GraphQL decorators), and the only
 * source of variation is a seeded PRNG, so every call returns the same dataset.
 */
import type { Company } from '../companies/company.entity';
import type { BalanceSheet } from '../statements/balance-sheet.entity';
import type { CashFlowStatement } from '../statements/cash-flow-statement.entity';
import type { IncomeStatement } from '../statements/income-statement.entity';
import { fiscalYear, periodDates, quarter, type FiscalPeriod } from '../statements/fiscal-period';

export type DemoCompany = Omit<Company, 'id' | 'cik' | 'formerNames'>;
/** A statement row keyed by ticker instead of a database id; the seeder resolves tickers to company ids. */
export type Row<T> = Omit<T, 'id' | 'companyId'> & { ticker: string };

export interface DemoDataset {
  companies: DemoCompany[];
  incomeStatements: Row<IncomeStatement>[];
  balanceSheets: Row<BalanceSheet>[];
  cashFlowStatements: Row<CashFlowStatement>[];
}

/** Every company reports from this fiscal year onward. */
export const DEMO_FIRST_FISCAL_YEAR = 2022;
/** No period ending after this date is generated. */
export const DEMO_LAST_PERIOD_END = '2026-09-30';

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness and rounding
// ---------------------------------------------------------------------------------------------------------------

interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [low, high). */
  between(low: number, high: number): number;
}

/** FNV-1a hash of a text, so each company's random stream depends only on its ticker, not on table order. */
function hashSeed(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Marsaglia's xorshift32: small and plenty for demo noise (not for anything that needs real randomness). */
function createRng(seedText: string): Rng {
  let state = hashSeed(seedText) || 0x2545f491; // xorshift must never start at zero
  const next = (): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x100000000;
  };
  for (let i = 0; i < 8; i++) next(); // the first outputs still resemble the seed
  return { next, between: (low, high) => low + (high - low) * next() };
}

/** Math.round, but never -0 (which would print oddly and break deep equality with 0). */
function toInt(value: number): number {
  const rounded = Math.round(value);
  return rounded === 0 ? 0 : rounded;
}

function round2(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? 0 : rounded;
}

function negate(value: number): number {
  return value === 0 ? 0 : -value;
}

// ---------------------------------------------------------------------------------------------------------------
// Sector profiles
// ---------------------------------------------------------------------------------------------------------------

export const GICS_SECTORS = [
  'Information Technology',
  'Health Care',
  'Financials',
  'Consumer Discretionary',
  'Consumer Staples',
  'Energy',
  'Industrials',
  'Materials',
  'Utilities',
  'Communication Services',
  'Real Estate',
] as const;
export type Sector = (typeof GICS_SECTORS)[number];

/** Shape of a business. Ratios are shares of annual revenue unless named otherwise. */
interface SectorProfile {
  grossMargin: number;
  /** null: the sector does not report R&D as a line item. */
  rdPct: number | null;
  sgaPct: number;
  sbcPct: number;
  capexPct: number;
  /** D&A at the opening balance sheet; later D&A follows net PP&E. */
  daPct: number;
  ppeToRevenue: number;
  goodwillToRevenue: number;
  /** Days sales outstanding, days inventory outstanding (null: no inventory), days payables outstanding. */
  dso: number;
  dio: number | null;
  dpo: number;
  otherCurrentToRevenue: number;
  accruedToRevenue: number;
  otherNonCurrentToRevenue: number;
  otherLiabilitiesToRevenue: number;
  taxRate: number;
  debtToRevenue: number;
  /** Annual interest rate on all debt. */
  interestRate: number;
  /** Share of trailing net income paid out as dividends. */
  payout: number;
  /** Share of free cash flow after dividends spent on buybacks. */
  buybackAppetite: number;
  cashToRevenue: number;
  stiToRevenue: number;
  /** Revenue seasonality by CALENDAR quarter (so a January year-end retailer still peaks in the holidays). */
  seasonality: readonly [number, number, number, number];
  /** Valuation inputs that only set the share count and the price at which buybacks happen. */
  priceToSales: number;
  revenuePerShareUsd: number;
}

const SECTOR_PROFILES: Record<Sector, SectorProfile> = {
  'Information Technology': {
    grossMargin: 0.6,
    rdPct: 0.14,
    sgaPct: 0.15,
    sbcPct: 0.04,
    capexPct: 0.06,
    daPct: 0.05,
    ppeToRevenue: 0.3,
    goodwillToRevenue: 0.35,
    dso: 55,
    dio: 75,
    dpo: 50,
    otherCurrentToRevenue: 0.05,
    accruedToRevenue: 0.1,
    otherNonCurrentToRevenue: 0.08,
    otherLiabilitiesToRevenue: 0.08,
    taxRate: 0.16,
    debtToRevenue: 0.35,
    interestRate: 0.045,
    payout: 0.15,
    buybackAppetite: 0.6,
    cashToRevenue: 0.3,
    stiToRevenue: 0.25,
    seasonality: [0.97, 0.99, 1.0, 1.04],
    priceToSales: 5,
    revenuePerShareUsd: 45,
  },
  'Health Care': {
    grossMargin: 0.68,
    rdPct: 0.16,
    sgaPct: 0.26,
    sbcPct: 0.025,
    capexPct: 0.04,
    daPct: 0.05,
    ppeToRevenue: 0.3,
    goodwillToRevenue: 0.6,
    dso: 60,
    dio: 150,
    dpo: 55,
    otherCurrentToRevenue: 0.05,
    accruedToRevenue: 0.12,
    otherNonCurrentToRevenue: 0.08,
    otherLiabilitiesToRevenue: 0.1,
    taxRate: 0.17,
    debtToRevenue: 0.5,
    interestRate: 0.045,
    payout: 0.35,
    buybackAppetite: 0.5,
    cashToRevenue: 0.18,
    stiToRevenue: 0.1,
    seasonality: [0.98, 1.0, 0.99, 1.03],
    priceToSales: 4,
    revenuePerShareUsd: 40,
  },
  // Payment processors, asset managers, insurers and lenders: "cost of revenue" is claims, funding or
  // processing cost; no inventory and no separately reported R&D.
  Financials: {
    grossMargin: 0.6,
    rdPct: null,
    sgaPct: 0.3,
    sbcPct: 0.02,
    capexPct: 0.03,
    daPct: 0.03,
    ppeToRevenue: 0.12,
    goodwillToRevenue: 0.4,
    dso: 40,
    dio: null,
    dpo: 20,
    otherCurrentToRevenue: 0.1,
    accruedToRevenue: 0.15,
    otherNonCurrentToRevenue: 0.25,
    otherLiabilitiesToRevenue: 0.3,
    taxRate: 0.22,
    debtToRevenue: 0.8,
    interestRate: 0.045,
    payout: 0.35,
    buybackAppetite: 0.5,
    cashToRevenue: 0.35,
    stiToRevenue: 0.6,
    seasonality: [1, 1, 1, 1],
    priceToSales: 3.5,
    revenuePerShareUsd: 50,
  },
  // Retail-like: thin gross margin, inventory, and a holiday quarter.
  'Consumer Discretionary': {
    grossMargin: 0.38,
    rdPct: null,
    sgaPct: 0.27,
    sbcPct: 0.01,
    capexPct: 0.04,
    daPct: 0.035,
    ppeToRevenue: 0.35,
    goodwillToRevenue: 0.1,
    dso: 10,
    dio: 85,
    dpo: 55,
    otherCurrentToRevenue: 0.04,
    accruedToRevenue: 0.08,
    otherNonCurrentToRevenue: 0.2,
    otherLiabilitiesToRevenue: 0.2,
    taxRate: 0.24,
    debtToRevenue: 0.3,
    interestRate: 0.05,
    payout: 0.2,
    buybackAppetite: 0.5,
    cashToRevenue: 0.12,
    stiToRevenue: 0.02,
    seasonality: [0.9, 0.97, 0.95, 1.18],
    priceToSales: 0.9,
    revenuePerShareUsd: 60,
  },
  'Consumer Staples': {
    grossMargin: 0.4,
    rdPct: null,
    sgaPct: 0.26,
    sbcPct: 0.008,
    capexPct: 0.04,
    daPct: 0.035,
    ppeToRevenue: 0.35,
    goodwillToRevenue: 0.5,
    dso: 30,
    dio: 55,
    dpo: 60,
    otherCurrentToRevenue: 0.03,
    accruedToRevenue: 0.09,
    otherNonCurrentToRevenue: 0.05,
    otherLiabilitiesToRevenue: 0.12,
    taxRate: 0.22,
    debtToRevenue: 0.45,
    interestRate: 0.04,
    payout: 0.6,
    buybackAppetite: 0.3,
    cashToRevenue: 0.06,
    stiToRevenue: 0,
    seasonality: [0.97, 1.0, 1.0, 1.03],
    priceToSales: 1.8,
    revenuePerShareUsd: 45,
  },
  Energy: {
    grossMargin: 0.35,
    rdPct: null,
    sgaPct: 0.06,
    sbcPct: 0.006,
    capexPct: 0.13,
    daPct: 0.09,
    ppeToRevenue: 1.4,
    goodwillToRevenue: 0.05,
    dso: 40,
    dio: 25,
    dpo: 50,
    otherCurrentToRevenue: 0.03,
    accruedToRevenue: 0.06,
    otherNonCurrentToRevenue: 0.1,
    otherLiabilitiesToRevenue: 0.2,
    taxRate: 0.23,
    debtToRevenue: 0.45,
    interestRate: 0.05,
    payout: 0.4,
    buybackAppetite: 0.4,
    cashToRevenue: 0.1,
    stiToRevenue: 0.02,
    seasonality: [1.02, 0.98, 1.0, 1.0],
    priceToSales: 1.2,
    revenuePerShareUsd: 50,
  },
  Industrials: {
    grossMargin: 0.31,
    rdPct: 0.025,
    sgaPct: 0.14,
    sbcPct: 0.01,
    capexPct: 0.035,
    daPct: 0.035,
    ppeToRevenue: 0.35,
    goodwillToRevenue: 0.45,
    dso: 65,
    dio: 90,
    dpo: 55,
    otherCurrentToRevenue: 0.04,
    accruedToRevenue: 0.1,
    otherNonCurrentToRevenue: 0.06,
    otherLiabilitiesToRevenue: 0.12,
    taxRate: 0.22,
    debtToRevenue: 0.45,
    interestRate: 0.045,
    payout: 0.35,
    buybackAppetite: 0.4,
    cashToRevenue: 0.1,
    stiToRevenue: 0.02,
    seasonality: [0.95, 1.01, 0.99, 1.05],
    priceToSales: 1.8,
    revenuePerShareUsd: 55,
  },
  Materials: {
    grossMargin: 0.28,
    rdPct: 0.015,
    sgaPct: 0.09,
    sbcPct: 0.006,
    capexPct: 0.08,
    daPct: 0.06,
    ppeToRevenue: 0.8,
    goodwillToRevenue: 0.25,
    dso: 50,
    dio: 75,
    dpo: 55,
    otherCurrentToRevenue: 0.04,
    accruedToRevenue: 0.07,
    otherNonCurrentToRevenue: 0.06,
    otherLiabilitiesToRevenue: 0.15,
    taxRate: 0.23,
    debtToRevenue: 0.5,
    interestRate: 0.045,
    payout: 0.45,
    buybackAppetite: 0.3,
    cashToRevenue: 0.09,
    stiToRevenue: 0.02,
    seasonality: [0.98, 1.03, 1.01, 0.98],
    priceToSales: 1.4,
    revenuePerShareUsd: 45,
  },
  // Capital heavy: large PP&E funded with debt, high payout, no buybacks.
  Utilities: {
    grossMargin: 0.42,
    rdPct: null,
    sgaPct: 0.14,
    sbcPct: 0.004,
    capexPct: 0.28,
    daPct: 0.13,
    ppeToRevenue: 3.6,
    goodwillToRevenue: 0.25,
    dso: 45,
    dio: 30,
    dpo: 45,
    otherCurrentToRevenue: 0.04,
    accruedToRevenue: 0.06,
    otherNonCurrentToRevenue: 0.3,
    otherLiabilitiesToRevenue: 0.6,
    taxRate: 0.19,
    debtToRevenue: 1.9,
    interestRate: 0.045,
    payout: 0.65,
    buybackAppetite: 0,
    cashToRevenue: 0.02,
    stiToRevenue: 0,
    seasonality: [1.08, 0.92, 1.06, 0.94],
    priceToSales: 2.4,
    revenuePerShareUsd: 40,
  },
  'Communication Services': {
    grossMargin: 0.58,
    rdPct: 0.05,
    sgaPct: 0.22,
    sbcPct: 0.02,
    capexPct: 0.14,
    daPct: 0.12,
    ppeToRevenue: 1.1,
    goodwillToRevenue: 0.8,
    dso: 45,
    dio: 10,
    dpo: 60,
    otherCurrentToRevenue: 0.04,
    accruedToRevenue: 0.1,
    otherNonCurrentToRevenue: 0.15,
    otherLiabilitiesToRevenue: 0.25,
    taxRate: 0.21,
    debtToRevenue: 1.1,
    interestRate: 0.045,
    payout: 0.35,
    buybackAppetite: 0.4,
    cashToRevenue: 0.08,
    stiToRevenue: 0.02,
    seasonality: [0.98, 0.99, 1.0, 1.03],
    priceToSales: 2,
    revenuePerShareUsd: 35,
  },
  // Property owners: real estate sits in PP&E, no inventory or R&D, most earnings paid out. Property
  // depreciation is large and counted in operating expenses, hence the high SG&A share.
  'Real Estate': {
    grossMargin: 0.66,
    rdPct: null,
    sgaPct: 0.25,
    sbcPct: 0.01,
    capexPct: 0.35,
    daPct: 0.3,
    ppeToRevenue: 12,
    goodwillToRevenue: 0.1,
    dso: 15,
    dio: null,
    dpo: 30,
    otherCurrentToRevenue: 0.05,
    accruedToRevenue: 0.12,
    otherNonCurrentToRevenue: 0.5,
    otherLiabilitiesToRevenue: 0.4,
    taxRate: 0.03,
    debtToRevenue: 4,
    interestRate: 0.04,
    payout: 0.9,
    buybackAppetite: 0.1,
    cashToRevenue: 0.08,
    stiToRevenue: 0,
    seasonality: [0.99, 1.0, 1.0, 1.01],
    priceToSales: 9,
    revenuePerShareUsd: 10,
  },
};

/** Rough units of each currency per US dollar; only used to give share prices a local scale. */
const UNITS_PER_USD: Record<string, number> = { USD: 1, EUR: 0.92, GBP: 0.79, JPY: 150, TWD: 31, HKD: 7.8 };

// ---------------------------------------------------------------------------------------------------------------
// Companies (all fictional: invented names, invented tickers, reserved .example websites)
// ---------------------------------------------------------------------------------------------------------------

interface ModelSpec {
  /** Annual revenue just before the first fiscal year, in units of the reporting currency. */
  revenue: number;
  /** Trend revenue growth per year. */
  growth: number;
  /** Overrides the sector's gross margin; R&D and SG&A shares scale with it unless overridden too. */
  grossMargin?: number;
  /** Extra operating spend (share of revenue) of a company still buying growth, decaying with a half-life. */
  burn?: { extraOpex: number; halfLifeQuarters: number };
  overrides?: Partial<SectorProfile>;
}

interface CompanySpec extends Omit<DemoCompany, 'sector'> {
  sector: Sector;
  model: ModelSpec;
}

/** A young company funded by its cash pile rather than debt; pays no dividends and buys back nothing. */
const CASH_FUNDED_GROWTH: Partial<SectorProfile> = { payout: 0, buybackAppetite: 0, sbcPct: 0.09 };

const COMPANY_SPECS: CompanySpec[] = [
  // Information Technology
  {
    name: 'Northwind Semiconductor',
    ticker: 'NWSC',
    sector: 'Information Technology',
    industry: 'Semiconductors',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 18400,
    website: 'https://northwind-semi.example',
    description:
      'Designs mixed-signal and power-management chips for data-center servers and electric vehicles, relying on contract foundries for fabrication.',
    model: { revenue: 6.5e9, growth: 0.14, grossMargin: 0.58 },
  },
  {
    name: 'Quillstack Software',
    ticker: 'QLST',
    sector: 'Information Technology',
    industry: 'Application Software',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 1,
    employees: 2100,
    website: 'https://quillstack.example',
    description:
      'Sells a subscription workflow-automation platform to the finance teams of mid-sized businesses. It still spends heavily on sales and engineering ahead of profitability.',
    model: {
      revenue: 4.2e8,
      growth: 0.3,
      grossMargin: 0.77,
      burn: { extraOpex: 0.6, halfLifeQuarters: 8 },
      overrides: {
        ...CASH_FUNDED_GROWTH,
        revenuePerShareUsd: 8,
        dio: null,
        cashToRevenue: 1.3,
        stiToRevenue: 0.6,
        debtToRevenue: 0.1,
      },
    },
  },
  {
    name: 'Tessellate Systems',
    ticker: '4417',
    sector: 'Information Technology',
    industry: 'Electronic Manufacturing Services',
    exchange: 'TWSE',
    country: 'TW',
    currency: 'TWD',
    fiscalYearEnd: 12,
    employees: 52000,
    website: 'https://tessellate-systems.example',
    description:
      'Assembles servers, networking gear and notebook computers under contract for hardware brands, from plants in Taiwan and Vietnam.',
    model: {
      revenue: 1.8e11,
      growth: 0.06,
      grossMargin: 0.11,
      overrides: { dio: 45, cashToRevenue: 0.2, stiToRevenue: 0.05 },
    },
  },
  {
    name: 'Brightquarry Data',
    ticker: 'BQDT',
    sector: 'Information Technology',
    industry: 'Systems Software',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 6,
    employees: 7600,
    website: 'https://brightquarry.example',
    description:
      'Provides database and data-pipeline software that enterprises run in their own data centers or as a managed cloud service.',
    model: { revenue: 2.3e9, growth: 0.18, grossMargin: 0.74, overrides: { dio: null, sbcPct: 0.08 } },
  },
  // Health Care
  {
    name: 'Halcyon Therapeutics',
    ticker: 'HLCY',
    sector: 'Health Care',
    industry: 'Biotechnology',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 640,
    website: 'https://halcyon-tx.example',
    description:
      'Markets one approved enzyme-replacement therapy for a rare metabolic disorder while funding trials of two follow-on candidates.',
    model: {
      revenue: 1.4e8,
      growth: 0.3,
      grossMargin: 0.86,
      burn: { extraOpex: 0.9, halfLifeQuarters: 6 },
      overrides: {
        ...CASH_FUNDED_GROWTH,
        revenuePerShareUsd: 4,
        cashToRevenue: 2,
        stiToRevenue: 1.5,
        debtToRevenue: 0.2,
      },
    },
  },
  {
    name: 'Meadowlark Medical Devices',
    ticker: 'MDLK',
    sector: 'Health Care',
    industry: 'Health Care Equipment',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 9,
    employees: 14500,
    website: 'https://meadowlark-medical.example',
    description:
      'Makes infusion pumps, patient monitors and the disposable sets they use, sold mainly to hospitals in North America and Europe.',
    model: { revenue: 3.4e9, growth: 0.07, grossMargin: 0.64 },
  },
  {
    name: 'Corvalis Pharma AG',
    ticker: 'CRVP',
    sector: 'Health Care',
    industry: 'Pharmaceuticals',
    exchange: 'XETRA',
    country: 'DE',
    currency: 'EUR',
    fiscalYearEnd: 12,
    employees: 9800,
    website: 'https://corvalis-pharma.example',
    description: 'Develops and sells specialty medicines for respiratory and dermatological conditions across Europe.',
    model: { revenue: 2.1e9, growth: 0.04, grossMargin: 0.72 },
  },
  {
    name: 'Bluegate Health Services',
    ticker: 'BGHS',
    sector: 'Health Care',
    industry: 'Health Care Facilities',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 61000,
    website: 'https://bluegate-health.example',
    description:
      'Operates a network of outpatient surgery centers and urgent-care clinics in the southern United States.',
    model: {
      revenue: 1.45e10,
      growth: 0.09,
      grossMargin: 0.19,
      overrides: { rdPct: null, dio: 8, dso: 48, ppeToRevenue: 0.45 },
    },
  },
  // Financials
  {
    name: 'Harborline Payments',
    ticker: 'HBLP',
    sector: 'Financials',
    industry: 'Transaction & Payment Processing Services',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 11200,
    website: 'https://harborline-payments.example',
    description:
      'Processes card and account-to-account payments for online merchants and provides them with fraud screening.',
    model: { revenue: 5.2e9, growth: 0.11, grossMargin: 0.63 },
  },
  {
    name: 'Cobalt Ridge Asset Management',
    ticker: 'CBRG',
    sector: 'Financials',
    industry: 'Asset Management & Custody Banks',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 3100,
    website: 'https://cobaltridge-am.example',
    description:
      'Manages mutual funds and institutional mandates in fixed income and dividend equities, earning fees on assets under management.',
    model: { revenue: 1.9e9, growth: 0.05, grossMargin: 0.52 },
  },
  {
    name: 'Pellucid Assurance Holdings',
    ticker: 'PLAH',
    sector: 'Financials',
    industry: 'Property & Casualty Insurance',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 13800,
    website: 'https://pellucid-assurance.example',
    description:
      'Writes homeowners and small-business property insurance and invests the premiums it holds in a bond portfolio.',
    model: {
      revenue: 8.4e9,
      growth: 0.06,
      grossMargin: 0.3,
      overrides: { stiToRevenue: 1.8, otherLiabilitiesToRevenue: 1.2, debtToRevenue: 0.25 },
    },
  },
  {
    name: 'Thamesbury Capital plc',
    ticker: 'TMBC',
    sector: 'Financials',
    industry: 'Consumer Finance',
    exchange: 'LSE',
    country: 'GB',
    currency: 'GBP',
    fiscalYearEnd: 3,
    employees: 2400,
    website: 'https://thamesbury-capital.example',
    description:
      'Offers car finance and point-of-sale loans to UK consumers through a network of dealers and retailers.',
    model: { revenue: 6.8e8, growth: 0.03, grossMargin: 0.58 },
  },
  // Consumer Discretionary
  {
    name: 'Lanternfield Outfitters',
    ticker: 'LNFO',
    sector: 'Consumer Discretionary',
    industry: 'Apparel Retail',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 1,
    employees: 38000,
    website: 'https://lanternfield.example',
    description:
      'Runs about 900 stores and an online shop selling outdoor apparel, footwear and camping gear under its own labels.',
    model: { revenue: 7.6e9, growth: 0.04, grossMargin: 0.38 },
  },
  {
    name: 'Voltaris Motors',
    ticker: 'VLTM',
    sector: 'Consumer Discretionary',
    industry: 'Automobile Manufacturers',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 8700,
    website: 'https://voltaris-motors.example',
    description:
      'Builds electric delivery vans and pickup trucks for commercial fleets. Production is still ramping up and the company is not yet profitable.',
    model: {
      revenue: 2.6e9,
      growth: 0.3,
      grossMargin: 0.23,
      burn: { extraOpex: 0.15, halfLifeQuarters: 10 },
      overrides: {
        ...CASH_FUNDED_GROWTH,
        sbcPct: 0.03,
        rdPct: 0.05,
        dio: 70,
        dso: 15,
        capexPct: 0.12,
        ppeToRevenue: 0.8,
        daPct: 0.06,
        cashToRevenue: 0.9,
        stiToRevenue: 0.3,
        seasonality: [0.96, 1.0, 1.0, 1.04],
      },
    },
  },
  {
    name: 'Kestrel Bay Resorts',
    ticker: 'KBRS',
    sector: 'Consumer Discretionary',
    industry: 'Hotels, Resorts & Cruise Lines',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 27000,
    website: 'https://kestrelbay-resorts.example',
    description:
      'Owns and operates coastal and mountain resorts in the United States and the Caribbean, busiest in the summer.',
    model: {
      revenue: 3.3e9,
      growth: 0.08,
      grossMargin: 0.42,
      overrides: {
        dio: 6,
        seasonality: [0.88, 1.04, 1.16, 0.92],
        ppeToRevenue: 1.6,
        daPct: 0.08,
        capexPct: 0.1,
        debtToRevenue: 1,
      },
    },
  },
  {
    name: 'Jadeharbour Home Living',
    ticker: '3867',
    sector: 'Consumer Discretionary',
    industry: 'Home Furnishings Retail',
    exchange: 'HKEX',
    country: 'HK',
    currency: 'HKD',
    fiscalYearEnd: 3,
    employees: 6200,
    website: 'https://jadeharbour.example',
    description:
      'Sells furniture, kitchenware and home textiles through stores in Hong Kong and southern China and through its own app.',
    model: { revenue: 9.5e9, growth: 0.02, grossMargin: 0.46 },
  },
  // Consumer Staples
  {
    name: 'Amberfield Foods',
    ticker: 'AMBF',
    sector: 'Consumer Staples',
    industry: 'Packaged Foods & Meats',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 24000,
    website: 'https://amberfield-foods.example',
    description:
      'Produces breakfast cereals, soups and frozen meals sold under its own brands in supermarkets across North America.',
    model: { revenue: 1.12e10, growth: 0.02, grossMargin: 0.34 },
  },
  {
    name: 'Greenhollow Household Products',
    ticker: 'GHHP',
    sector: 'Consumer Staples',
    industry: 'Household Products',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 6,
    employees: 31000,
    website: 'https://greenhollow.example',
    description:
      'Makes laundry detergents, cleaning sprays and paper towels, sold through grocery chains and warehouse clubs.',
    model: { revenue: 1.6e10, growth: 0.03, grossMargin: 0.49 },
  },
  {
    name: 'Fernwood Grocers',
    ticker: 'FWGR',
    sector: 'Consumer Staples',
    industry: 'Food Retail',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 2,
    employees: 205000,
    website: 'https://fernwood-grocers.example',
    description:
      'Operates some 2,300 supermarkets and pharmacies in the eastern United States, with same-day grocery delivery.',
    model: {
      revenue: 9.2e10,
      growth: 0.03,
      grossMargin: 0.27,
      overrides: { sgaPct: 0.235, dso: 3, dio: 24, dpo: 28, seasonality: [0.98, 0.99, 0.99, 1.04] },
    },
  },
  {
    name: 'Brauhaus Lindenberg AG',
    ticker: 'BHLD',
    sector: 'Consumer Staples',
    industry: 'Brewers',
    exchange: 'XETRA',
    country: 'DE',
    currency: 'EUR',
    fiscalYearEnd: 12,
    employees: 12500,
    website: 'https://brauhaus-lindenberg.example',
    description: 'Brews and distributes beer and non-alcoholic malt drinks in Germany, Austria and Poland.',
    model: { revenue: 4.8e9, growth: 0.01, grossMargin: 0.47, overrides: { seasonality: [0.9, 1.08, 1.08, 0.94] } },
  },
  // Energy
  {
    name: 'Red Mesa Energy',
    ticker: 'RMEN',
    sector: 'Energy',
    industry: 'Oil & Gas Exploration & Production',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 2900,
    website: 'https://redmesa-energy.example',
    description: 'Explores for and produces oil and natural gas from shale acreage in west Texas and New Mexico.',
    model: {
      revenue: 9.8e9,
      growth: -0.03,
      grossMargin: 0.52,
      overrides: { ppeToRevenue: 2.2, daPct: 0.16, capexPct: 0.2, dio: 5 },
    },
  },
  {
    name: 'Saltmarsh Midstream',
    ticker: 'SMMP',
    sector: 'Energy',
    industry: 'Oil & Gas Storage & Transportation',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 3400,
    website: 'https://saltmarsh-midstream.example',
    description:
      'Owns natural gas pipelines, processing plants and storage caverns along the Gulf Coast, earning mostly fee-based income.',
    model: {
      revenue: 4.4e9,
      growth: 0.03,
      grossMargin: 0.42,
      overrides: {
        ppeToRevenue: 3,
        daPct: 0.12,
        capexPct: 0.15,
        debtToRevenue: 1.6,
        payout: 0.8,
        buybackAppetite: 0.1,
      },
    },
  },
  {
    name: 'Northcape Refining',
    ticker: 'NCRF',
    sector: 'Energy',
    industry: 'Oil & Gas Refining & Marketing',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 11000,
    website: 'https://northcape-refining.example',
    description:
      'Runs four refineries that turn crude oil into gasoline, diesel and jet fuel, and supplies a chain of branded fuel stations.',
    model: {
      revenue: 3.6e10,
      growth: -0.05,
      grossMargin: 0.1,
      overrides: {
        ppeToRevenue: 0.35,
        daPct: 0.025,
        capexPct: 0.03,
        dio: 28,
        dso: 22,
        dpo: 35,
        debtToRevenue: 0.2,
        seasonality: [0.95, 1.05, 1.04, 0.96],
      },
    },
  },
  {
    name: 'Dunmore Offshore plc',
    ticker: 'DNOS',
    sector: 'Energy',
    industry: 'Oil & Gas Drilling',
    exchange: 'LSE',
    country: 'GB',
    currency: 'GBP',
    fiscalYearEnd: 12,
    employees: 4600,
    website: 'https://dunmore-offshore.example',
    description: 'Leases a fleet of jack-up drilling rigs and crews to oil producers in the North Sea and West Africa.',
    model: {
      revenue: 1.3e9,
      growth: 0.06,
      grossMargin: 0.33,
      overrides: { ppeToRevenue: 2.5, daPct: 0.15, capexPct: 0.12, debtToRevenue: 1, payout: 0.2 },
    },
  },
  // Industrials
  {
    name: 'Ironbridge Aerostructures',
    ticker: 'IBAS',
    sector: 'Industrials',
    industry: 'Aerospace & Defense',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 29000,
    website: 'https://ironbridge-aero.example',
    description:
      'Manufactures fuselage sections, wing components and landing-gear assemblies for commercial and military aircraft makers.',
    model: { revenue: 5.9e9, growth: 0.08, grossMargin: 0.27 },
  },
  {
    name: 'Trelford Logistics',
    ticker: 'TRLG',
    sector: 'Industrials',
    industry: 'Air Freight & Logistics',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 36000,
    website: 'https://trelford-logistics.example',
    description:
      'Provides freight forwarding, contract warehousing and last-mile delivery for retailers and manufacturers.',
    model: {
      revenue: 1.05e10,
      growth: 0.05,
      grossMargin: 0.21,
      overrides: { rdPct: null, dio: 3, dso: 45, dpo: 35, seasonality: [0.95, 0.98, 1.0, 1.07] },
    },
  },
  {
    name: 'Kiritsu Precision Works',
    ticker: '6190',
    sector: 'Industrials',
    industry: 'Industrial Machinery',
    exchange: 'TSE',
    country: 'JP',
    currency: 'JPY',
    fiscalYearEnd: 3,
    employees: 15800,
    website: 'https://kiritsu-precision.example',
    description:
      'Builds servo motors, robotic arms and controllers for factory automation, selling mainly to electronics and auto plants in Asia.',
    model: {
      revenue: 4.2e11,
      growth: 0.05,
      grossMargin: 0.37,
      overrides: { cashToRevenue: 0.25, debtToRevenue: 0.15 },
    },
  },
  {
    name: 'Calder Flow Systems',
    ticker: 'CLFS',
    sector: 'Industrials',
    industry: 'Industrial Machinery',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 9,
    employees: 9200,
    website: 'https://calder-flow.example',
    description:
      'Makes industrial pumps, valves and flow meters for water treatment, chemical and food-processing plants.',
    model: { revenue: 2.7e9, growth: 0.06, grossMargin: 0.38 },
  },
  // Materials
  {
    name: 'Granite Vale Chemicals',
    ticker: 'GVCH',
    sector: 'Materials',
    industry: 'Specialty Chemicals',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 17000,
    website: 'https://granitevale-chem.example',
    description: 'Produces coatings additives, adhesives and water-treatment chemicals for industrial customers.',
    model: { revenue: 7.3e9, growth: 0.03, grossMargin: 0.31 },
  },
  {
    name: 'Copperline Mining',
    ticker: 'CPLM',
    sector: 'Materials',
    industry: 'Copper',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 8400,
    website: 'https://copperline-mining.example',
    description: 'Mines copper and molybdenum from two open-pit mines in Arizona and sells concentrate to smelters.',
    model: {
      revenue: 4.9e9,
      growth: 0.07,
      grossMargin: 0.38,
      overrides: { rdPct: null, ppeToRevenue: 2.2, daPct: 0.13, capexPct: 0.2, dio: 60 },
    },
  },
  {
    name: 'Oosterdal Packaging N.V.',
    ticker: 'OSDP',
    sector: 'Materials',
    industry: 'Paper & Plastic Packaging Products & Materials',
    exchange: 'Euronext Amsterdam',
    country: 'NL',
    currency: 'EUR',
    fiscalYearEnd: 12,
    employees: 14200,
    website: 'https://oosterdal-packaging.example',
    description:
      'Makes corrugated boxes and recyclable food packaging from recovered paper at mills in the Benelux and Germany.',
    model: { revenue: 3.1e9, growth: 0.02, grossMargin: 0.27 },
  },
  {
    name: 'Silverpine Advanced Materials',
    ticker: '1759',
    sector: 'Materials',
    industry: 'Specialty Chemicals',
    exchange: 'TWSE',
    country: 'TW',
    currency: 'TWD',
    fiscalYearEnd: 12,
    employees: 4300,
    website: 'https://silverpine-materials.example',
    description: 'Supplies epoxy resins and copper-clad laminates used in printed circuit boards.',
    model: { revenue: 3.4e10, growth: 0.04, grossMargin: 0.21 },
  },
  // Utilities
  {
    name: 'Prairie Crest Electric',
    ticker: 'PCEL',
    sector: 'Utilities',
    industry: 'Electric Utilities',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 9600,
    website: 'https://prairiecrest-electric.example',
    description:
      'Generates, transmits and distributes electricity to about 2.4 million customers in the Great Plains as a regulated utility.',
    model: { revenue: 6.1e9, growth: 0.04, grossMargin: 0.42 },
  },
  {
    name: 'Riverbend Water Works',
    ticker: 'RBWW',
    sector: 'Utilities',
    industry: 'Water Utilities',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 3200,
    website: 'https://riverbend-water.example',
    description: 'Owns regulated water and wastewater systems serving towns in the Midwest and Pennsylvania.',
    model: {
      revenue: 1.2e9,
      growth: 0.05,
      grossMargin: 0.58,
      overrides: {
        seasonality: [0.92, 1.03, 1.1, 0.95],
        ppeToRevenue: 5,
        daPct: 0.17,
        capexPct: 0.38,
        debtToRevenue: 2.4,
      },
    },
  },
  {
    name: 'Solenne Renewables',
    ticker: 'SLNR',
    sector: 'Utilities',
    industry: 'Renewable Electricity',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 1150,
    website: 'https://solenne-renewables.example',
    description:
      'Develops and operates wind farms and solar parks, selling the power under long-term contracts to utilities and corporations.',
    model: {
      revenue: 8.7e8,
      growth: 0.15,
      grossMargin: 0.6,
      overrides: {
        ppeToRevenue: 6,
        daPct: 0.28,
        capexPct: 0.6,
        debtToRevenue: 3.5,
        payout: 0.3,
        seasonality: [0.95, 1.07, 1.02, 0.96],
      },
    },
  },
  {
    name: 'Ashcombe Gas & Power plc',
    ticker: 'ACGP',
    sector: 'Utilities',
    industry: 'Gas Utilities',
    exchange: 'LSE',
    country: 'GB',
    currency: 'GBP',
    fiscalYearEnd: 3,
    employees: 5400,
    website: 'https://ashcombe-gas.example',
    description:
      'Runs the gas distribution network of the English south-west and supplies gas and electricity to households there.',
    model: { revenue: 3.8e9, growth: 0.02, grossMargin: 0.4, overrides: { seasonality: [1.25, 0.8, 0.7, 1.25] } },
  },
  // Communication Services
  {
    name: 'Signalpath Wireless',
    ticker: 'SGPW',
    sector: 'Communication Services',
    industry: 'Wireless Telecommunication Services',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 41000,
    website: 'https://signalpath-wireless.example',
    description:
      'Operates a national 5G mobile network and sells phone plans and home broadband to consumers and businesses.',
    model: {
      revenue: 2.3e10,
      growth: 0.02,
      grossMargin: 0.58,
      overrides: {
        rdPct: null,
        sgaPct: 0.36,
        ppeToRevenue: 1.4,
        daPct: 0.15,
        capexPct: 0.15,
        debtToRevenue: 1.4,
        payout: 0.55,
      },
    },
  },
  {
    name: 'Parlance Interactive',
    ticker: 'PRLI',
    sector: 'Communication Services',
    industry: 'Interactive Home Entertainment',
    exchange: 'NASDAQ',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 3,
    employees: 5200,
    website: 'https://parlance-interactive.example',
    description: 'Publishes console and PC games, including a long-running racing series, and sells in-game content.',
    model: {
      revenue: 1.4e9,
      growth: 0.1,
      grossMargin: 0.72,
      overrides: {
        rdPct: 0.22,
        seasonality: [0.9, 0.85, 1.0, 1.25],
        ppeToRevenue: 0.15,
        daPct: 0.03,
        capexPct: 0.03,
        debtToRevenue: 0.2,
        dio: 5,
        sbcPct: 0.06,
      },
    },
  },
  {
    name: 'Foxglove Media Group',
    ticker: 'FXGM',
    sector: 'Communication Services',
    industry: 'Movies & Entertainment',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 9,
    employees: 22000,
    website: 'https://foxglove-media.example',
    description:
      'Produces films and television series, runs a subscription streaming service and licenses its library to broadcasters.',
    model: { revenue: 8.2e9, growth: 0.05, grossMargin: 0.39, overrides: { rdPct: null } },
  },
  {
    name: 'Lantau Digital Holdings',
    ticker: '6628',
    sector: 'Communication Services',
    industry: 'Interactive Media & Services',
    exchange: 'HKEX',
    country: 'HK',
    currency: 'HKD',
    fiscalYearEnd: 12,
    employees: 3900,
    website: 'https://lantau-digital.example',
    description:
      'Runs online property and car classifieds sites in Hong Kong and Southeast Asia, earning listing and advertising fees.',
    model: {
      revenue: 5.6e9,
      growth: 0.12,
      grossMargin: 0.68,
      overrides: { capexPct: 0.06, ppeToRevenue: 0.3, daPct: 0.05, debtToRevenue: 0.1, dio: null },
    },
  },
  // Real Estate
  {
    name: 'Cedar Arch Properties',
    ticker: 'CDAP',
    sector: 'Real Estate',
    industry: 'Office REITs',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 430,
    website: 'https://cedararch-properties.example',
    description: 'Owns and leases office and laboratory buildings in Boston, Austin and Denver.',
    model: { revenue: 1.1e9, growth: 0.01, grossMargin: 0.65 },
  },
  {
    name: 'Quayside Industrial Realty',
    ticker: 'QIRT',
    sector: 'Real Estate',
    industry: 'Industrial REITs',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 690,
    website: 'https://quayside-realty.example',
    description:
      'Owns distribution warehouses near major ports and rail hubs and leases them to logistics and e-commerce tenants.',
    model: { revenue: 2.4e9, growth: 0.09, grossMargin: 0.74 },
  },
  {
    name: 'Hollins Residential Trust',
    ticker: 'HLRT',
    sector: 'Real Estate',
    industry: 'Multi-Family Residential REITs',
    exchange: 'NYSE',
    country: 'US',
    currency: 'USD',
    fiscalYearEnd: 12,
    employees: 2300,
    website: 'https://hollins-residential.example',
    description: 'Owns and manages about 60,000 apartments in suburban Sun Belt markets.',
    model: { revenue: 1.6e9, growth: 0.05, grossMargin: 0.63 },
  },
  {
    name: 'Kaiserhof Wohnen SE',
    ticker: 'KHWO',
    sector: 'Real Estate',
    industry: 'Real Estate Operating Companies',
    exchange: 'XETRA',
    country: 'DE',
    currency: 'EUR',
    fiscalYearEnd: 12,
    employees: 3600,
    website: 'https://kaiserhof-wohnen.example',
    description:
      'Owns and lets around 90,000 rental flats in German cities and modernizes older buildings for energy efficiency.',
    model: { revenue: 1.3e9, growth: 0.03, grossMargin: 0.57, overrides: { taxRate: 0.2 } },
  },
];

// ---------------------------------------------------------------------------------------------------------------
// Company model: the sector profile adjusted for one company
// ---------------------------------------------------------------------------------------------------------------

interface CompanyModel {
  spec: CompanySpec;
  profile: SectorProfile;
  rng: Rng;
  /** Quarterly depreciation as a share of opening net PP&E. */
  depreciationRate: number;
}

/** Profile ratios that get a little company-level noise, in a fixed order so the PRNG stream is stable. */
const JITTERED_RATIOS = [
  'sgaPct',
  'sbcPct',
  'capexPct',
  'daPct',
  'ppeToRevenue',
  'goodwillToRevenue',
  'dso',
  'dpo',
  'otherCurrentToRevenue',
  'accruedToRevenue',
  'otherNonCurrentToRevenue',
  'otherLiabilitiesToRevenue',
  'debtToRevenue',
  'interestRate',
  'cashToRevenue',
  'stiToRevenue',
  'buybackAppetite',
  'priceToSales',
  'revenuePerShareUsd',
] as const satisfies readonly (keyof SectorProfile)[];

function jitter(rng: Rng, value: number, spread: number): number {
  return value * (1 + rng.between(-spread, spread));
}

function companyProfile(spec: CompanySpec, rng: Rng): SectorProfile {
  const sector = SECTOR_PROFILES[spec.sector];
  const grossMargin = spec.model.grossMargin ?? jitter(rng, sector.grossMargin, 0.05);
  // A low-margin business inside a high-margin sector (a contract manufacturer among chip designers) also runs
  // leaner, so operating expense shares scale with the gross margin unless the company says otherwise.
  const opexScale = grossMargin / sector.grossMargin;
  const profile: SectorProfile = {
    ...sector,
    grossMargin,
    rdPct: sector.rdPct === null ? null : sector.rdPct * opexScale,
    sgaPct: sector.sgaPct * opexScale,
    ...spec.model.overrides,
  };
  for (const key of JITTERED_RATIOS) profile[key] = jitter(rng, profile[key], 0.1);
  if (profile.rdPct !== null) profile.rdPct = jitter(rng, profile.rdPct, 0.1);
  if (profile.dio !== null) profile.dio = jitter(rng, profile.dio, 0.1);
  profile.taxRate = jitter(rng, profile.taxRate, 0.05);
  profile.payout = Math.min(0.95, jitter(rng, profile.payout, 0.1));
  profile.seasonality = normalizeSeasonality(profile.seasonality);
  return profile;
}

/** Scales seasonal factors to average exactly 1, so seasonality never changes the yearly revenue trend. */
function normalizeSeasonality(factors: readonly [number, number, number, number]): [number, number, number, number] {
  const mean = (factors[0] + factors[1] + factors[2] + factors[3]) / 4;
  return [factors[0] / mean, factors[1] / mean, factors[2] / mean, factors[3] / mean];
}

function buildModel(spec: CompanySpec): CompanyModel {
  const rng = createRng(`demo-data-v1:${spec.ticker}`);
  const profile = companyProfile(spec, rng);
  return { spec, profile, rng, depreciationRate: profile.daPct / profile.ppeToRevenue / 4 };
}

// ---------------------------------------------------------------------------------------------------------------
// The three statements of one quarter, in thousands of the reporting currency
// ---------------------------------------------------------------------------------------------------------------

/** Balance at a period end. The four "other" items are not reported as lines but are part of the totals. */
interface Balance {
  cashAndEquivalents: number;
  shortTermInvestments: number;
  receivables: number;
  /** 0 while simulating when the company carries no inventory; reported as null then. */
  inventory: number;
  otherCurrentAssets: number;
  ppeNet: number;
  goodwillAndIntangibles: number;
  otherNonCurrentAssets: number;
  accountsPayable: number;
  shortTermDebt: number;
  accruedLiabilities: number;
  longTermDebt: number;
  otherLiabilities: number;
  retainedEarnings: number;
  totalEquity: number;
}

const INCOME_FLOW_KEYS = [
  'revenue',
  'costOfRevenue',
  'grossProfit',
  'researchAndDevelopment',
  'sellingGeneralAndAdministrative',
  'operatingExpenses',
  'operatingIncome',
  'interestExpense',
  'incomeBeforeTax',
  'incomeTaxExpense',
  'netIncome',
  'depreciationAndAmortization',
  'ebitda',
] as const;
type IncomeFlowKey = (typeof INCOME_FLOW_KEYS)[number];
type IncomeFlows = Record<Exclude<IncomeFlowKey, 'researchAndDevelopment'>, number> & {
  researchAndDevelopment: number | null;
};

const CASH_FLOW_KEYS = [
  'netIncome',
  'depreciationAndAmortization',
  'stockBasedCompensation',
  'changeInWorkingCapital',
  'operatingCashFlow',
  'capitalExpenditure',
  'investingCashFlow',
  'dividendsPaid',
  'shareRepurchases',
  'financingCashFlow',
  'netChangeInCash',
  'freeCashFlow',
] as const;
type CashFlows = Record<(typeof CASH_FLOW_KEYS)[number], number>;

interface Shares {
  basic: number;
  diluted: number;
}

interface PeriodFigures {
  period: FiscalPeriod;
  income: IncomeFlows;
  shares: Shares;
  balance: Balance;
  cashFlow: CashFlows;
}

/** What the model remembers between quarters besides the balance sheet. */
interface Drivers {
  /** Quarterly revenue trend without seasonality or noise, in thousands. */
  trend: number;
  yearGrowth: number;
  sharesOutstanding: number;
  /** Share price in currency units; sets how many shares buybacks retire and stock compensation issues. */
  sharePrice: number;
  /** Dividend per quarter in thousands, reset once a fiscal year like a board would. */
  quarterlyDividend: number;
  /** Net income of the last four quarters, oldest first, in thousands. */
  recentNetIncome: number[];
}

const DAYS_PER_QUARTER = 365 / 4;
/** Part of total debt due within a year. */
const SHORT_TERM_DEBT_SHARE = 0.1;
/** Share of stock compensation that turns into new shares (the rest is withheld for taxes or unvested). */
const SBC_SHARE_ISSUANCE = 0.5;

/** Which calendar quarter a period mostly falls in: the one holding its middle month. */
function calendarQuarter(periodEnd: string): number {
  const endMonth = Number(periodEnd.slice(5, 7));
  const middleMonth = ((endMonth + 10) % 12) + 1;
  return Math.ceil(middleMonth / 3);
}

function seasonalFactor(model: CompanyModel, period: FiscalPeriod): number {
  const { end } = periodDates(period, model.spec.fiscalYearEnd);
  return model.profile.seasonality[calendarQuarter(end) - 1];
}

/** Extra opex share of a company still buying growth, fading as it scales. */
function burnAt(model: CompanyModel, quarterIndex: number): number {
  const burn = model.spec.model.burn;
  return burn ? burn.extraOpex * Math.pow(0.5, quarterIndex / burn.halfLifeQuarters) : 0;
}

/** Working-capital and other revenue-linked balances implied by a quarter's activity. */
function operatingBalances(model: CompanyModel, revenue: number, costOfRevenue: number, annualTrend: number) {
  const p = model.profile;
  return {
    receivables: toInt((revenue * p.dso) / DAYS_PER_QUARTER),
    inventory: p.dio === null ? 0 : toInt((costOfRevenue * p.dio) / DAYS_PER_QUARTER),
    otherCurrentAssets: toInt(annualTrend * p.otherCurrentToRevenue),
    accountsPayable: toInt((costOfRevenue * p.dpo) / DAYS_PER_QUARTER),
    accruedLiabilities: toInt(annualTrend * p.accruedToRevenue),
    otherNonCurrentAssets: toInt(annualTrend * p.otherNonCurrentToRevenue),
    otherLiabilities: toInt(annualTrend * p.otherLiabilitiesToRevenue),
    shortTermDebt: toInt(annualTrend * p.debtToRevenue * SHORT_TERM_DEBT_SHARE),
  };
}

function cashFloor(model: CompanyModel, annualTrend: number): number {
  // Keep at least a few weeks of revenue; cash-rich companies aim higher.
  return toInt(annualTrend * Math.max(0.01, Math.min(0.08, model.profile.cashToRevenue * 0.5)));
}

function cashCeiling(model: CompanyModel, annualTrend: number): number {
  return toInt(annualTrend * Math.max(0.05, model.profile.cashToRevenue * 2));
}

/**
 * The balance sheet of the quarter before the first one. It balances by construction: equity is the plug,
 * with debt trimmed if needed so equity stays a healthy share of assets.
 */
function openingBalance(model: CompanyModel, drivers: Drivers, openingPeriod: FiscalPeriod): Balance {
  const p = model.profile;
  const annual = drivers.trend * 4;
  const revenue = toInt(drivers.trend * seasonalFactor(model, openingPeriod));
  const costOfRevenue = toInt(revenue * (1 - p.grossMargin));
  const operating = operatingBalances(model, revenue, costOfRevenue, annual);
  const assetsExceptCash = {
    shortTermInvestments: toInt(annual * p.stiToRevenue),
    ppeNet: toInt(annual * p.ppeToRevenue),
    goodwillAndIntangibles: toInt(annual * p.goodwillToRevenue),
  };
  const cashAndEquivalents = toInt(annual * p.cashToRevenue);
  const totalAssets =
    cashAndEquivalents +
    assetsExceptCash.shortTermInvestments +
    operating.receivables +
    operating.inventory +
    operating.otherCurrentAssets +
    assetsExceptCash.ppeNet +
    assetsExceptCash.goodwillAndIntangibles +
    operating.otherNonCurrentAssets;
  const nonDebtLiabilities = operating.accountsPayable + operating.accruedLiabilities + operating.otherLiabilities;
  const targetLongTermDebt = toInt(annual * p.debtToRevenue * (1 - SHORT_TERM_DEBT_SHARE));
  const maxLongTermDebt = toInt(totalAssets * 0.75) - nonDebtLiabilities - operating.shortTermDebt;
  const longTermDebt = Math.max(0, Math.min(targetLongTermDebt, maxLongTermDebt));
  const totalEquity = totalAssets - nonDebtLiabilities - operating.shortTermDebt - longTermDebt;
  // Young loss makers carry an accumulated deficit funded by paid-in capital; mature companies mostly retained earnings.
  const retainedEarnings = toInt(totalEquity * (model.spec.model.burn ? -0.6 : 0.8));
  return { ...operating, ...assetsExceptCash, cashAndEquivalents, longTermDebt, totalEquity, retainedEarnings };
}

function openingDrivers(model: CompanyModel): Drivers {
  const p = model.profile;
  const trend = model.spec.model.revenue / 4 / 1000;
  const localPerUsd = UNITS_PER_USD[model.spec.currency] ?? 1;
  const revenuePerShare = p.revenuePerShareUsd * localPerUsd;
  const sharesOutstanding = Math.max(1, Math.round(model.spec.model.revenue / revenuePerShare));
  return {
    trend,
    yearGrowth: model.spec.model.growth,
    sharesOutstanding,
    sharePrice: revenuePerShare * p.priceToSales,
    quarterlyDividend: 0,
    recentNetIncome: [0, 0, 0, 0],
  };
}

/** Pre-history earnings the first dividend is based on: the opening margin less interest on the opening debt. */
function seedRecentNetIncome(model: CompanyModel, drivers: Drivers, opening: Balance): void {
  const p = model.profile;
  const operatingMargin = p.grossMargin - (p.rdPct ?? 0) - p.sgaPct - burnAt(model, 0);
  const interest = ((opening.shortTermDebt + opening.longTermDebt) * p.interestRate) / 4;
  const expected = toInt((drivers.trend * operatingMargin - interest) * (1 - p.taxRate));
  drivers.recentNetIncome = [expected, expected, expected, expected];
}

/** Income statement of one quarter; SG&A is partly fixed, so seasonal peaks carry higher margins. */
function quarterIncome(
  model: CompanyModel,
  drivers: Drivers,
  prev: Balance,
  period: FiscalPeriod,
  quarterIndex: number,
): IncomeFlows {
  const p = model.profile;
  const rng = model.rng;
  const revenue = Math.max(1, toInt(drivers.trend * seasonalFactor(model, period) * (1 + rng.between(-0.02, 0.02))));
  const costOfRevenue = toInt(revenue * (1 - p.grossMargin + rng.between(-0.006, 0.006)));
  const grossProfit = revenue - costOfRevenue;
  const burn = burnAt(model, quarterIndex);
  // Companies that do not report R&D book all of their growth spending in SG&A.
  const researchAndDevelopment = p.rdPct === null ? null : toInt(revenue * (p.rdPct + burn * 0.6));
  const sgaShare = p.sgaPct + (p.rdPct === null ? burn : burn * 0.4);
  const sellingGeneralAndAdministrative = toInt(sgaShare * (0.6 * revenue + 0.4 * drivers.trend));
  const operatingExpenses = (researchAndDevelopment ?? 0) + sellingGeneralAndAdministrative;
  const operatingIncome = grossProfit - operatingExpenses;
  const interestExpense = toInt(((prev.shortTermDebt + prev.longTermDebt) * p.interestRate) / 4);
  const incomeBeforeTax = operatingIncome - interestExpense;
  const incomeTaxExpense = toInt(incomeBeforeTax * p.taxRate);
  const netIncome = incomeBeforeTax - incomeTaxExpense;
  const depreciationAndAmortization = toInt(prev.ppeNet * model.depreciationRate);
  return {
    revenue,
    costOfRevenue,
    grossProfit,
    researchAndDevelopment,
    sellingGeneralAndAdministrative,
    operatingExpenses,
    operatingIncome,
    interestExpense,
    incomeBeforeTax,
    incomeTaxExpense,
    netIncome,
    depreciationAndAmortization,
    ebitda: operatingIncome + depreciationAndAmortization,
  };
}

/** Capital allocation decided so cash stays between a floor and a ceiling. */
interface Funding {
  buyback: number;
  changeInLongTermDebt: number;
  changeInShortTermInvestments: number;
}

/**
 * Decides buybacks, long-term debt and short-term investments given the cash the quarter would otherwise end
 * with. Order of resort when short: skip buybacks, sell investments, then draw debt. When flush: park the
 * excess in short-term investments.
 */
function fundQuarter(
  model: CompanyModel,
  prev: Balance,
  cashBeforeFunding: number,
  freeCashAfterDividends: number,
  annualTrend: number,
): Funding {
  const p = model.profile;
  const floor = cashFloor(model, annualTrend);
  let cash = cashBeforeFunding;
  // Move a quarter of the way to the target debt level each quarter; repay only what cash allows.
  const targetLongTermDebt = toInt(annualTrend * p.debtToRevenue * (1 - SHORT_TERM_DEBT_SHARE));
  let changeInLongTermDebt = toInt((targetLongTermDebt - prev.longTermDebt) / 4);
  if (changeInLongTermDebt < 0) changeInLongTermDebt = -Math.min(-changeInLongTermDebt, Math.max(0, cash - floor));
  cash += changeInLongTermDebt;

  const wantedBuyback = toInt(p.buybackAppetite * Math.max(0, freeCashAfterDividends));
  const buyback = Math.min(wantedBuyback, Math.max(0, cash - floor));
  cash -= buyback;

  let changeInShortTermInvestments = 0;
  if (cash < floor) {
    const sold = Math.min(prev.shortTermInvestments, floor - cash);
    changeInShortTermInvestments -= sold;
    cash += sold;
  }
  if (cash < floor) {
    changeInLongTermDebt += floor - cash;
    cash = floor;
  }
  const ceiling = cashCeiling(model, annualTrend);
  if (cash > ceiling) changeInShortTermInvestments += toInt((cash - ceiling) / 2);
  return {
    buyback,
    changeInLongTermDebt: changeInLongTermDebt === 0 ? 0 : changeInLongTermDebt,
    changeInShortTermInvestments,
  };
}

/** Shares move with buybacks (retired) and stock compensation (issued), both at the current share price. */
function updateShares(
  drivers: Drivers,
  buyback: number,
  stockBasedCompensation: number,
  netIncome: number,
  dilution: number,
): Shares {
  const opening = drivers.sharesOutstanding;
  const retired = (buyback * 1000) / drivers.sharePrice;
  const issued = (stockBasedCompensation * 1000 * SBC_SHARE_ISSUANCE) / drivers.sharePrice;
  drivers.sharesOutstanding = Math.max(1, Math.round(opening - retired + issued));
  const basic = Math.round((opening + drivers.sharesOutstanding) / 2);
  // Options and RSUs are anti-dilutive in a loss quarter, so diluted equals basic then.
  const diluted = netIncome > 0 ? Math.round(basic * (1 + dilution)) : basic;
  return { basic, diluted };
}

/** Sets the quarterly dividend at the start of each fiscal year from the trailing four quarters' earnings. */
function resetDividend(model: CompanyModel, drivers: Drivers): void {
  const trailing = drivers.recentNetIncome.reduce((sum, value) => sum + value, 0);
  drivers.quarterlyDividend = toInt((model.profile.payout * Math.max(0, trailing)) / 4);
}

function simulateQuarter(
  model: CompanyModel,
  drivers: Drivers,
  prev: Balance,
  period: FiscalPeriod,
  quarterIndex: number,
): PeriodFigures {
  const p = model.profile;
  const rng = model.rng;
  if (period.fiscalQuarter === 1) {
    drivers.yearGrowth = model.spec.model.growth + rng.between(-0.03, 0.03);
    resetDividend(model, drivers);
  }
  drivers.trend *= Math.pow(1 + drivers.yearGrowth, 0.25);
  const annualTrend = drivers.trend * 4;
  drivers.sharePrice = Math.max(
    0.5,
    drivers.sharePrice * Math.pow(1 + drivers.yearGrowth, 0.25) * (1 + rng.between(-0.06, 0.06)),
  );

  const income = quarterIncome(model, drivers, prev, period, quarterIndex);
  const { netIncome, depreciationAndAmortization } = income;
  const stockBasedCompensation = toInt(income.revenue * p.sbcPct);

  const operating = operatingBalances(model, income.revenue, income.costOfRevenue, annualTrend);
  const changeInWorkingCapital =
    -(
      operating.receivables -
      prev.receivables +
      (operating.inventory - prev.inventory) +
      (operating.otherCurrentAssets - prev.otherCurrentAssets)
    ) +
    (operating.accountsPayable - prev.accountsPayable + (operating.accruedLiabilities - prev.accruedLiabilities));
  const operatingCashFlow = netIncome + depreciationAndAmortization + stockBasedCompensation + changeInWorkingCapital;

  const capexSpend = toInt((annualTrend / 4) * p.capexPct * (1 + rng.between(-0.1, 0.1)));
  const changeInOtherNonCurrentAssets = operating.otherNonCurrentAssets - prev.otherNonCurrentAssets;
  const changeInOtherLiabilities = operating.otherLiabilities - prev.otherLiabilities;
  const changeInShortTermDebt = operating.shortTermDebt - prev.shortTermDebt;
  const dividends = drivers.quarterlyDividend;

  const cashBeforeFunding =
    prev.cashAndEquivalents +
    operatingCashFlow -
    capexSpend -
    changeInOtherNonCurrentAssets -
    dividends +
    changeInShortTermDebt +
    changeInOtherLiabilities;
  const funding = fundQuarter(model, prev, cashBeforeFunding, operatingCashFlow - capexSpend - dividends, annualTrend);

  const capitalExpenditure = negate(capexSpend);
  const investingCashFlow = capitalExpenditure - funding.changeInShortTermInvestments - changeInOtherNonCurrentAssets;
  const dividendsPaid = negate(dividends);
  const shareRepurchases = negate(funding.buyback);
  const financingCashFlow =
    dividendsPaid + shareRepurchases + changeInShortTermDebt + funding.changeInLongTermDebt + changeInOtherLiabilities;
  const netChangeInCash = operatingCashFlow + investingCashFlow + financingCashFlow;

  const balance: Balance = {
    ...operating,
    cashAndEquivalents: prev.cashAndEquivalents + netChangeInCash,
    shortTermInvestments: prev.shortTermInvestments + funding.changeInShortTermInvestments,
    ppeNet: prev.ppeNet + capexSpend - depreciationAndAmortization,
    goodwillAndIntangibles: prev.goodwillAndIntangibles,
    longTermDebt: prev.longTermDebt + funding.changeInLongTermDebt,
    retainedEarnings: prev.retainedEarnings + netIncome - dividends,
    totalEquity: prev.totalEquity + netIncome + stockBasedCompensation - dividends - funding.buyback,
  };

  drivers.recentNetIncome = [...drivers.recentNetIncome.slice(1), netIncome];
  const shares = updateShares(drivers, funding.buyback, stockBasedCompensation, netIncome, 0.004 + p.sbcPct * 0.15);
  return {
    period,
    income,
    shares,
    balance,
    cashFlow: {
      netIncome,
      depreciationAndAmortization,
      stockBasedCompensation,
      changeInWorkingCapital,
      operatingCashFlow,
      capitalExpenditure,
      investingCashFlow,
      dividendsPaid,
      shareRepurchases,
      financingCashFlow,
      netChangeInCash,
      freeCashFlow: operatingCashFlow + capitalExpenditure,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Periods and fiscal-year aggregation
// ---------------------------------------------------------------------------------------------------------------

/** Quarters from Q1 of the first fiscal year through the last one ending on or before the cut-off date. */
function reportedQuarters(fiscalYearEndMonth: number): FiscalPeriod[] {
  const quarters: FiscalPeriod[] = [];
  for (let year = DEMO_FIRST_FISCAL_YEAR; ; year++) {
    for (let q = 1; q <= 4; q++) {
      const period = quarter(year, q);
      if (periodDates(period, fiscalYearEndMonth).end > DEMO_LAST_PERIOD_END) return quarters;
      quarters.push(period);
    }
  }
}

function sumOf(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0);
}

/** A fiscal year: flows are the sums of its quarters, shares their average, the balance that of Q4. */
function fiscalYearFigures(year: number, quarters: PeriodFigures[]): PeriodFigures {
  const income = {} as IncomeFlows;
  for (const key of INCOME_FLOW_KEYS) {
    const values = quarters.map((q) => q.income[key]);
    (income as Record<IncomeFlowKey, number | null>)[key] = values.some((v) => v === null)
      ? null
      : sumOf(values as number[]);
  }
  const cashFlow = {} as CashFlows;
  for (const key of CASH_FLOW_KEYS) cashFlow[key] = sumOf(quarters.map((q) => q.cashFlow[key]));
  const shares = {
    basic: Math.round(sumOf(quarters.map((q) => q.shares.basic)) / 4),
    diluted: Math.round(sumOf(quarters.map((q) => q.shares.diluted)) / 4),
  };
  return { period: fiscalYear(year), income, cashFlow, shares, balance: quarters[3].balance };
}

/** Runs the model for one company: its quarters and complete fiscal years in reporting order. */
function simulateCompany(spec: CompanySpec): { carriesInventory: boolean; figures: PeriodFigures[] } {
  const model = buildModel(spec);
  const drivers = openingDrivers(model);
  let previous = openingBalance(model, drivers, quarter(DEMO_FIRST_FISCAL_YEAR - 1, 4));
  seedRecentNetIncome(model, drivers, previous);
  const figures: PeriodFigures[] = [];
  let currentYear: PeriodFigures[] = [];
  reportedQuarters(spec.fiscalYearEnd).forEach((period, index) => {
    const quarterFigures = simulateQuarter(model, drivers, previous, period, index + 1);
    previous = quarterFigures.balance;
    figures.push(quarterFigures);
    currentYear.push(quarterFigures);
    if (period.fiscalQuarter === 4) {
      figures.push(fiscalYearFigures(period.fiscalYear, currentYear));
      currentYear = [];
    }
  });
  return { carriesInventory: model.profile.dio !== null, figures };
}

// ---------------------------------------------------------------------------------------------------------------
// Output rows (currency units)
// ---------------------------------------------------------------------------------------------------------------

/** Thousands back to currency units. */
function units(thousands: number): number;
function units(thousands: number | null): number | null;
function units(thousands: number | null): number | null {
  return thousands === null ? null : thousands * 1000;
}

function periodColumns(company: DemoCompany, period: FiscalPeriod) {
  const { start, end } = periodDates(period, company.fiscalYearEnd);
  return {
    ticker: company.ticker,
    period: period.label,
    fiscalYear: period.fiscalYear,
    fiscalQuarter: period.fiscalQuarter,
    periodStart: start,
    periodEnd: end,
    currency: company.currency,
  };
}

function incomeRow(company: DemoCompany, figures: PeriodFigures): Row<IncomeStatement> {
  const i = figures.income;
  const netIncome = units(i.netIncome);
  return {
    ...periodColumns(company, figures.period),
    revenue: units(i.revenue),
    costOfRevenue: units(i.costOfRevenue),
    grossProfit: units(i.grossProfit),
    researchAndDevelopment: units(i.researchAndDevelopment),
    sellingGeneralAndAdministrative: units(i.sellingGeneralAndAdministrative),
    operatingExpenses: units(i.operatingExpenses),
    operatingIncome: units(i.operatingIncome),
    interestExpense: units(i.interestExpense),
    incomeBeforeTax: units(i.incomeBeforeTax),
    incomeTaxExpense: units(i.incomeTaxExpense),
    netIncome,
    epsBasic: round2(netIncome / figures.shares.basic),
    epsDiluted: round2(netIncome / figures.shares.diluted),
    sharesBasic: figures.shares.basic,
    sharesDiluted: figures.shares.diluted,
    depreciationAndAmortization: units(i.depreciationAndAmortization),
    ebitda: units(i.ebitda),
  };
}

function balanceRow(company: DemoCompany, figures: PeriodFigures, carriesInventory: boolean): Row<BalanceSheet> {
  const b = figures.balance;
  const totalCurrentAssets =
    b.cashAndEquivalents + b.shortTermInvestments + b.receivables + b.inventory + b.otherCurrentAssets;
  const totalAssets = totalCurrentAssets + b.ppeNet + b.goodwillAndIntangibles + b.otherNonCurrentAssets;
  const totalCurrentLiabilities = b.accountsPayable + b.shortTermDebt + b.accruedLiabilities;
  const totalLiabilities = totalCurrentLiabilities + b.longTermDebt + b.otherLiabilities;
  return {
    ...periodColumns(company, figures.period),
    cashAndEquivalents: units(b.cashAndEquivalents),
    shortTermInvestments: units(b.shortTermInvestments),
    receivables: units(b.receivables),
    inventory: carriesInventory ? units(b.inventory) : null,
    totalCurrentAssets: units(totalCurrentAssets),
    ppeNet: units(b.ppeNet),
    goodwillAndIntangibles: units(b.goodwillAndIntangibles),
    totalAssets: units(totalAssets),
    accountsPayable: units(b.accountsPayable),
    shortTermDebt: units(b.shortTermDebt),
    totalCurrentLiabilities: units(totalCurrentLiabilities),
    longTermDebt: units(b.longTermDebt),
    totalLiabilities: units(totalLiabilities),
    retainedEarnings: units(b.retainedEarnings),
    totalEquity: units(b.totalEquity),
    // The demo companies have one current debt line, no restricted cash, minority or mezzanine equity.
    restrictedCash: null,
    shortTermBorrowings: null,
    commercialPaper: null,
    currentPortionOfLongTermDebt: null,
    totalDebt: units(b.shortTermDebt + b.longTermDebt),
    nonControllingInterest: null,
    temporaryEquity: null,
    totalLiabilitiesAndEquity: units(totalLiabilities + b.totalEquity),
  };
}

function cashFlowRow(company: DemoCompany, figures: PeriodFigures): Row<CashFlowStatement> {
  const c = figures.cashFlow;
  return {
    ...periodColumns(company, figures.period),
    netIncome: units(c.netIncome),
    depreciationAndAmortization: units(c.depreciationAndAmortization),
    stockBasedCompensation: units(c.stockBasedCompensation),
    changeInWorkingCapital: units(c.changeInWorkingCapital),
    operatingCashFlow: units(c.operatingCashFlow),
    capitalExpenditure: units(c.capitalExpenditure),
    investingCashFlow: units(c.investingCashFlow),
    dividendsPaid: units(c.dividendsPaid),
    shareRepurchases: units(c.shareRepurchases),
    financingCashFlow: units(c.financingCashFlow),
    netChangeInCash: units(c.netChangeInCash),
    freeCashFlow: units(c.freeCashFlow),
  };
}

function toDemoCompany(spec: CompanySpec): DemoCompany {
  const { model: _model, ...company } = spec;
  return company;
}

/**
 * The demo dataset: fictional companies and, for each, quarterly and fiscal-year statements from fiscal 2022
 * through the last quarter ending by 2026-09-30. Same output on every call.
 */
export function generateDemoData(): DemoDataset {
  const dataset: DemoDataset = { companies: [], incomeStatements: [], balanceSheets: [], cashFlowStatements: [] };
  for (const spec of COMPANY_SPECS) {
    const company = toDemoCompany(spec);
    dataset.companies.push(company);
    const { carriesInventory, figures: periods } = simulateCompany(spec);
    for (const figures of periods) {
      dataset.incomeStatements.push(incomeRow(company, figures));
      dataset.balanceSheets.push(balanceRow(company, figures, carriesInventory));
      dataset.cashFlowStatements.push(cashFlowRow(company, figures));
    }
  }
  return dataset;
}
