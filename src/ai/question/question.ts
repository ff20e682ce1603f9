/**
 * Question understanding, shared by the built-in analyst and the language-model path: which companies, periods and
 * metrics a question asks about, and what it wants (a value, a series, a change, a comparison, drivers or risks).
 * A follow-up ("And the net income in that year?") inherits what it does not say from the turns before it.
 */
import { findCompanies, normalizeWords, unknownCompanyName, type CompanyRef } from '../../understanding/companies';
import { findMetrics, type Metric } from '../../understanding/metrics';
import { parsePeriods, periodsBetween, type PeriodAsk } from './periods';
import { figureAsk, type FigureAsk } from './asked-figure';
import { strongTerms } from '../../understanding/figure-terms';
import { separateInstructions } from './instructions';
import { definitionGap, type DefinitionGap } from '../../understanding/definitions';
import {
  definedMetric,
  definedNames,
  roundingAsked,
  yearsSpanned,
  type DefinedMetric,
} from '../../understanding/defined-metric';
import { composedMetric } from '../../understanding/composed-metric';
import { screenAsk, type ScreenAsk } from './screen-ask';

export type Intent = 'value' | 'series' | 'change' | 'comparison' | 'drivers' | 'risks';

export interface ParsedQuestion {
  /** The question without the instructions written around it (how to answer, a role to play). */
  text: string;
  intent: Intent;
  companies: CompanyRef[];
  /** A name the question gives for a company that is not in the data (then `companies` is empty or partial). */
  unknownCompany: string | null;
  /** A name that fits several companies equally well ("Delta"): none of them is assumed, the answer lists them. */
  ambiguousCompany: { words: string; candidates: CompanyRef[] } | null;
  /** Null: the question names no period (the newest stored one is meant). */
  period: PeriodAsk | null;
  metrics: Metric[];
  /** A figure only the documents hold (a product, segment, region, KPI…), or null for a stored field or metric. */
  figure: FigureAsk | null;
  /** What was taken from earlier turns. */
  inherited: Array<'companies' | 'period' | 'metrics' | 'figure'>;
  /** A metric the question defines otherwise than the service computes it (then no figure is given for it). */
  definitionGap: DefinitionGap | null;
  /** The metric the question defines over stored fields, when that is what it asks: it is evaluated as defined. */
  defined: DefinedMetric | null;
  /** A question about the whole market ("Which company has the highest net margin?"): the screen it asks for. */
  screen: ScreenAsk | null;
}

const RISKS =
  /\b(?:risks?|risk factors?|threats?|headwinds?|uncertaint(?:y|ies)|what could go wrong|exposures?|vulnerab\w*)\b/i;
// "Net income attributable to shareholders" names a line, not a cause.
const DRIVERS =
  /\b(?:why|drivers?|driven|drove|reasons?|explain\w*|what caused|caused|behind|contributed|attributable(?! to (?:the )?(?:share|stock|common|parent|non-?controlling|minority|owners|equity|\w+ (?:share|stock)holders)))\b/i;
const COMPARISON =
  /\b(?:compare[sd]?|comparison|comparing|versus|vs\.?|against|relative to|better|worse|higher|lower|bigger|larger|smaller|more than|less than|which (?:company|one|of))\b/i;
const CHANGE =
  /\b(?:grow|grew|grown|growth|change[sd]?|increase[sd]?|decrease[sd]?|decline[sd]?|rise|rose|fall|fell|drop(?:ped)?|compared (?:with|to) the (?:year|quarter) before|year[- ]over[- ]year|yoy|y\/y|by how much)\b/i;
const SERIES =
  /\b(?:trend|develop(?:ed|ment)?|evolve[sd]?|over (?:the|time)|history|each|every|series|quarterly|by quarter|by year|over the last|over the past)\b/i;
/** A follow-up that leans on the turn before: "And …", "What about …", "that year", "its …". */
const FOLLOW_UP =
  /^\s*(?:and|also|what about|how about|same|now|then)\b|\b(?:that|the same) (?:year|quarter|period)\b|\b(?:its|their|it|they|them)\b/i;

/** Whether the metric is itself a growth ratio (then "growth" is a value, not a change to compute). */
const isGrowthRatio = (metric: Metric) => metric.source === 'ratio' && /Growth$/.test(metric.key);

function intentOf(text: string, companies: number, period: PeriodAsk | null, metrics: Metric[]): Intent {
  if (RISKS.test(text)) return 'risks';
  if (DRIVERS.test(text)) return 'drivers';
  if (companies > 1 && (COMPARISON.test(text) || /\band\b|,/i.test(text))) return 'comparison';
  if (period && (period.kind === 'range' || period.kind === 'last')) return 'series';
  if (period?.kind === 'exact' && period.periods.length > 1) return 'series';
  if (CHANGE.test(text) && !metrics.every(isGrowthRatio)) return 'change';
  if (SERIES.test(text) && period === null) return 'series';
  return 'value';
}

