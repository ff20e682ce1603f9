import { MAPPINGS_BY_TAXONOMY, isAdditive, type FieldMapping, type StatementKind, type Taxonomy } from './concept-map';
import { deriveFields } from '../statements/derived-fields';
import type { ImportedStatement, ValueSourceRow } from '../statements/imported-statement';

export type { ImportedStatement, ValueSourceRow } from '../statements/imported-statement';

/**
 * SEC `companyfacts` (https://data.sec.gov/api/xbrl/companyfacts/CIK##########.json) → our fiscal periods and
 * statements, with the provenance of every value. Pure: no database, no network.
 *
 * Periods come from each fact's own start and end dates, never from `fy`/`fp` (those describe the filing a fact
 * appeared in, and are sometimes wrong): fiscal-year ends are the ends of the annual facts of 10-Ks; a year is named by
 * the company's own convention (the most common `fy − year(end)` offset of its 10-Ks); a quarter's number is its
 * distance from the previous fiscal-year end in quarters.
 */

export interface RawFact {
  start?: string;
  end: string;
  val: number;
  accn: string;
  fy: number;
  fp: string;
  form: string;
  filed: string;
}

export interface CompanyFactsFile {
  cik: number | string;
  entityName: string;
  facts: Record<string, Record<string, { label?: string; units: Record<string, RawFact[]> }>>;
}

export interface ImportedCompany {
  cik: number;
  name: string;
  taxonomy: Taxonomy;
  /** ISO 4217 code of the reporting currency (the unit most of its amounts are filed in): USD, TWD… */
  currency: string;
  /** Month (1–12) in which the fiscal year usually ends. */
  fiscalYearEndMonth: number;
  statements: ImportedStatement[];
  sources: ValueSourceRow[];
}

export class UnsupportedFiling extends Error {}

/** Annual and quarterly reports of US filers (10-K, 10-Q), annual and interim reports of foreign ones (20-F, 40-F, 6-K). */
const FORMS = /^(10-K|10-Q|10-KT|10-QT|20-F|40-F|6-K)(\/A)?$/;
const ANNUAL_FORMS = /^(10-K|20-F|40-F)/;
const DAY = 86_400_000;
const days = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY);
const addDays = (date: string, count: number) => new Date(Date.parse(date) + count * DAY).toISOString().slice(0, 10);
const year = (date: string) => Number(date.slice(0, 4));

type Kind = 'annual' | 'quarter' | 'h1' | '9m';

function durationKind(length: number): Kind | null {
  if (length >= 340 && length <= 380) return 'annual';
  if (length >= 80 && length <= 100) return 'quarter';
  if (length >= 170 && length <= 190) return 'h1';
  if (length >= 260 && length <= 280) return '9m';
  return null;
}

/** The company's fiscal years, learnt from its annual facts. */
export class FiscalCalendar {
  constructor(
    /** Known fiscal-year end dates, ascending. */
    private readonly ends: string[],
    /** Fiscal year = calendar year of its end + offset (0 for nearly everyone). */
    private readonly offset: number,
  ) {}

  /** The fiscal-year end on or after a date (extrapolated a year at a time past the last known one). */
  endOf(date: string): string | null {
    const found = this.ends.find((end) => days(date, end) >= -3);
    if (found) return found;
    const last = this.ends.at(-1);
    if (!last) return null;
    // Past the last known year end (a year not closed yet): a calendar-date year end repeats on its date, a
    // 52/53-week one about 364 days later; either is close enough to name the year and number its quarters.
    const onDate = new Date(Date.parse(last) + DAY).getUTCDate() === 1;
    let end = last;
    while (days(date, end) < -3) end = onDate ? `${year(end) + 1}${end.slice(4)}` : addDays(end, 364);
    return end;
  }

  isKnownEnd(end: string): boolean {
    return this.ends.includes(end);
  }

  previousEnd(end: string): string {
    const index = this.ends.indexOf(end);
    return index > 0 && days(this.ends[index - 1], end) <= 380 ? this.ends[index - 1] : addDays(end, -364);
  }

  fiscalYear(end: string): number {
    return year(end) + this.offset;
  }

