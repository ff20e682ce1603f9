/**
 * Figures a document states, read at ingestion: rows of its tables (HTML tables arrive as lines of cells joined by
 * " | "; text-layout tables from PDFs and plain text as a label followed by one value per column) and sentences that
 * state a figure ("Data Center revenue was $41.1 billion, up 56%", "we had approximately 164,000 full-time
 * employees"). Each figure keeps its label as written, what it sits under (the table's title and row group), its
 * period (from the column header or the sentence, checked against the document's period), value, scale and unit.
 */
import { splitSentences } from './sentences';
import { periodOfColumn, type ColumnSpan, type DocumentPeriod } from './fact-periods';

export type FactUnit = 'money' | 'percent' | 'count';
/** Where a figure was read: a table row or a sentence. */
export type FactKind = 'table' | 'sentence';
export type FactScale = 'units' | 'thousands' | 'millions' | 'billions';

export interface ExtractedFact {
  /** The row label or the sentence's subject, as the document writes it. */
  label: string;
  /** The table's title and row group, or the sentence: what the label sits under. */
  context: string;
  /** Period label (FY2024, Q2-2025). */
  period: string;
  /** The value in units (millions already multiplied out). */
  value: number;
  scale: FactScale;
  unit: FactUnit;
  kind: FactKind;
  /** The line or sentence the figure was read from, and the number of its line, to place it in its chunk. */
  source: string;
  line: number;
}

const SCALE_FACTOR: Record<FactScale, number> = { units: 1, thousands: 1e3, millions: 1e6, billions: 1e9 };
const SCALE_WORD = /\b(?:in|amounts? in|dollars in|\$ in|usd in)\s+(thousands|millions|billions)\b/i;

function scaleOf(text: string): FactScale | null {
  const match = SCALE_WORD.exec(text);
  return match ? (match[1].toLowerCase() as FactScale) : null;
}

/** One cell as a number: "$72,480", "(293)", "1.5%", "$ (6,029)"; null for text, "—" or an empty cell. */
export function cellNumber(cell: string): { value: number; percent: boolean } | null {
  const text = cell.replace(/\s+/g, '').replace(/^\$/, '');
  const match = /^(\()?\$?(-)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(\))?(%)?\)?$/.exec(text);
  if (!match) return null;
  const negative = Boolean(match[1] && (match[5] || text.endsWith(')'))) || Boolean(match[2]);
  const value = Number(`${match[3].replace(/,/g, '')}${match[4] ?? ''}`);
  return { value: negative ? -value : value, percent: Boolean(match[6]) };
}

const DASH = /^[—–-]+$/;
const YEAR_CELL = /^(?:.*\b)?((?:19|20)\d{2})\)?$/;
const NOT_A_HEADER_WORD = /\b(?:total|net|income|revenue|sales|expense|cash|assets|per share)\b/i;

