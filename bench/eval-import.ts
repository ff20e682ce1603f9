/**
 * Accuracy of the SEC import (not part of `npm test`: the data is not shipped).
 *
 *   npm run eval:import -- <folder with companyfacts/ and company_tickers.json> [--gold <csv>] [--json]
 *
 * Imports every `<folder>/companyfacts/*.json` into a fresh embedded database, then compares each row of the gold file
 * (default `<folder>/statement_gold_dev.csv`) it can map — a us-gaap concept of the concept map, a period we store
 * (FY or quarter) — with the value stored for (ticker, period, concept). A value matches when it is equal (EPS within
 * 0.005). Prints coverage and exact-match rates per concept and per period kind, and every miss with its reason;
 * then, per company, the pass rate of each data-quality identity (balance, year = sum of quarters, cash roll-forward,
 * gross profit) over the imported statements.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config';
import { createLogger } from '../src/shared/logger';
import { migrate, openDatabase, withStartupLock } from '../src/db/database';
import { IFRS_MAPPINGS, isStoredField, MAPPED_CONCEPTS, US_GAAP_MAPPINGS } from '../src/sec/concept-map';
import { summarizeChecks, CHECK_NAMES, type CheckSummary } from '../src/statements/data-quality';
import { importCompanyFacts, UnsupportedFiling } from '../src/sec/companyfacts';
import { storeImport, tickerIndex } from '../src/sec/sec-store';

interface Options {
  folder: string;
  gold: string | null;
  json: boolean;
}

function readOptions(argv: string[]): Options {
  const options: Options = { folder: '', gold: null, json: false };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === '--json') options.json = true;
    else if (argv[i] === '--gold') options.gold = argv[++i];
    else if (!argv[i].startsWith('--') && !options.folder) options.folder = argv[i];
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  if (!options.folder) throw new Error('usage: npm run eval:import -- <folder> [--gold <csv>] [--json]');
  return options;
}

/** RFC 4180 CSV (quoted fields may hold commas and doubled quotes) into objects keyed by the header. */
export function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field || row.length) rows.push([...row, field]);
  const [header, ...body] = rows.filter((r) => r.length > 1);
  return body.map((values) => Object.fromEntries(header.map((name, i) => [name, values[i] ?? ''])));
}