  /** Quarter (1–4) of a date within its fiscal year. */
  quarterOf(date: string): { fiscalYear: number; quarter: number } | null {
    const end = this.endOf(date);
    if (!end) return null;
    const quarter = Math.min(4, Math.max(1, Math.round(days(this.previousEnd(end), date) / 91.3)));
    return { fiscalYear: this.fiscalYear(end), quarter };
  }
}

/** Every fact of the mapped concepts in annual and interim reports, per concept, in the unit the mapping reads. */
function mappedFacts(
  file: CompanyFactsFile,
  taxonomy: Taxonomy,
  currency: string,
): Map<string, { unit: string; facts: RawFact[] }> {
  const concepts = file.facts[taxonomy] ?? {};
  const byConcept = new Map<string, { unit: string; facts: RawFact[] }>();
  for (const mapping of MAPPINGS_BY_TAXONOMY[taxonomy]) {
    const unit = unitOf(mapping, currency);
    for (const concept of mapping.concepts) {
      const facts = concepts[concept]?.units?.[unit];
      if (facts && !byConcept.has(concept))
        byConcept.set(concept, {
          unit,
          facts: facts.filter((fact) => FORMS.test(fact.form) && Number.isFinite(fact.val)),
        });
    }
  }
  return byConcept;
}

function unitOf(mapping: FieldMapping, currency: string): string {
  return mapping.unit === 'money' ? currency : mapping.unit === 'moneyPerShare' ? `${currency}/shares` : 'shares';
}

/**
 * The reporting currency: the currency most facts of the mapped amounts are filed in. A 20-F may add a convenience
 * translation (TSMC files TWD and some USD); the statements are in the currency of the filing's own columns.
 */
