import { ADDRESSED_TO_READER, answerQuestion, BOILERPLATE } from './question/answer-text';
import { answerFigure } from './question/figure-answer';
import type { CompanyFacts, DocumentPassage, FactSheet, StatementFact } from './facts';
import { splitSentences } from '../search/chunker';
import { formatFact, type ChatTurn, type SummaryType, type Writer, type WritingTask } from './writer';

/**
 * The built-in analyst: works offline and writes from the facts alone. It does not fill one template; it scores
 * what is notable in the numbers (fast growth or decline, margin shifts, leverage, liquidity, cash generation,
 * risks quoted from the company's documents) and writes the most notable points first, so different data gives a
 * different text. Every figure it prints is a fact, formatted the way the grounding check reads it back.
 */
export const BUILTIN_ANALYST_MODEL = 'builtin-analyst-v1';

type Topic = 'growth' | 'profitability' | 'balance_sheet' | 'cash_flow' | 'risks';

interface Observation {
  topic: Topic;
  /** How notable it is; the text leads with the highest. */
  salience: number;
  /** A sign of financial risk (decline, loss, leverage, tight liquidity, cash burn). */
  risk: boolean;
  sentence: string;
}

const SUMMARY_TOPICS: Record<SummaryType, Topic[]> = {
  overview: ['growth', 'profitability', 'balance_sheet', 'cash_flow', 'risks'],
  profitability: ['growth', 'profitability'],
  balance_sheet: ['balance_sheet'],
  cash_flow: ['cash_flow'],
  risks: ['risks'],
};

/** Sentences of a document that read as a risk statement; instructions addressed to a reader are never quoted. */
const RISK_WORDS =
  /\b(risk|could|may|adverse|uncertain|depend|competition|competitive|regulat|litigation|decline|volatil|disrupt|shortage|exposure|impair)/i;

class Facts {
  constructor(private readonly company: CompanyFacts) {}

  get(field: string): StatementFact | undefined {
    return this.company.current.get(field);
  }

  value(field: string): number | undefined {
    return this.get(field)?.value;
  }

  /** A fact as text; callers check that the fact exists first. */
  text(field: string): string {
    return formatFact(this.get(field) as StatementFact, this.company.company.currency);
  }

  /** The size of a fact without its sign, for amounts the words already sign ("a net loss of", "paid"). */
  magnitude(field: string): string {
    const fact = this.get(field) as StatementFact;
    return formatFact({ ...fact, value: Math.abs(fact.value) }, this.company.company.currency);
  }
}

function growthObservations(c: CompanyFacts, f: Facts): Observation[] {
  const change = f.value('revenueChange');
  if (change === undefined || f.value('revenue') === undefined) return [];
  const size = Math.abs(change);
  const sentence =
    change >= 0.15
      ? `Growth was strong: revenue rose ${f.text('revenueChange')} from ${c.priorPeriod}.`
      : change <= -0.05
        ? `Revenue fell ${formatFact({ value: size, unit: 'fraction' })} from ${c.priorPeriod}, a clear headwind.`
        : change >= 0
          ? `Revenue grew a modest ${f.text('revenueChange')} on ${c.priorPeriod}.`
          : `Revenue slipped ${formatFact({ value: size, unit: 'fraction' })} from ${c.priorPeriod}.`;
  const observations: Observation[] = [{ topic: 'growth', salience: 1 + size * 8, risk: change <= -0.05, sentence }];
  const incomeChange = f.value('netIncomeChange');
  if (incomeChange !== undefined && Math.abs(incomeChange - change) >= 0.1) {
    const direction = incomeChange >= 0 ? 'rose' : 'fell';
    observations.push({
      topic: 'growth',
      salience: 1 + Math.abs(incomeChange - change) * 4,
      risk: incomeChange < -0.1,
      sentence: `Net income ${direction} ${formatFact({ value: Math.abs(incomeChange), unit: 'fraction' })}, ${incomeChange > change ? 'outpacing' : 'lagging'} revenue.`,
    });
  }
  return observations;
}