const STORED_PERIOD = /^(Q[1-4]-\d{4}|FY\d{4})$/;
const rate = (part: number, whole: number) => (whole === 0 ? null : Math.round((part / whole) * 10000) / 10000);

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const log = (message: string) => !options.json && process.stderr.write(`${message}\n`);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-eval-import-'));
  const config = loadConfig({
    ...process.env,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    SEED_DEMO_DATA: 'false',
    LOG_LEVEL: 'error',
  });
  const database = await openDatabase(config, createLogger('error'));
  try {
    await withStartupLock(database, (runner) => migrate(database, runner));
    const tickers = tickerIndex(JSON.parse(fs.readFileSync(path.join(options.folder, 'company_tickers.json'), 'utf8')));
    const imported: Record<string, string> = {};
    const identities: Record<string, CheckSummary[]> = {};
    const folder = path.join(options.folder, 'companyfacts');
    for (const file of fs
      .readdirSync(folder)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      try {
        const company = importCompanyFacts(JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')));
        const ticker = tickers.get(company.cik) ?? `CIK${company.cik}`;
        const stored = await storeImport(database.dataSource, company, ticker);
        imported[file] =
          `${ticker}: ${stored.statements} statements, ${stored.values} values, ${company.taxonomy} in ${company.currency}`;
        identities[ticker] = summarizeChecks(
          company.statements.map((s) => ({
            kind: s.statement,
            period: s.period,
            periodEnd: s.periodEnd,
            values: s.values,
          })),
        );
      } catch (error) {
        imported[file] =
          error instanceof UnsupportedFiling
            ? `refused: ${error.message.split('.')[0]}`
            : `failed: ${(error as Error).message}`;
      }
      log(`${file}: ${imported[file]}`);
    }

    const stored = new Map<string, { value: number; derived: boolean; restated: boolean }>();
    const chosenConcept = new Map<string, string>();
    const rows: Array<{
      ticker: string;
      period: string;
      concept: string;
      field: string;
      statement: string;
      reported_value: string;
      derived: boolean;
      restated: boolean;
    }> = await database.dataSource.query(
      'SELECT c.ticker, s.period, s.concept, s.field, s.statement, s.reported_value, s.derived, s.restated FROM statement_value_sources s JOIN companies c ON c.id = s.company_id',
    );
    for (const row of rows) {
      stored.set(`${row.ticker}|${row.period}|${row.concept}`, {
        value: Number(row.reported_value),
        derived: row.derived,
        restated: row.restated,
      });
      chosenConcept.set(`${row.ticker}|${row.period}|${row.statement}|${row.field}`, row.concept);
    }
    const storedTickers = new Set(rows.map((row) => row.ticker));
    const storedPeriods = new Set(rows.map((row) => `${row.ticker}|${row.period}`));

    const gold = parseCsv(fs.readFileSync(options.gold ?? path.join(options.folder, 'statement_gold_dev.csv'), 'utf8'));
    type Tally = { rows: number; mapped: number; found: number; exact: number };
    const tally = () => ({ rows: 0, mapped: 0, found: 0, exact: 0 });
    const byConcept: Record<string, Tally> = {};
    const byKind: Record<string, Tally> = {};
    const total = tally();
    const misses: Array<Record<string, unknown>> = [];
    const unmapped: Record<string, number> = {};
    for (const row of gold) {
      const concept = row.concept;
      const kind = row.period_kind;
      const count = (t: Tally, key: keyof Tally) => (t[key] += 1);
      const tallies = [total, (byConcept[concept] ??= tally()), (byKind[kind] ??= tally())];
      tallies.forEach((t) => count(t, 'rows'));
      const reason =
        row.taxonomy !== 'us-gaap' && row.taxonomy !== 'ifrs-full'
          ? `${row.taxonomy} (not a statement taxonomy)`
          : !storedTickers.has(row.ticker)
            ? 'company not imported'
            : !MAPPED_CONCEPTS.has(concept)
              ? 'concept not in the concept map'
              : !STORED_PERIOD.test(row.period_label)
                ? `${kind} periods are not stored (only FY and quarters)`
                : null;
      if (reason) {
        unmapped[reason] = (unmapped[reason] ?? 0) + 1;
        continue;
      }
      tallies.forEach((t) => count(t, 'mapped'));
      const found = stored.get(`${row.ticker}|${row.period_label}|${concept}`);
      const expected = Number(row.value_latest || row.value);
      const allMappings = [...US_GAAP_MAPPINGS, ...IFRS_MAPPINGS].filter((m) => m.concepts.includes(concept));
      if (!found && allMappings.every((m) => !isStoredField(m.field))) {
        // e.g. LongTermDebt (with its current portion): an input of a derived field, not stored as such.
        tallies.forEach((t) => (t.mapped -= 1));
        const why = 'an input of a derived field, not stored as such';
        unmapped[why] = (unmapped[why] ?? 0) + 1;
        continue;
      }
      if (!found) {
        // The field this concept feeds may hold a preferred concept for the period: not a miss, a choice.
        const preferred = [...US_GAAP_MAPPINGS, ...IFRS_MAPPINGS]
          .filter((m) => m.concepts.includes(concept))
          .map((m) => chosenConcept.get(`${row.ticker}|${row.period_label}|${m.statement}|${m.field}`))
          .find((chosen) => chosen !== undefined && chosen !== concept);
        if (preferred) {
          tallies.forEach((t) => (t.mapped -= 1));
          const why = 'the field holds a preferred concept for this period';
          unmapped[why] = (unmapped[why] ?? 0) + 1;
          continue;
        }
        if (!storedPeriods.has(`${row.ticker}|${row.period_label}`)) {
          tallies.forEach((t) => (t.mapped -= 1));
          const why = 'period not in the imported companyfacts file (from a newer filing)';
          unmapped[why] = (unmapped[why] ?? 0) + 1;
          continue;
        }
        misses.push({
          ticker: row.ticker,
          period: row.period_label,
          concept,
          expected,
          reason: 'not stored for this period',
        });
        continue;
      }
      tallies.forEach((t) => count(t, 'found'));
      const exact = row.unit === 'USD/shares' ? Math.abs(found.value - expected) <= 0.005 : found.value === expected;
      if (exact) tallies.forEach((t) => count(t, 'exact'));
      else
        misses.push({
          ticker: row.ticker,
          period: row.period_label,
          concept,
          expected,
          stored: found.value,
          derived: found.derived,
          gold_source: row.source,
          first_reported: Number(row.value),
        });
    }
    const figures = (t: Tally) => ({ ...t, coverage: rate(t.found, t.mapped), exact_rate: rate(t.exact, t.found) });
    const report = {
      imported,
      gold_rows: gold.length,
      total: figures(total),
      by_period_kind: Object.fromEntries(Object.entries(byKind).map(([k, t]) => [k, figures(t)])),
      by_concept: Object.fromEntries(
        Object.entries(byConcept)
          .sort()
          .map(([k, t]) => [k, figures(t)]),
      ),
      not_mapped: unmapped,
      misses,
      identities: Object.fromEntries(
        Object.entries(identities).map(([ticker, checks]) => [
          ticker,
          Object.fromEntries(
            checks.map((c) => [
              c.check,
              {
                checked: c.checked,
                passed: c.passed,
                pass_rate: c.passRate === null ? null : rate(c.passed, c.checked),
                failures: c.failures,
              },
            ]),
          ),
        ]),
      ),
    };
    if (options.json) {
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    const line = (name: string, t: Tally) => {
      const f = figures(t);
      return `${name.padEnd(72)}${String(t.rows).padStart(7)}${String(t.mapped).padStart(8)}${String(t.found).padStart(7)}${String(t.exact).padStart(7)}${String(f.coverage ?? '-').padStart(10)}${String(f.exact_rate ?? '-').padStart(10)}\n`;
    };
    const header = `${'key'.padEnd(72)}${'rows'.padStart(7)}${'mapped'.padStart(8)}${'found'.padStart(7)}${'exact'.padStart(7)}${'coverage'.padStart(10)}${'exact %'.padStart(10)}\n`;
    process.stdout.write(
      `\nSEC import vs ${path.basename(options.gold ?? 'statement_gold_dev.csv')}: ${gold.length} rows\n\n${header}${line('TOTAL', total)}\nby period kind\n`,
    );
    for (const [kind, t] of Object.entries(byKind)) process.stdout.write(line(kind, t));
    process.stdout.write('\nby concept\n');
    for (const [concept, t] of Object.entries(byConcept).sort()) process.stdout.write(line(concept, t));
    process.stdout.write(`\nnot mapped: ${JSON.stringify(unmapped)}\n\nmisses (${misses.length}):\n`);
    for (const miss of misses) process.stdout.write(`  ${JSON.stringify(miss)}\n`);
    process.stdout.write(
      `\nidentities per company (passed/checked)\n${'ticker'.padEnd(12)}${CHECK_NAMES.map((name) => name.padStart(26)).join('')}\n`,
    );
    const totals = new Map(CHECK_NAMES.map((name) => [name, { passed: 0, checked: 0 }]));
    const cell = (passed: number, checked: number) =>
      (checked === 0 ? '-' : `${passed}/${checked} ${((100 * passed) / checked).toFixed(1)}%`).padStart(26);
    for (const [ticker, checks] of Object.entries(identities)) {
      for (const c of checks) {
        const t = totals.get(c.check) as { passed: number; checked: number };
        t.passed += c.passed;
        t.checked += c.checked;
      }
      process.stdout.write(`${ticker.padEnd(12)}${checks.map((c) => cell(c.passed, c.checked)).join('')}\n`);
    }
    process.stdout.write(
      `${'ALL'.padEnd(12)}${CHECK_NAMES.map((name) => cell(totals.get(name)!.passed, totals.get(name)!.checked)).join('')}\n`,
    );
    process.stdout.write('\nfailed identities:\n');
    for (const [ticker, checks] of Object.entries(identities)) {
      for (const c of checks)
        for (const f of c.failures)
          process.stdout.write(
            `  ${ticker} ${f.statement} ${f.period} ${c.check}: difference ${f.difference} — ${f.detail}\n`,
          );
    }
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:import failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