export function reportingCurrency(file: CompanyFactsFile, taxonomy: Taxonomy): string {
  const counts = new Map<string, number>();
  for (const mapping of MAPPINGS_BY_TAXONOMY[taxonomy]) {
    if (mapping.unit !== 'money') continue;
    for (const concept of mapping.concepts) {
      for (const [unit, facts] of Object.entries(file.facts[taxonomy]?.[concept]?.units ?? {})) {
        if (/^[A-Z]{3}$/.test(unit)) counts.set(unit, (counts.get(unit) ?? 0) + facts.length);
      }
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'USD';
}

/** Learns the fiscal calendar from the annual facts of 10-Ks. */
export function learnCalendar(file: CompanyFactsFile, taxonomy: Taxonomy = 'us-gaap'): FiscalCalendar {
  const ends = new Set<string>();
  const offsets = new Map<number, number>();
  const latestEndOfFiling = new Map<string, string>();
  const annual: RawFact[] = [];
  for (const concept of Object.values(file.facts[taxonomy] ?? {})) {
    for (const facts of Object.values(concept.units)) {
      for (const fact of facts) {
        if (!fact.start || !ANNUAL_FORMS.test(fact.form) || durationKind(days(fact.start, fact.end)) !== 'annual')
          continue;
        annual.push(fact);
        if ((latestEndOfFiling.get(fact.accn) ?? '') < fact.end) latestEndOfFiling.set(fact.accn, fact.end);
      }
    }
  }
  for (const fact of annual) {
    ends.add(fact.end);
    // The filing's own year (its latest period) tells how the company names its fiscal years.
    if (fact.fp === 'FY' && latestEndOfFiling.get(fact.accn) === fact.end) {
      const offset = fact.fy - year(fact.end);
      offsets.set(offset, (offsets.get(offset) ?? 0) + 1);
    }
  }
  const offset = [...offsets].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
  return new FiscalCalendar([...ends].sort(), Math.max(-1, Math.min(1, offset)));
}

interface Labelled {
  label: string;
  kind: Kind | 'instant';
  fiscalYear: number;
  quarter: number | null;
  start: string | null;
  end: string;
}

/** The period labels a fact stands for: FY2024, Q3-2025, H1-2025, 9M-2025; an instant at a year end is FY and Q4. */
function labelsOf(fact: RawFact, calendar: FiscalCalendar): Labelled[] {
  if (!fact.start) {
    const end = calendar.endOf(fact.end);
    if (!end) return [];
    const fiscalYear = calendar.fiscalYear(end);
    // A balance at a year end is the year's (and its Q4's); a known year end must match to the day, so an adjusted
    // opening balance dated the next morning (a new accounting standard's effect) is not taken for it.
    if (fact.end === end || (!calendar.isKnownEnd(end) && Math.abs(days(fact.end, end)) <= 3)) {
      return [
        { label: `FY${fiscalYear}`, kind: 'instant', fiscalYear, quarter: null, start: null, end: fact.end },
        { label: `Q4-${fiscalYear}`, kind: 'instant', fiscalYear, quarter: 4, start: null, end: fact.end },
      ];
    }
    // Other balances count only at a quarter end (give or take two weeks for 52/53-week calendars).
    const sinceYearStart = days(calendar.previousEnd(end), fact.end);
    const quarter = Math.round(sinceYearStart / 91.3);
    if (quarter < 1 || quarter > 3 || Math.abs(sinceYearStart - quarter * 91.3) > 15) return [];
    return [{ label: `Q${quarter}-${fiscalYear}`, kind: 'instant', fiscalYear, quarter, start: null, end: fact.end }];
  }
  const kind = durationKind(days(fact.start, fact.end));
  const end = kind ? calendar.endOf(fact.end) : null;
  if (!kind || !end) return [];
  const fiscalYear = calendar.fiscalYear(end);
  if (kind === 'annual')
    return Math.abs(days(fact.end, end)) <= 7
      ? [{ label: `FY${fiscalYear}`, kind, fiscalYear, quarter: null, start: fact.start, end: fact.end }]
      : [];
  // Year-to-date figures start where the fiscal year starts.
  if (kind !== 'quarter' && Math.abs(days(calendar.previousEnd(end), fact.start)) > 7) return [];
  const position = calendar.quarterOf(fact.end);
  if (!position) return [];
  const label =
    kind === 'quarter' ? `Q${position.quarter}-${fiscalYear}` : kind === 'h1' ? `H1-${fiscalYear}` : `9M-${fiscalYear}`;
  return [
    {
      label,
      kind,
      fiscalYear,
      quarter: kind === 'quarter' ? position.quarter : null,
      start: fact.start,
      end: fact.end,
    },
  ];
}

interface Chosen {
  period: Labelled;
  /** The value of the latest filing, which is kept. */
  latest: RawFact;
  /** The value first reported: derivations use these, one consistent vintage (a year's 10-Qs and its 10-K). */
  original: RawFact;
  restated: boolean;
  derived: boolean;
}

/** Per concept and label: the latest filed value, the first reported one, and whether they differ. */
function choose(facts: RawFact[], calendar: FiscalCalendar): Map<string, Chosen> {
  const chosen = new Map<string, Chosen>();
  const byFiling = [...facts].sort((a, b) =>
    a.filed === b.filed ? a.accn.localeCompare(b.accn) : a.filed.localeCompare(b.filed),
  );
  for (const fact of byFiling) {
    for (const period of labelsOf(fact, calendar)) {
      const seen = chosen.get(period.label);
      if (!seen) chosen.set(period.label, { period, latest: fact, original: fact, restated: false, derived: false });
      else {
        // Only a fact of the same span restates (a 52/53-week year may also appear with another start).
        if (seen.period.start !== period.start && period.start !== null) continue;
        seen.restated ||= fact.val !== seen.latest.val;
        seen.latest = fact;
      }
    }
  }
  return chosen;
}

/**
 * Quarters filed only as year-to-date figures (cash flows), and fourth quarters, which are never filed as such:
 * Q2 = H1 − Q1, Q3 = 9M − H1, Q4 = FY − 9M (or FY − Q1 − Q2 − Q3), from the values first reported.
 */
function deriveQuarters(chosen: Map<string, Chosen>): void {
  const years = new Set([...chosen.values()].map((c) => c.period.fiscalYear));
  const at = (label: string) => chosen.get(label);
  const derive = (label: string, quarter: number, fiscalYear: number, total: Chosen, parts: Chosen[]) => {
    const value = total.original.val - parts.reduce((sum, part) => sum + part.original.val, 0);
    const start = addDays(
      parts.reduce((latest, part) => (part.period.end > latest ? part.period.end : latest), parts[0].period.end),
      1,
    );
    const fact = { ...total.original, val: value, start, end: total.period.end };
    chosen.set(label, {
      period: { label, kind: 'quarter', fiscalYear, quarter, start, end: total.period.end },
      latest: fact,
      original: fact,
      restated: false,
      derived: true,
    });
  };
  for (const fiscalYear of [...years].sort()) {
    const [q1, h1, nine, fy] = [
      at(`Q1-${fiscalYear}`),
      at(`H1-${fiscalYear}`),
      at(`9M-${fiscalYear}`),
      at(`FY${fiscalYear}`),
    ];
    if (!at(`Q2-${fiscalYear}`) && h1 && q1) derive(`Q2-${fiscalYear}`, 2, fiscalYear, h1, [q1]);
    if (!at(`Q3-${fiscalYear}`) && nine && h1) derive(`Q3-${fiscalYear}`, 3, fiscalYear, nine, [h1]);
    if (!at(`Q4-${fiscalYear}`) && fy) {
      const [q2, q3] = [at(`Q2-${fiscalYear}`), at(`Q3-${fiscalYear}`)];
      if (nine) derive(`Q4-${fiscalYear}`, 4, fiscalYear, fy, [nine]);
      else if (q1 && q2 && q3) derive(`Q4-${fiscalYear}`, 4, fiscalYear, fy, [q1, q2, q3]);
    }
  }
}

const STORED_PERIOD = /^(Q[1-4]-\d{4}|FY\d{4})$/;

/** Turns a companyfacts file (us-gaap, or ifrs-full for IFRS filers) into statements and value sources. */
export function importCompanyFacts(file: CompanyFactsFile): ImportedCompany {
  if (!file || typeof file !== 'object' || !file.facts || typeof file.entityName !== 'string') {
    throw new UnsupportedFiling('not a companyfacts file: expected {cik, entityName, facts}');
  }
  const taxonomy: Taxonomy | null = file.facts['us-gaap'] ? 'us-gaap' : file.facts['ifrs-full'] ? 'ifrs-full' : null;
  if (!taxonomy) {
    const taxonomies = Object.keys(file.facts).join(', ') || 'none';
    throw new UnsupportedFiling(
      `${file.entityName} files neither us-gaap nor ifrs-full facts (taxonomies: ${taxonomies}), so it has no statements to import.`,
    );
  }
  const mappings = MAPPINGS_BY_TAXONOMY[taxonomy];
  const currency = reportingCurrency(file, taxonomy);
  const calendar = learnCalendar(file, taxonomy);
  const perConcept = new Map<string, Map<string, Chosen>>();
  for (const [concept, { facts }] of mappedFacts(file, taxonomy, currency)) {
    const chosen = choose(facts, calendar);
    if (mappings.some((mapping) => mapping.concepts.includes(concept) && isAdditive(mapping))) deriveQuarters(chosen);
    perConcept.set(concept, chosen);
  }

  const statements = new Map<string, ImportedStatement>();
  let sources: ValueSourceRow[] = [];
  for (const mapping of mappings) {
    const usable = (chosen: Chosen | undefined, label: string) =>
      chosen !== undefined && STORED_PERIOD.test(label) && !(chosen.derived && !isAdditive(mapping)); // shares, per-share figures and instants are never derived
    const conceptOfYear = conceptsByYear(mapping, perConcept, usable);
    const labels = new Set(mapping.concepts.flatMap((concept) => [...(perConcept.get(concept)?.keys() ?? [])]));
    for (const label of labels) {
      // Per-share figures and share counts are not summed, so a period the year's concept lacks may use another
      // (EarningsPerShareBasicAndDiluted in a quarter with a loss, EarningsPerShareBasic in the others).
      const candidates = mapping.unit === 'money' ? [conceptOfYear.get(Number(label.slice(-4)))] : mapping.concepts;
      const concept = candidates.find((c) => c !== undefined && usable(perConcept.get(c)?.get(label), label));
      const chosen = concept === undefined ? undefined : perConcept.get(concept)?.get(label);
      if (!concept || !chosen) continue;
      const key = `${mapping.statement}:${label}`;
      const statement = statements.get(key) ?? newStatement(mapping.statement, chosen.period);
      statements.set(key, statement);
      const value = mapping.negate ? -chosen.latest.val : chosen.latest.val;
      statement.values[mapping.field] = value;
      sources.push({
        statement: mapping.statement,
        period: label,
        field: mapping.field,
        value,
        reportedValue: chosen.latest.val,
        concept,
        accession: chosen.latest.accn,
        form: chosen.latest.form,
        filed: chosen.latest.filed,
        derived: chosen.derived,
        restated: chosen.restated,
        documentId: null,
        page: null,
      });
    }
  }
  sources = deriveFields(statements.values(), sources);
  // A balance sheet is a date at which the filer reported total assets; other instants (the opening cash of a
  // cash-flow statement, a note's debt table) are not balance sheets.
  for (const [key, statement] of statements) {
    if (
      Object.keys(statement.values).length === 0 ||
      (statement.statement === 'balance' && statement.values.totalAssets === undefined)
    )
      statements.delete(key);
  }
  sources = sources.filter((source) => statements.has(`${source.statement}:${source.period}`));
  if (statements.size === 0)
    throw new UnsupportedFiling(
      `${file.entityName} files no ${taxonomy} facts of the concepts the import maps, in annual or quarterly reports`,
    );
  fillPeriodSpans(statements);
  const ends = [...statements.values()]
    .filter((s) => s.fiscalQuarter === null)
    .map((s) => Number(s.periodEnd.slice(5, 7)));
  return {
    cik: Number(file.cik),
    name: file.entityName,
    taxonomy,
    currency,
    fiscalYearEndMonth: mode(ends) ?? 12,
    statements: [...statements.values()].sort(
      (a, b) => a.periodEnd.localeCompare(b.periodEnd) || a.statement.localeCompare(b.statement),
    ),
    sources,
  };
}

/**
 * One concept per field and fiscal year, for the year and all its quarters: the concept with a value for most of
 * the year's periods, the mapping's order breaking ties. A year's flows and its quarters' then always come from the
 * same concept (a company that tags D&A one way in its 10-K and another in its 10-Qs gets one of them throughout).
 */
function conceptsByYear(
  mapping: FieldMapping,
  perConcept: Map<string, Map<string, Chosen>>,
  usable: (chosen: Chosen, label: string) => boolean,
): Map<number, string> {
  const best = new Map<number, { concept: string; count: number }>();
  for (const concept of mapping.concepts) {
    const counts = new Map<number, number>();
    for (const [label, chosen] of perConcept.get(concept) ?? []) {
      if (!usable(chosen, label)) continue;
      const fiscalYear = Number(label.slice(-4));
      counts.set(fiscalYear, (counts.get(fiscalYear) ?? 0) + 1);
    }
    for (const [fiscalYear, count] of counts)
      if (count > (best.get(fiscalYear)?.count ?? 0)) best.set(fiscalYear, { concept, count });
  }
  return new Map([...best].map(([fiscalYear, { concept }]) => [fiscalYear, concept]));
}

function newStatement(statement: StatementKind, period: Labelled): ImportedStatement {
  return {
    statement,
    period: period.label,
    fiscalYear: period.fiscalYear,
    fiscalQuarter: period.quarter,
    periodStart: period.start ?? '',
    periodEnd: period.end,
    values: {},
  };
}

/** A balance sheet has a date, not a span: it borrows the span of the same period's other statements. */
function fillPeriodSpans(statements: Map<string, ImportedStatement>): void {
  for (const statement of statements.values()) {
    if (statement.periodStart) continue;
    const sibling = statements.get(`income:${statement.period}`) ?? statements.get(`cashFlow:${statement.period}`);
    statement.periodStart =
      sibling?.periodStart || addDays(statement.periodEnd, statement.fiscalQuarter === null ? -363 : -90);
  }
}

function mode(values: number[]): number | null {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}