function profitabilityObservations(f: Facts): Observation[] {
  const observations: Observation[] = [];
  const netIncome = f.value('netIncome');
  if (netIncome !== undefined && netIncome < 0) {
    observations.push({
      topic: 'profitability',
      salience: 4,
      risk: true,
      sentence: `It posted a net loss of ${f.magnitude('netIncome')}.`,
    });
  } else if (netIncome !== undefined && f.get('netMargin')) {
    observations.push({
      topic: 'profitability',
      salience: 1.5,
      risk: false,
      sentence: `Net income was ${f.text('netIncome')}, a net margin of ${f.text('netMargin')}.`,
    });
  }
  for (const [field, label] of [
    ['grossMargin', 'Gross margin'],
    ['operatingMargin', 'Operating margin'],
    ['netMargin', 'Net margin'],
  ] as const) {
    const shift = f.value(`${field}Change`);
    if (shift === undefined || Math.abs(shift) < 0.01 || !f.get(field)) continue;
    observations.push({
      topic: 'profitability',
      salience: 1 + Math.abs(shift) * 40,
      risk: shift <= -0.02,
      sentence: `${label} ${shift > 0 ? 'widened' : 'narrowed'} by ${f.text(`${field}Change`)} to ${f.text(field)}.`,
    });
  }
  const roe = f.value('returnOnEquity');
  if (roe !== undefined) {
    observations.push({
      topic: 'profitability',
      salience: 0.8 + Math.abs(roe),
      risk: roe < 0,
      sentence: `Return on equity stood at ${f.text('returnOnEquity')}.`,
    });
  }
  return observations;
}

function balanceObservations(c: CompanyFacts, f: Facts): Observation[] {
  const observations: Observation[] = [];
  if (f.get('totalAssets') && f.get('totalLiabilities') && f.get('totalEquity')) {
    observations.push({
      topic: 'balance_sheet',
      salience: 1,
      risk: false,
      sentence: `At the end of ${c.period} it held total assets of ${f.text('totalAssets')} against total liabilities of ${f.text('totalLiabilities')}, leaving shareholders\u2019 equity of ${f.text('totalEquity')}.`,
    });
  }
  const leverage = f.value('debtToEquity');
  if (leverage !== undefined) {
    const debt = f.get('totalDebt') ? ` on total debt of ${f.text('totalDebt')}` : '';
    observations.push(
      leverage >= 1.5
        ? {
            topic: 'balance_sheet',
            salience: 2 + leverage / 2,
            risk: true,
            sentence: `Leverage is high: debt to equity is ${f.text('debtToEquity')}${debt}.`,
          }
        : leverage <= 0.3
          ? {
              topic: 'balance_sheet',
              salience: 1.2,
              risk: false,
              sentence: `The balance sheet carries little debt (debt to equity of ${f.text('debtToEquity')}).`,
            }
          : {
              topic: 'balance_sheet',
              salience: 0.9,
              risk: false,
              sentence: `Debt to equity is a moderate ${f.text('debtToEquity')}${debt}.`,
            },
    );
  }
  const liquidity = f.value('currentRatio');
  if (liquidity !== undefined && (liquidity < 1 || liquidity >= 2)) {
    observations.push(
      liquidity < 1
        ? {
            topic: 'balance_sheet',
            salience: 2.5,
            risk: true,
            sentence: `Liquidity is tight: the current ratio is ${f.text('currentRatio')}.`,
          }
        : {
            topic: 'balance_sheet',
            salience: 1,
            risk: false,
            sentence: `Liquidity is ample, with a current ratio of ${f.text('currentRatio')} and cash of ${f.get('cashAndEquivalents') ? f.text('cashAndEquivalents') : 'no reported amount'}.`,
          },
    );
  }
  const coverage = f.value('interestCoverage');
  if (coverage !== undefined && coverage < 3) {
    observations.push({
      topic: 'balance_sheet',
      salience: 2.5,
      risk: true,
      sentence: `Interest coverage is thin at ${f.text('interestCoverage')}.`,
    });
  }
  return observations;
}

