/**
 * A metric the question defines over stored fields ("Define net working capital as total current assets less total
 * current liabilities", "DPO is defined as: 365 * (average accounts payable between FY2017 and FY2018) / (FY2018 COGS
 * + change in inventory between FY2017 and FY2018)"), read into an expression the service can evaluate. A definition
 * that names anything the statements do not hold is not read: the answer then says so rather than guess.
 */
import { findMetrics, type Metric } from './metrics';
import type { FactUnit } from './fact-unit';

/**
 * A stored field's or ratio's value at a fiscal year, its average over two years, or its change. Without years it is
 * read at the period asked, and an average is over that period's end and the end of the one before.
 */
export interface FieldTerm {
  kind: 'field';
  metric: Metric;
  how: 'value' | 'average' | 'change';
  /** Fiscal years: one for a value, [from, to] for an average or a change; empty for the period asked. */
  years: number[];
  /** The words of the definition it was read from. */
  words: string;
}
export type Expression =
  | { kind: 'number'; value: number }
  | FieldTerm
  | { kind: 'operation'; operator: '+' | '-' | '*' | '/'; left: Expression; right: Expression }
  /** The mean of an expression evaluated at each of these fiscal years ("the FY2018 - FY2020 3 year average"). */
  | { kind: 'yearsAverage'; years: number[]; expression: Expression }
  /** Its compound annual growth from the first of these fiscal years to the last ("revenue CAGR from FY2018 to FY2021"). */
  | { kind: 'yearsGrowth'; years: number[]; expression: Expression };

/** The fiscal years an expression spans (an average or a growth over years), else none: it is of one period. */
export function yearsSpanned(expression: Expression): number[] {
  return expression.kind === 'yearsAverage' || expression.kind === 'yearsGrowth' ? expression.years : [];
}

export interface DefinedMetric {
  /** What the question calls it ("net working capital"). */
  name: string;
  /** The definition as written. */
  formula: string;
  expression: Expression;
  /** How the result is written, when the reading knows it (else it is inferred from the formula and the question). */
  unit?: FactUnit;
  /** Composed by the service from the question's words ("COGS % margin"), not defined by the question. */
  composed?: boolean;
  /** How the question asks the result to be written ("round to two decimal places", "in USD millions"). */
  rounding?: Rounding;
}

export interface Rounding {
  /** Decimals of the written figure (of the percentage for a share). */
  decimals: number | null;
  /** The scale an amount is asked in. */
  scale: 'thousands' | 'millions' | 'billions' | null;
}

const DECIMAL_WORDS: Record<string, number> = { zero: 0, no: 0, one: 1, two: 2, three: 3, four: 4 };

/** The rounding the question's instructions ask for: "Round your answer to two decimal places", "Answer in USD millions". */
export function roundingAsked(instructions: string[]): Rounding {
  const text = instructions.join(' ');
  const places = /\bround(?:ed)?\b[^.]*?\b(\d|zero|no|one|two|three|four)\s+decimal(?:\s+places?)?/i.exec(text);
  const scale = /\b(?:in|units of)\s+(?:usd|us\$|\$|dollars)?\s*(thousands|millions|billions)\b/i.exec(text);
  const decimals = places ? (DECIMAL_WORDS[places[1].toLowerCase()] ?? Number(places[1])) : null;
  return {
    decimals: decimals !== null && Number.isInteger(decimals) ? decimals : null,
    scale: scale ? (scale[1].toLowerCase() as Rounding['scale']) : null,
  };
}

const OPERATOR_WORDS: Array<[RegExp, string]> = [
  [/\s+(?:less|minus)\s+/gi, ' - '],
  [/\s+plus\s+/gi, ' + '],
  [/\s+divided by\s+/gi, ' / '],
  [/\s+(?:times|multiplied by)\s+/gi, ' * '],
  [/[×]/g, '*'],
  [/[÷]/g, '/'],
  [/[−–—]/g, '-'],
];

const YEAR = String.raw`(?:FY\s?)?((?:19|20)\d{2})`;
const AVERAGE = new RegExp(
  String.raw`^(?:the )?average (?:of )?(.+?) (?:between|from) ${YEAR} (?:and|to) ${YEAR}$`,
  'i',
);
const CHANGE = new RegExp(String.raw`^(?:the )?change in (.+?) (?:between|from) ${YEAR} (?:and|to) ${YEAR}$`, 'i');
const YEAR_FIRST = new RegExp(String.raw`^${YEAR} (.+)$`, 'i');
const YEAR_AFTER = new RegExp(String.raw`^(.+?) (?:in|for|of|at(?: the end of)?) ${YEAR}$`, 'i');
/** "average PP&E": over the end of the period asked and the end of the one before. */
const AVERAGE_OF_PERIOD = /^(?:the )?average (?:of )?(.+)$/i;

/** The stored field a phrase names: exactly one statement field, or null. */
function fieldOf(words: string): Metric | null {
  const found = findMetrics(words).filter((metric) => metric.source !== 'ratio');
  return found.length === 1 ? found[0] : null;
}