/**
 * Reads one question. `previous` is the reading of the conversation's earlier question (if any): a follow-up takes
 * its companies, period and metrics when it names none of its own.
 */
export function parseQuestion(
  asked: string,
  directory: CompanyRef[],
  previous: ParsedQuestion | null = null,
): ParsedQuestion {
  const { question: text, instructions } = separateInstructions(asked);
  const mentions = findCompanies(text, directory);
  const ambiguous = mentions.find((mention) => mention.alternatives.length > 0);
  let companies = mentions
    .filter((mention) => mention.alternatives.length === 0)
    .map((mention) => mention.company)
    .slice(0, 5);
  let period = parsePeriods(text);
  let metrics = findMetrics(text);
  const inherited: ParsedQuestion['inherited'] = [];
  const followUp =
    previous !== null && (FOLLOW_UP.test(text) || companies.length === 0 || metrics.length === 0 || period === null);
  if (previous && followUp) {
    if (companies.length === 0 && previous.companies.length > 0) {
      companies = previous.companies;
      inherited.push('companies');
    }
    if (period === null && previous.period !== null) {
      period = previous.period;
      inherited.push('period');
    }
    if (metrics.length === 0 && previous.metrics.length > 0 && !RISKS.test(text) && !DRIVERS.test(text)) {
      metrics = previous.metrics;
      inherited.push('metrics');
    }
  }
  const namedUnknown =
    companies.length === 0 || mentions.length === 0
      ? unknownName(text, companies.length > 0)
      : unknownAmongListed(text, directory);
  // The name that fits several companies is not unknown.
  const unknownCompany =
    ambiguous && namedUnknown && normalizeWords(namedUnknown).includes(ambiguous.words) ? null : namedUnknown;
  let intent = intentOf(text, companies.length, period, metrics);
  // A follow-up of a "why" or risk question about another metric keeps asking why ("And what about its operating expenses?").
  if (
    previous &&
    inherited.includes('companies') &&
    previous.intent === 'drivers' &&
    intent === 'value' &&
    /^\s*(?:and|what about|how about)\b/i.test(text)
  )
    intent = 'drivers';
  const figure =
    intent === 'risks' || intent === 'drivers' || companies.length === 0
      ? null
      : askedFigure(text, companies, metrics, previous && followUp ? previous : null, inherited);
  // A capitalized word beside a known company may name what narrows the figure ("the United States and Canada region").
  // A name listed to be compared ("Compare VLTM and Quillfeather revenue") is a company, unknown; it narrows nothing.
  const narrows =
    figure !== null &&
    unknownCompany !== null &&
    !COMPARISON.test(text) &&
    strongTerms(unknownCompany).every((term) => figure.qualifier.includes(term));
  const reading: ParsedQuestion = {
    text,
    intent,
    companies,
    unknownCompany: narrows ? null : unknownCompany,
    ambiguousCompany: ambiguous
      ? { words: ambiguous.words, candidates: [ambiguous.company, ...ambiguous.alternatives] }
      : null,
    period,
    metrics,
    figure,
    inherited,
    definitionGap: metrics.map((metric) => definitionGap(metric, instructions)).find((gap) => gap !== null) ?? null,
    defined: null,
    // Only a question that names no company (nor an unknown or ambiguous one) is about the whole market.
    screen:
      companies.length === 0 && !unknownCompany && !ambiguous && intent !== 'risks' && intent !== 'drivers'
        ? screenAsk(text)
        : null,
  };
  const found = composedOf(text, reading, instructions) ?? asksDefined(text, companies, instructions);
  if (found && companies.length > 0) {
    const defined = { ...found, rounding: roundingAsked(instructions) };
    return { ...reading, intent: 'value', unknownCompany, figure: null, definitionGap: null, defined };
  }
  if (unknownCompany && !narrows && figure) return { ...reading, unknownCompany, figure: null };
  return reading;
}

/**
 * The measure a question about one company composes of known ones ("COGS % margin", "EBITDA less capex", "the
 * FY2018 - FY2020 average net margin"), at one period or averaged over the range of fiscal years it names.
 */
function composedOf(text: string, reading: ParsedQuestion, instructions: string[]): DefinedMetric | null {
  const { companies, period, intent } = reading;
  if (companies.length !== 1 || intent === 'drivers' || intent === 'risks') return null;
  const years =
    period?.kind === 'range' && period.from.type === 'ANNUAL'
      ? periodsBetween(period.from, period.to).map((p) => p.fiscalYear)
      : null;
  const composed = composedMetric(text, definedNames(instructions).named, years);
  if (!composed) return null;
  // Without an average, one period: a series or a trailing sum of a composed measure is not answered as one figure.
  const onePeriod =
    period === null || period.kind === 'latest' || (period.kind === 'exact' && period.periods.length === 1);
  return yearsSpanned(composed.expression).length > 0 || onePeriod ? composed : null;
}