function cashObservations(f: Facts): Observation[] {
  const observations: Observation[] = [];
  const freeCashFlow = f.value('freeCashFlow');
  if (freeCashFlow !== undefined && freeCashFlow < 0) {
    observations.push({
      topic: 'cash_flow',
      salience: 3,
      risk: true,
      sentence: `Free cash flow was negative at ${f.text('freeCashFlow')}, so the business consumed cash.`,
    });
  } else if (freeCashFlow !== undefined && f.get('operatingCashFlow') && f.get('capitalExpenditure')) {
    const margin = f.get('freeCashFlowMargin') ? ` (${f.text('freeCashFlowMargin')} of revenue)` : '';
    observations.push({
      topic: 'cash_flow',
      salience: 1.2 + (f.value('freeCashFlowMargin') ?? 0) * 4,
      risk: false,
      sentence: `Operating cash flow of ${f.text('operatingCashFlow')} covered capital expenditure of ${f.magnitude('capitalExpenditure')}, leaving free cash flow of ${f.text('freeCashFlow')}${margin}.`,
    });
  }
  const operating = f.value('operatingCashFlow');
  const netIncome = f.value('netIncome');
  if (operating !== undefined && netIncome !== undefined && netIncome > 0 && operating < netIncome * 0.8) {
    observations.push({
      topic: 'cash_flow',
      salience: 2,
      risk: true,
      sentence: `Operating cash flow (${f.text('operatingCashFlow')}) trailed net income (${f.text('netIncome')}), so earnings were not fully backed by cash.`,
    });
  }
  const dividends = f.value('dividendsPaid');
  const buybacks = f.value('shareRepurchases');
  if (dividends && buybacks) {
    observations.push({
      topic: 'cash_flow',
      salience: 0.7,
      risk: false,
      sentence: `It returned cash through dividends of ${f.magnitude('dividendsPaid')} and share repurchases of ${f.magnitude('shareRepurchases')}.`,
    });
  }
  return observations;
}

/** Up to `limit` risk sentences quoted from the company's passages, with their document titles. */
function documentRisks(passages: DocumentPassage[], limit: number): Observation[] {
  const quotes: Observation[] = [];
  const quoted = new Set<string>();
  for (const passage of passages) {
    // Line by line first, so a heading never runs into the sentence after it; sentences that introduce risks in
    // general ("The following risk factors should be considered…") name none, and a sentence is quoted once.
    const sentence = passage.content
      .split(/\n+/)
      .flatMap((line) => splitSentences(line.trim()))
      .find(
        (candidate) =>
          RISK_WORDS.test(candidate) &&
          !ADDRESSED_TO_READER.test(candidate) &&
          !BOILERPLATE.test(candidate) &&
          !quoted.has(candidate) &&
          candidate.length >= 40 &&
          candidate.length <= 400,
      );
    if (sentence) quoted.add(sentence);
    if (sentence)
      quotes.push({
        topic: 'risks',
        salience: 1.5 - quotes.length * 0.1,
        risk: true,
        sentence: `Its ${passage.title} notes: \u201c${sentence}\u201d`,
      });
    if (quotes.length >= limit) break;
  }
  return quotes;
}

function observe(company: CompanyFacts, passages: DocumentPassage[]): Observation[] {
  const f = new Facts(company);
  const own = passages.filter((passage) => passage.companyId === company.company.id);
  return [
    ...growthObservations(company, f),
    ...profitabilityObservations(f),
    ...balanceObservations(company, f),
    ...cashObservations(f),
    ...documentRisks(own, 2),
  ];
}

function headline(company: CompanyFacts): string {
  const f = new Facts(company);
  const name = `${company.company.name} (${company.company.ticker})`;
  if (!f.get('revenue')) return `${name}: figures for ${company.period}.`;
  return `${name} reported revenue of ${f.text('revenue')} for ${company.period}.`;
}