function termOf(phrase: string, named: Map<string, Expression>): Expression | null {
  const words = phrase.replace(/^(?:the|total of)\s+/i, '').trim();
  if (/^\d+(?:\.\d+)?$/.test(words)) return { kind: 'number', value: Number(words) };
  const reference = named.get(words.toLowerCase());
  if (reference) return reference;
  const spans: Array<[RegExp, FieldTerm['how'], (m: RegExpExecArray) => { field: string; years: number[] }]> = [
    [AVERAGE, 'average', (m) => ({ field: m[1], years: [Number(m[2]), Number(m[3])] })],
    [CHANGE, 'change', (m) => ({ field: m[1], years: [Number(m[2]), Number(m[3])] })],
    [YEAR_FIRST, 'value', (m) => ({ field: m[2], years: [Number(m[1])] })],
    [YEAR_AFTER, 'value', (m) => ({ field: m[1], years: [Number(m[2])] })],
    [AVERAGE_OF_PERIOD, 'average', (m) => ({ field: m[1], years: [] })],
  ];
  for (const [pattern, how, read] of spans) {
    const match = pattern.exec(words);
    if (!match) continue;
    const { field, years } = read(match);
    const metric = fieldOf(field);
    return metric ? { kind: 'field', metric, how, years, words } : null;
  }
  const metric = fieldOf(words);
  return metric ? { kind: 'field', metric, how: 'value', years: [], words } : null;
}

type Token = { operator: string } | { phrase: string };

function tokens(formula: string): Token[] {
  let text = formula.replace(/\.\s*$/, '');
  for (const [pattern, replacement] of OPERATOR_WORDS) text = text.replace(pattern, replacement);
  const out: Token[] = [];
  // A hyphen between words ("long-term") is part of a word; an operator stands apart.
  for (const part of text.split(/(\s[-+*/]\s|[()*/+]|^-\s)/)) {
    const trimmed = part?.trim();
    if (!trimmed) continue;
    if (/^[-+*/()]$/.test(trimmed)) out.push({ operator: trimmed });
    else out.push({ phrase: trimmed });
  }
  return out;
}

/** A recursive-descent reading of + − × ÷ and parentheses over the phrases; null when any part is not understood. */
function parse(formula: string, named: Map<string, Expression>): Expression | null {
  const list = tokens(formula);
  let at = 0;
  const peek = () => list[at];
  const isOperator = (token: Token | undefined, ...operators: string[]) =>
    token !== undefined && 'operator' in token && operators.includes(token.operator);
  const primary = (): Expression | null => {
    const token = list[at++];
    if (!token) return null;
    if ('operator' in token) {
      if (token.operator !== '(') return null;
      const inner = sum();
      if (!isOperator(list[at++], ')')) return null;
      return inner;
    }
    return termOf(token.phrase, named);
  };
  // Left-associative operators over the next tighter level: × ÷ over terms, + − over products.
  const binary = (next: () => Expression | null, operators: Array<'+' | '-' | '*' | '/'>) => (): Expression | null => {
    let left = next();
    while (left && isOperator(peek(), ...operators)) {
      const operator = (list[at++] as { operator: '+' | '-' | '*' | '/' }).operator;
      const right = next();
      left = right ? { kind: 'operation', operator, left, right } : null;
    }
    return left;
  };
  const product = binary(primary, ['*', '/']);
  const sum = binary(product, ['+', '-']);
  const expression = sum();
  return expression && at === list.length ? expression : null;
}

/** A definition sentence's name and formula ("DPO is defined as: <formula>", "Define X as <formula>"), or null. */
export function definitionParts(sentence: string): { name: string; formula: string } | null {
  const found =
    /^(.+?)\s+(?:is|are|is being)\s+(?:defined|calculated|computed)\s+as:?\s*(.+)$/i.exec(sentence) ??
    /^define\s+(.+?)\s+as:?\s+(.+)$/i.exec(sentence);
  if (!found) return null;
  const name = found[1].replace(/^(?:the|unadjusted)\s+/gi, '').trim();
  return { name, formula: found[2].trim() };
}

/** The question's definitions as written, and each name they define that could be read, with its expression. */
export function definedNames(definitions: string[]): {
  parts: Array<{ name: string; formula: string }>;
  named: Map<string, Expression>;
} {
  const parts = definitions.map(definitionParts).filter((part) => part !== null);
  const named = new Map<string, Expression>();
  // Every pass reads the definitions that use names read in the pass before ("CCC is defined as: DIO + DSO - DPO").
  for (let pass = 0; pass < parts.length; pass += 1)
    for (const { name, formula } of parts) {
      const expression = parse(formula, named);
      if (expression) named.set(name.toLowerCase(), expression);
    }
  return { parts, named };
}

/** A formula in words ("1 - dividends paid / net income") over stored fields, or null when a part is not understood. */
export function readFormula(formula: string, named = new Map<string, Expression>()): Expression | null {
  return parse(formula, named);
}

/**
 * The metric the question's definitions define, read into an expression: the first definition, the metric asked,
 * with the names the definitions after it gave ("CCC is defined as: DIO + DSO - DPO", then DIO, DSO and DPO defined).
 * Null when there is no definition or a part is not understood.
 */
export function definedMetric(definitions: string[]): DefinedMetric | null {
  const { parts, named } = definedNames(definitions);
  if (parts.length === 0) return null;
  const [asked] = parts;
  const expression = named.get(asked.name.toLowerCase());
  return expression
    ? { name: asked.name, formula: parts.map((p) => `${p.name} = ${p.formula}`).join('; '), expression }
    : null;
}