const PAGE_BREAK = '\f';
const MONTH = String.raw`(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
/** A line of month-and-day column labels only: "December 1,  December 2,", "June 30, June 30". */
const COLUMN_DATES = new RegExp(String.raw`^(?:${MONTH}\s+\d{1,2},?\s*){1,4}$`, 'i');
/** A full date heading a column: "January 28, 2017". */
const DATE_CELL = new RegExp(String.raw`\b${MONTH}\s+\d{1,2},?\s+(?:19|20)\d{2}\b`, 'gi');

/**
 * The cells of a header line. Dates stay whole, also when one space parts them ("Fiscal Years Ended January 28, 2017
 * January 30, 2016"), and columns a PDF tool spaced apart stay apart.
 */
function headerCells(text: string): string[] {
  if (text.includes(' | ')) return cellsOf(text);
  const dates = text.match(DATE_CELL);
  if (dates && dates.length >= 2) {
    const before = text.slice(0, text.search(DATE_CELL)).trim();
    return before ? [before, ...dates] : dates;
  }
  return /\S\s{2,}\S/.test(text) ? text.trim().split(/\s{2,}/) : cellsOf(text);
}
const LEADS_INTO_A_NUMBER = /^(?:and|of|or|to|at|from|by|than|between|over|under)$/i;

/** Cells of a line: " | " cells, or for a text-layout row its label and the run of numbers that ends it. */
function cellsOf(line: string): string[] {
  if (line.includes(' | '))
    return line
      .split(' | ')
      .map((cell) => cell.trim())
      .filter(Boolean);
  // Text laid out by a PDF tool spaces its columns with runs of spaces ("2018  2017"), and may part a negative
  // number from its parentheses ("(1,486,843 )").
  const tokens = line
    .replace(/(\d)\s+\)/g, '$1)')
    .replace(/\(\s+(?=\$?\s*\d)/g, '(')
    .split(/\s+/);
  let start = tokens.length;
  while (start > 0 && (cellNumber(tokens[start - 1]) || DASH.test(tokens[start - 1]) || tokens[start - 1] === '$'))
    start -= 1;
  // A number the label's last word leads into is the label's ("net of allowances of $95 and $103").
  while (start > 0 && start < tokens.length && LEADS_INTO_A_NUMBER.test(tokens[start - 1])) start += 1;
  const values = tokens.slice(start).filter((token) => token !== '$');
  return start === 0 ? values : [tokens.slice(0, start).join(' '), ...values];
}

interface Header {
  /** Period of each value column, null where the column is no period of its own (a change, a share). */
  columns: Array<string | null>;
  /** How many value cells the header has in all (columns of changes included). */
  width: number;
  scale: FactScale | null;
  /** Columns of percentages: the first row writes "%", the rows under it often do not. */
  percentColumns: Set<number>;
  /** What each value cell is of, when the columns come in groups ("Family of Apps | Reality Labs | Total"). */
  groups: string[];
  /** What the header's first cell says the rows are ("Freight Revenues"). */
  caption: string;
}

/**
 * A column header: its cells after the first name years ("2024 | 2023", "December 31, 2024", "Fiscal 2024",
 * "Jan 26, 2025"), read in order. `spans` are the duration groups of the line above ("Three Months Ended | Six Months
 * Ended"). Null when the line is not a header or its years are not the document's (a maturity schedule).
 */
function headerOf(line: string, spans: ColumnSpan[], document: DocumentPeriod, scale: FactScale | null): Header | null {
  const text = line.replace(/\b(Fiscal|FY)\s+(?=(?:19|20)\d{2})/gi, '');
  // Columns a PDF tool spaced apart keep their dates whole ("Fiscal Years Ended  January 28, 2017  January 30, 2016").
  const cells = headerCells(text);
  const years = cells.map((cell) => YEAR_CELL.exec(cell)?.[1] ?? null);
  // Columns of one year each are periods; one year over every column heads columns of another kind (segments).
  const yearCount = new Set(years.filter(Boolean)).size;
  // "(Millions, except per share amounts)" names the scale, not a row.
  const words = line
    .replace(/\([^()]*\b(?:thousands|millions|billions)\b[^()]*\)/gi, '')
    // Unbracketed too, before the years: "In millions, except per share amounts  2018  2017".
    .replace(/^(?:\$\s*|dollars\s+|amounts\s+)?in (?:thousands|millions|billions)\b[^\d]*/i, '');
  if (yearCount < 2 || NOT_A_HEADER_WORD.test(words)) return null;
  const nonYears = cells.filter((cell, i) => !years[i] && cellNumber(cell) && !/%$/.test(cell));
  if (nonYears.length > 0) return null;
  const valueCells = years[0] ? cells : cells.slice(1);
  const valueYears = years[0] ? years : years.slice(1);
  const yearColumns = valueYears.filter((year): year is string => year !== null).map(Number);
  const perSpan = spans.length > 0 ? Math.ceil(yearColumns.length / spans.length) : yearColumns.length;
  let index = 0;
  const seen = new Set<string>();
  const columns = valueYears.map((year) => {
    if (!year) return null;
    // A year that comes again heads a change or a share of the same years ("Increase (Decrease) | 2024 | 2023").
    if (seen.has(year) && spans.length <= 1) return null;
    seen.add(year);
    const span = spans.length > 0 ? spans[Math.min(spans.length - 1, Math.floor(index / perSpan))] : 'same';
    index += 1;
    return periodOfColumn(Number(year), yearColumns, span, document);
  });
  if (columns.every((column) => column === null)) return null;
  // The header's first cell may name the table and its scale ("Freight Revenues Millions", "(Dollars in millions)").
  const first = years[0] ? '' : cells[0];
  const bareScale = /\b(thousands|millions|billions)\b/i.exec(first)?.[1].toLowerCase() as FactScale | undefined;
  const caption = first
    .replace(/\([^()]*\b(?:thousands|millions|billions)\b[^()]*\)/gi, '')
    .replace(/\b(?:thousands|millions|billions)\b/gi, '')
    .trim();
  return {
    columns,
    width: valueCells.length,
    scale: scaleOf(line) ?? bareScale ?? scale,
    percentColumns: new Set(),
    groups: [],
    caption: /[A-Za-z]{3}/.test(caption) && !/\d/.test(caption) && spansOf(caption).length === 0 ? caption : '',
  };
}

const SPAN_WORDS: Array<[RegExp, ColumnSpan]> = [
  [/\b(?:three|3)[- ]months?\b|\bquarter\b|\b13 weeks\b/i, 'quarter'],
  [/\b(?:six|nine|6|9)[- ]months?\b|\b(?:26|39) weeks\b|\byear[- ]to[- ]date\b/i, 'ytd'],
  [/\b(?:twelve|12)[- ]months?\b|\byears? ended\b|\bfiscal years?\b|\b52 weeks\b|\b53 weeks\b/i, 'year'],
];

/** The duration groups a header line names, in order ("Three Months Ended | Six Months Ended" → quarter, ytd). */
function spansOf(line: string): ColumnSpan[] {
  const found: Array<{ at: number; span: ColumnSpan }> = [];
  for (const [pattern, span] of SPAN_WORDS) {
    for (const match of line.matchAll(new RegExp(pattern.source, 'gi'))) found.push({ at: match.index ?? 0, span });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.span);
}

/** Rows of things counted rather than amounts of money. */
const COUNTED_THINGS =
  /\b(?:units|vehicles|deliveries|employees|headcount|stores|locations|customers|subscribers|members|memberships|shares outstanding|number of)\b/i;
const LABEL_CLEAN = /[\s:.,;]+$/;
const PROSE_WORDS = 18;

/** A line that names no figures and reads as a heading (a table's title or a row group). */
function isHeading(line: string): boolean {
  return line.length > 0 && line.length <= 90 && !/\d{2}/.test(line) && /^[A-Z(]/.test(line) && !/[.!?]$/.test(line);
}

/** Facts of one table row under `header`; none when the row's cells do not line up with its columns. */
function rowFacts(
  cells: string[],
  header: Header,
  context: string,
): Array<Omit<ExtractedFact, 'source' | 'line' | 'kind'>> {
  const label = cells[0].replace(LABEL_CLEAN, '').trim();
  if (!/[A-Za-z]{2}/.test(label) || label.length > 160) return [];
  // A footnote mark after the label ("Total assets (1)  10,202,871 …") is no value of the first column.
  const valueCells = cells.length - 1 > header.width && /^\(\d\)$/.test(cells[1]) ? cells.slice(2) : cells.slice(1);
  const values = valueCells.map((cell) => (DASH.test(cell) ? null : cellNumber(cell)));
  if (values.length < header.columns.filter(Boolean).length) return [];
  // Cells line up with the header's cells when there are as many; otherwise the periods' columns come first.
  const aligned = values.length === header.width ? header.columns : header.columns.filter(Boolean);
  const moneyCells = valueCells.some((cell) => cell.includes('$'));
  const facts: Array<Omit<ExtractedFact, 'source' | 'line' | 'kind'>> = [];
  aligned.forEach((period, i) => {
    const found = values[i];
    if (!period || !found) return;
    if (found.percent) header.percentColumns.add(i);
    const cell = { ...found, percent: header.percentColumns.has(i) };
    const of = aligned === header.columns ? header.groups[i] : undefined;
    const scale = cell.percent ? 'units' : (header.scale ?? 'units');
    const unit = cell.percent
      ? 'percent'
      : COUNTED_THINGS.test(`${label} ${context}`) && !moneyCells
        ? 'count'
        : 'money';
    facts.push({
      label,
      context: of ? [context, of].filter(Boolean).join(' / ') : context,
      period,
      value: cell.value * SCALE_FACTOR[scale],
      scale,
      unit,
    });
  });
  return facts;
}

/** A line of values only ("43,004 $", "(262)", "$", "2021"): a cell a PDF's text put on a line of its own. */
const VALUES_ONLY = /^(?:\$|\(?\$?\d[\d,]*(?:\.\d+)?\)?%?|[—–-]+)(?:\s+(?:\$|\(?\$?\d[\d,]*(?:\.\d+)?\)?%?|[—–-]+))*$/;
const YEARS_ONLY = /^(?:(?:19|20)\d{2})(?:\s+(?:19|20)\d{2})*$/;
/** How many numbers a line ends with: two complete rows one under the other (an unlabelled total under the last line
 * of its group) are two rows, where a PDF's cells on lines of their own are one. */
const valueCount = (line: string) => cellsOf(line).filter((cell) => cellNumber(cell)).length;
/** Where a line joined the row before it: read with that row, skipped on its own (line numbers stay as they were). */
const JOINED = '\u0000';

/**
 * Rows of a table whose text puts each cell on a line of its own ("Net Operating Revenues", "$", "43,004 $",
 * "38,655 $", "33,014"): the value lines are joined to the label before them, as a text-layout row.
 */
function rowsOfCells(lines: string[]): string[] {
  const rows = [...lines];
  let into = -1;
  for (const [index, line] of lines.entries()) {
    // Years are a column header: they join each other ("2022", "2021", "2020"), never the line above them.
    const joins = YEARS_ONLY.test(line)
      ? into >= 0 && YEARS_ONLY.test(rows[into])
      : into >= 0 && VALUES_ONLY.test(line) && !(valueCount(line) > 1 && valueCount(rows[into]) > 1);
    if (joins) {
      rows[into] = `${rows[into]} ${line}`;
      rows[index] = JOINED;
    } else into = line === '' || line === PAGE_BREAK ? -1 : index;
  }
  return rows;
}

/**
 * Facts of the tables of a text, line by line: a header sets the columns until prose, a blank line or another
 * table's header. A heading line is held until the next line shows what it is: a table's title when a header
 * follows, a row group ("Cost of revenues") when rows follow.
 */
function tableFacts(lines: string[], document: DocumentPeriod): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  let header: Header | null = null;
  let spans: ColumnSpan[] = [];
  let scale: FactScale | null = null;
  let title = '';
  let group = '';
  /** Groups whose total row has been read. */
  const totalled = new Set<string>();
  let heading = '';
  let columnGroups: string[] = [];
  let scaleAge = 0;
  const endTable = () => {
    header = null;
    group = '';
  };
  let previousWasHeading = false;
  for (const [index, line] of lines.entries()) {
    if (line === JOINED) continue;
    const headingBefore = previousWasHeading;
    previousWasHeading = false;
    const lineScale = scaleOf(line);
    if (lineScale) {
      scale = lineScale;
      scaleAge = 0;
      // The scale may stand under the column header ("($ in millions)").
      if (header) header.scale = lineScale;
    } else if ((scaleAge += 1) > 12 && !header) scale = null;
    const found = headerOf(line, spans, document, scale);
    if (found) {
      header = found;
      if (columnGroups.length >= 2 && found.width % columnGroups.length === 0) {
        const each = found.width / columnGroups.length;
        found.groups = Array.from({ length: found.width }, (_, i) => columnGroups[Math.floor(i / each)]);
      }
      columnGroups = [];
      spans = [];
      if (heading) title = heading;
      group = '';
      heading = '';
      continue;
    }
    const lineSpans = spansOf(line);
    // Only a column header names spans: prose that mentions "the respective quarter ends" does not.
    if (lineSpans.length > 0 && !/\d{1,3},\d{3}/.test(line) && line.split(' ').length < PROSE_WORDS) {
      spans = lineSpans;
      if (heading) title = heading;
      heading = '';
      continue;
    }
    if (line === PAGE_BREAK) {
      endTable();
      title = heading = '';
      spans = [];
      continue;
    }
    if (line === '') {
      // A blank line parts a table's sections (a statement's operating and investing activities) and its title from
      // its header; prose or another header ends the table.
      if (!header && heading) title = heading;
      heading = '';
      group = '';
      continue;
    }
    // The dates over a header's years ("December 1,  December 2,") belong to the header, not the table's title.
    if (COLUMN_DATES.test(line)) continue;
    const cells = cellsOf(line);
    const numbers = cells.slice(1).filter((cell) => cellNumber(cell)).length;
    if (numbers === 0) {
      // Prose, or the header of a table whose columns are no periods ("Family of Apps | Reality Labs | Total").
      if (line.split(' ').length >= PROSE_WORDS) {
        endTable();
        spans = [];
      } else if (line.includes(' | ') && cells.length >= 2 && !lineScale) {
        endTable();
        columnGroups = cells;
      }
      if (isHeading(line) && !lineScale && !line.includes(' | ') && !/^table of contents$/i.test(line)) {
        // Heading lines one under the other are one title ("Consolidated Statement of Cash Flows", "PepsiCo, Inc.").
        const title = line.replace(LABEL_CLEAN, '');
        heading = heading && headingBefore && !header ? `${heading} / ${title}` : title;
        previousWasHeading = true;
      }
      continue;
    }
    if (heading) {
      if (header) group = heading;
      else title = heading;
      heading = '';
    }
    if (!header) continue;
    const context = [title, header.caption, group].filter(Boolean).join(' / ');
    // A row of values alone closes its group with the group's total ("Revenues", its lines, then "11,763,096 …");
    // after the group's own total line it is the total of something wider, which it does not name.
    const unlabelled = cellNumber(cells[0]) !== null;
    const labelled = unlabelled && group && !totalled.has(group) ? [`Total ${group}`, ...cells] : cells;
    if (/^total\b/i.test(labelled[0]) && group) totalled.add(group);
    for (const fact of rowFacts(labelled, header, context))
      facts.push({ ...fact, kind: 'table', source: line, line: index });
  }
  return facts;
}

const AMOUNT = String.raw`(\$|USD\s?)?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(thousand|million|billion)?(%| percent)?`;
/** "<subject> was|were|totaled|of $41.1 billion". */
const STATED = new RegExp(
  String.raw`(?:^|[,;:]\s|\bwhile\s|\band\s)([A-Za-z][^,;:]{2,90}?)\s+(?:was|were|totaled|totalled|amounted to|reached|came in at)\s+(?:approximately\s+|about\s+|roughly\s+)?${AMOUNT}`,
  'gi',
);
/** "we had approximately 164,000 full-time equivalent employees". */
const COUNTED =
  /\b(?:had|employed|employ|have|of|our)\s+(?:approximately|about|roughly|over|more than|nearly)?\s*(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?\s*(thousand|million)?\s+((?:[a-z][\w-]*\s+){0,4}?(?:employees|people|persons|team members|associates|workers|stores|locations|members|subscribers|customers|restaurants|clubs|warehouses))\b/gi;
const TRAILING_TIME =
  /\s+(?:in|for|during|of|at|as of)\s+(?:the\s+)?(?:fiscal\s+|calendar\s+)?(?:(?:first|second|third|fourth)\s+quarter|quarter|year|(?:19|20)\d{2}|fiscal|three|six|nine|twelve)\b.*$/i;
const LEADING_FILLER = /^(?:the|our|its|their|total|and|while|in addition,?|additionally,?)\s+/i;
const YEAR_IN = /\b((?:19|20)\d{2})\b/g;

function subjectOf(raw: string): string | null {
  let label = raw.replace(TRAILING_TIME, '').trim();
  for (let i = 0; i < 3; i += 1) label = label.replace(LEADING_FILLER, '');
  const words = label.split(/\s+/);
  if (words.length > 7) label = words.slice(-7).join(' ');
  if (!/[A-Za-z]{3}/.test(label) || /^(?:it|this|that|which|there|we|they|he|she)$/i.test(label)) return null;
  return label;
}

/** The period a sentence's figure belongs to: the document's, unless the sentence names only another year. */
function sentencePeriod(sentence: string, document: DocumentPeriod): string | null {
  if (!document.label) return null;
  const years = new Set([...sentence.matchAll(YEAR_IN)].map((m) => Number(m[1])));
  if (years.size === 0) return document.label;
  // A sentence of two years ("$X in 2024 compared to $Y in 2023") does not say which figure is whose.
  return years.size === 1 && years.has(document.fiscalYear as number) ? document.label : null;
}

function sentenceFacts(text: string, document: DocumentPeriod): ExtractedFact[] {
  const facts: ExtractedFact[] = [];
  for (const [index, paragraph] of text.split('\n').entries()) {
    if (paragraph.includes(' | ') || paragraph.split(' ').length < 6) continue;
    for (const sentence of splitSentences(paragraph)) {
      const period = sentencePeriod(sentence, document);
      if (!period) continue;
      for (const match of sentence.matchAll(STATED)) {
        const label = subjectOf(match[1]);
        if (!label) continue;
        const [, , currency, whole, decimals, scaleWord, percent] = match;
        if (!currency && !percent && !scaleWord) continue;
        const scale = scaleWord ? (`${scaleWord.toLowerCase()}s` as FactScale) : 'units';
        const value = Number(`${whole.replace(/,/g, '')}${decimals ?? ''}`) * SCALE_FACTOR[scale];
        facts.push({
          label,
          context: sentence.slice(0, 300),
          period,
          value,
          scale,
          unit: percent ? 'percent' : 'money',
          kind: 'sentence',
          source: sentence,
          line: index,
        });
      }
      for (const match of sentence.matchAll(COUNTED)) {
        const [, whole, decimals, scaleWord, noun] = match;
        const scale = scaleWord ? (`${scaleWord.toLowerCase()}s` as FactScale) : 'units';
        const value = Number(`${whole.replace(/,/g, '')}${decimals ?? ''}`) * SCALE_FACTOR[scale];
        facts.push({
          label: noun.trim(),
          context: sentence.slice(0, 300),
          period,
          value,
          scale,
          unit: 'count',
          kind: 'sentence',
          source: sentence,
          line: index,
        });
      }
    }
  }
  return facts;
}

/**
 * Every figure a document's text states, in the text's order, each once (the same label, context, period and value
 * on the same line text): a statement and its summary elsewhere in the report both keep their rows.
 */
export function extractFacts(content: string, document: DocumentPeriod): ExtractedFact[] {
  // A page break (form feed) is a line of its own: a table never runs on across pages.
  const text = content.replace(/\f/g, '\n\f\n');
  const lines = text.split('\n').map((line) => (line === PAGE_BREAK ? line : line.trim()));
  const all = [...tableFacts(rowsOfCells(lines), document), ...sentenceFacts(text, document)].sort(
    (a, b) => a.line - b.line,
  );
  const seen = new Set<string>();
  return all.filter((fact) => {
    const key = `${fact.label.toLowerCase()}|${fact.context.toLowerCase()}|${fact.period}|${fact.value}|${fact.source}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A figure placed in the chunk it was read from (its index among the document's chunks). */
export type PlacedFact = ExtractedFact & { chunk: number };

/**
 * Places each figure in the first chunk, from the previous figure's on, that holds its line or sentence whole (chunks
 * overlap and follow the text's order); a source the chunker reshaped stays in the chunk reached so far.
 */
export function placeInChunks(facts: ExtractedFact[], chunks: string[]): PlacedFact[] {
  let at = 0;
  const squeeze = (text: string) => text.replace(/\s+/g, ' ');
  const flat = chunks.map(squeeze);
  return facts.map((fact) => {
    const source = squeeze(fact.source);
    const found = flat.findIndex((chunk, i) => i >= at && chunk.includes(source));
    if (found >= 0) at = found;
    return { ...fact, chunk: found >= 0 ? found : Math.min(at, chunks.length - 1) };
  });
}