function summarize(type: SummaryType, sheet: FactSheet): string {
  const [company] = sheet.companies;
  const topics = SUMMARY_TOPICS[type];
  const observations = observe(company, sheet.passages);
  let chosen = observations.filter((o) => topics.includes(o.topic));
  if (type === 'risks') {
    // Financial warning signs count as risks too, next to what the documents say.
    chosen = [...observations.filter((o) => o.risk && o.topic !== 'risks'), ...chosen];
    if (chosen.length === 0)
      return `${headline(company)} No financial warning signs stand out for ${company.period}, and the stored documents name no specific risks.`;
  }
  const limit = type === 'overview' ? 5 : 6;
  const body = chosen
    .sort((a, b) => b.salience - a.salience)
    .slice(0, limit)
    .map((o) => o.sentence);
  if (body.length === 0)
    return `${headline(company)} The stored statements have no figures on this for ${company.period}.`;
  return [headline(company), ...body].join(' ');
}

export const DEFAULT_COMPARE_METRICS = [
  'revenue',
  'revenueChange',
  'netIncome',
  'netMargin',
  'operatingMargin',
  'freeCashFlow',
  'debtToEquity',
  'currentRatio',
  'returnOnEquity',
];
const MONEY_UNITS = new Set(['money', 'money_per_share']);
const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Metrics where less is better. */
const LOWER_IS_BETTER = new Set(['debtToEquity', 'netDebtToEbitda', 'totalDebt', 'totalLiabilities']);
/** Cash outflows, stored negative: they are ranked by size (the largest buyback leads, not the smallest). */
const OUTFLOWS = new Set(['capitalExpenditure', 'shareRepurchases', 'dividendsPaid']);
const rankValue = (metric: string, value: number) => (OUTFLOWS.has(metric) ? Math.abs(value) : value);

function compare(sheet: FactSheet, metrics: string[]): string {
  const names = sheet.companies.map((c) => c.company.ticker);
  const periods = [...new Set(sheet.companies.map((c) => c.period))];
  const intro = `Comparing ${names.slice(0, -1).join(', ')} and ${names.at(-1)} for ${periods.join(' / ')}.`;
  const lines: Array<{ spread: number; sentence: string; leader: string }> = [];
  for (const metric of metrics) {
    const values = sheet.companies
      .map((c) => ({ ticker: c.company.ticker, fact: c.current.get(metric), currency: c.company.currency }))
      .filter((v): v is { ticker: string; fact: StatementFact; currency: string } => v.fact !== undefined);
    if (values.length < 2) continue;
    const currencies = new Set(values.map((v) => v.currency));
    if (MONEY_UNITS.has(values[0].fact.unit) && currencies.size > 1) {
      // Amounts in different currencies are not ranked (no exchange rates here); they are listed side by side.
      const listed = values.map((v) => `${v.ticker} ${formatFact(v.fact, v.currency)}`).join(', ');
      lines.push({
        spread: 0,
        leader: '',
        sentence: `${capitalized(values[0].fact.label)} is reported in different currencies: ${listed}.`,
      });
      continue;
    }
    values.sort((a, b) =>
      LOWER_IS_BETTER.has(metric)
        ? a.fact.value - b.fact.value
        : rankValue(metric, b.fact.value) - rankValue(metric, a.fact.value),
    );
    const [best, worst] = [values[0], values[values.length - 1]];
    const scale = Math.max(Math.abs(best.fact.value), Math.abs(worst.fact.value)) || 1;
    const label = capitalized(best.fact.label);
    lines.push({
      spread: Math.abs(best.fact.value - worst.fact.value) / scale,
      leader: best.ticker,
      sentence: `${label}: ${best.ticker} leads at ${formatFact({ ...best.fact, value: rankValue(metric, best.fact.value) }, best.currency)}, against ${formatFact({ ...worst.fact, value: rankValue(metric, worst.fact.value) }, worst.currency)} for ${worst.ticker}.`,
    });
  }
  if (lines.length === 0) return `${intro} The stored statements share no comparable figures for these companies.`;
  const wins = new Map<string, number>();
  for (const line of lines) if (line.leader) wins.set(line.leader, (wins.get(line.leader) ?? 0) + 1);
  const [leader, count] = [...wins].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  const ordered = lines.sort((a, b) => b.spread - a.spread).map((line) => line.sentence);
  const closing =
    count > lines.length / 2
      ? `Overall, ${leader} leads on most of the compared measures.`
      : 'No company leads on most of the compared measures.';
  return [intro, ...ordered, closing].join(' ');
}