/**
 * The metric the question defines, when the question asks for exactly it: its name is in the question, and nothing
 * else is asked beside it ("EBITDA less capex" with EBITDA defined asks for more than EBITDA).
 */
function asksDefined(text: string, companies: CompanyRef[], instructions: string[]): DefinedMetric | null {
  const defined = definedMetric(instructions);
  if (!defined) return null;
  const name = new RegExp(`\\b${defined.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}\\b`, 'i');
  // Named in the question, or by the acronym set aside beside it ("days payable outstanding (DPO)").
  const aside = instructions.some((instruction) => instruction.toLowerCase() === `(${defined.name.toLowerCase()})`);
  if (!name.test(text)) return aside ? defined : null;
  const rest = text.replace(name, ' ');
  return findMetrics(rest).length === 0 && figureAsk(rest, companies, []) === null ? defined : null;
}

/**
 * The document figure a question asks for. A follow-up that names no metric keeps the earlier figure ("and in
 * 2023?") or narrows the earlier measure anew ("and Mac?" after "iPhone net sales").
 */
function askedFigure(
  text: string,
  companies: CompanyRef[],
  metrics: Metric[],
  previous: ParsedQuestion | null,
  inherited: ParsedQuestion['inherited'],
): FigureAsk | null {
  // Only the metrics the question names itself: an inherited metric is the earlier question's measure.
  const named = inherited.includes('metrics') ? [] : metrics;
  const own = figureAsk(text, companies, named);
  if (own || !previous || named.length > 0) return own;
  const earlier = previous.figure;
  const other = figureAsk(text, companies, [], { followUp: true });
  if (!earlier && !other) return null;
  inherited.push('figure');
  if (!other) return earlier;
  const measure = earlier ? earlier.measure : strongTerms(previous.metrics.map((m) => m.label).join(' '));
  const measureWords = earlier
    ? earlier.wording
        .split(/\s+/)
        .filter((word) => measure.some((term) => word.toLowerCase().startsWith(term.slice(0, 4))))
        .join(' ')
    : previous.metrics.map((m) => m.label).join(' ');
  return {
    ...other,
    measure: earlier ? earlier.measure : other.measure.concat(measure.filter((t) => !other.measure.includes(t))),
    unit: earlier?.unit ?? other.unit,
    wording: `${other.wording} ${measureWords}`.trim(),
  };
}

/** An unknown company name, unless the question names a known one (or inherits one) and the "name" is just a word. */
function unknownName(text: string, haveCompany: boolean): string | null {
  if (haveCompany) return null;
  const name = unknownCompanyName(text);
  // "What about EBITDA?", "risks for Revenue": a metric's name is not a company's.
  return name && findMetrics(name).length === 0 && !/^(?:I|It|Its|They|Their|This|That|These|Those)$/.test(name)
    ? name
    : null;
}

const LISTED_NAME = String.raw`[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*`;
const NOT_A_NAME = /^(?:I|It|Its|They|Their|This|That|These|Those|What|How|Compare|Show|FY\S*|Q[1-4]\S*)$/;

/**
 * A name listed beside known companies ("Compare Apple and Quillfeather revenue", "Apple vs Quillfeather") that is no
 * company of the data: it must be said to be unknown rather than dropped from the answer.
 */
function unknownAmongListed(text: string, directory: CompanyRef[]): string | null {
  const listed = new RegExp(
    String.raw`(?:\b(?:compare|and|vs\.?|versus|between|with)\s+|,\s*)(${LISTED_NAME})|(${LISTED_NAME})(?:[’']s?)?(?=\s*(?:,|\band\b|\bvs\.?|\bversus\b))`,
    'g',
  );
  for (const match of text.matchAll(listed)) {
    const name = (match[1] ?? match[2])
      .replace(/[’']s?$/, '')
      .replace(/^(?:Compare|Between)\s+/, '')
      .trim();
    if (!/^[A-Z]/.test(name) || NOT_A_NAME.test(name) || findMetrics(name).length > 0) continue;
    if (findCompanies(name, directory).length === 0) return name;
  }
  return null;
}

/** Reads a conversation's user turns in order, each inheriting from the one before; returns the last reading. */
export function parseConversation(userTurns: string[], directory: CompanyRef[]): ParsedQuestion | null {
  let reading: ParsedQuestion | null = null;
  for (const turn of userTurns) reading = parseQuestion(turn, directory, reading);
  return reading;
}