/** Words in a question that point to a topic. */
const QUESTION_TOPICS: Array<[RegExp, Topic]> = [
  [/\b(revenue|sales|top line|grow|growth|turnover)/i, 'growth'],
  [/\b(profit|earnings|net income|margin|return on|roe|eps|loss)/i, 'profitability'],
  [/\b(debt|leverage|liquidity|balance sheet|assets|liabilit|equity|solven)/i, 'balance_sheet'],
  [/\b(cash|fcf|capex|capital expenditure|dividend|buyback|repurchase)/i, 'cash_flow'],
  [/\b(risk|threat|concern|challenge|uncertain|competition|regulat|headwind)/i, 'risks'],
];

function answer(sheet: FactSheet, messages: ChatTurn[]): string {
  const question = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
  // A metric the question defines otherwise is not answered with the service's own formula.
  if (sheet.notComputed) return sheet.notComputed;
  // A metric the question defines is evaluated as defined.
  if (sheet.defined) return sheet.defined.text;
  // A question about the whole market is answered by the screener's ranked list.
  if (sheet.screened) return sheet.screened.text;
  // A figure only the documents hold is answered from them, never with a stored total in its place.
  if (sheet.figures) return answerFigure(sheet.figures);
  const asked = sheet.asked ? answerQuestion(sheet.asked, sheet.passages) : null;
  if (asked) return asked;
  const topics = QUESTION_TOPICS.filter(([pattern]) => pattern.test(question)).map(([, topic]) => topic);
  if (sheet.companies.length === 0) {
    const quotes = sheet.passages
      .slice(0, 2)
      .map(
        (p) =>
          `${p.ticker}\u2019s ${p.title} says: \u201c${splitSentences(p.content.replace(/\s+/g, ' '))[0] ?? ''}\u201d`,
      );
    if (quotes.length === 0)
      return 'I found no stored figures or documents for this question. Name a company (by ticker) or pass company_ids, and ask about its revenue, profitability, balance sheet, cash flow or risks.';
    return ['No company was named, so here is what the stored documents say.', ...quotes].join(' ');
  }
  if (sheet.companies.length > 1 && /\b(compare|comparison|versus|vs\.?|better|best|worse|against)\b/i.test(question)) {
    return compare(sheet, DEFAULT_COMPARE_METRICS);
  }
  const wanted: Topic[] = topics.length > 0 ? topics : SUMMARY_TOPICS.overview;
  const parts: string[] = [];
  for (const company of sheet.companies) {
    const chosen = observe(company, sheet.passages)
      .filter((o) => wanted.includes(o.topic))
      .sort((a, b) => b.salience - a.salience)
      .slice(0, 4);
    parts.push(
      headline(company),
      ...(chosen.length > 0
        ? chosen.map((o) => o.sentence)
        : [`The stored figures for ${company.period} do not cover that.`]),
    );
  }
  return parts.join(' ');
}

/** The analyst's whole text for a task (deterministic: the same facts give the same text). */
export function writeAnalysis(task: WritingTask): string {
  if (task.kind === 'summary') return summarize(task.summaryType, task.sheet);
  if (task.kind === 'comparison') return compare(task.sheet, task.metrics);
  return answer(task.sheet, task.messages);
}

/** Splits text into word-sized pieces for streaming; joined again they give the text back exactly. */
export function streamPieces(text: string): string[] {
  return text.match(/\S+\s*/g) ?? [];
}

export class BuiltinAnalyst implements Writer {
  readonly model = BUILTIN_ANALYST_MODEL;

  async *write(task: WritingTask, signal: AbortSignal): AsyncIterable<string> {
    for (const piece of streamPieces(writeAnalysis(task))) {
      if (signal.aborted) return;
      yield piece;
      // One piece per turn of the event loop, so a streaming client receives them as separate events.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
